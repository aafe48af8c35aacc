#!/usr/bin/env python3
"""Checks a Chrome trace event JSON file (timersim replay --perfetto)
against the format's rules, as ui.perfetto.dev and chrome://tracing read it:

  - a JSON object with a "traceEvents" list (parsed by Python's json);
  - every event has a known phase, integer pid and tid, and (except
    metadata) a numeric timestamp in microseconds, never decreasing on a
    process's tracks;
  - async slices: every "b" has one later "e" with the same pid, cat, id
    and name; an id is never reused while its slice is open; none is left
    open;
  - complete slices ("X") have a duration of 0 or more microseconds, and
    on one thread (pid, tid) one begins no earlier than the previous ended;
  - counters ("C") carry only numbers; instants ("i") a scope.

Prints a summary as JSON on success (slices, ends by how, cascade moves,
counter samples, complete slices and their units by name, interrupts); exits 1 with the first broken rule otherwise.
Usage: check-trace-events.py FILE
"""
import json
import sys


def fail(msg):
    print("check-trace-events: " + msg, file=sys.stderr)
    sys.exit(1)


def main(path):
    with open(path, encoding="utf-8") as f:
        doc = json.load(f)
    if not isinstance(doc, dict) or not isinstance(doc.get("traceEvents"), list):
        fail("no traceEvents list")
    last_ts = {}
    open_slices = {}
    complete_end = {}
    summary = {"events": 0, "slices": 0, "ends": {}, "cascade_moves": 0, "cascades": 0,
               "counters": {}, "misses": 0, "processes": 0, "complete": {}, "complete_units": {},
               "interrupts": 0}
    for n, e in enumerate(doc["traceEvents"]):
        where = "event %d" % n
        ph = e.get("ph")
        if ph not in ("M", "b", "e", "i", "C", "X"):
            fail("%s: unknown phase %r" % (where, ph))
        for k in ("pid", "tid"):
            if type(e.get(k)) is not int:
                fail("%s: %s is not an integer" % (where, k))
        summary["events"] += 1
        if ph == "M":
            if e.get("name") == "process_name":
                summary["processes"] += 1
            continue
        ts = e.get("ts")
        if type(ts) not in (int, float) or ts < 0:
            fail("%s: ts %r is not a number of microseconds" % (where, ts))
        if ts < last_ts.get(e["pid"], 0):
            fail("%s: ts %r goes back on pid %d (after %r)" % (where, ts, e["pid"], last_ts[e["pid"]]))
        last_ts[e["pid"]] = ts
        if ph in ("b", "e"):
            if not isinstance(e.get("id"), str) or not isinstance(e.get("cat"), str) \
                    or not isinstance(e.get("name"), str):
                fail("%s: async event without string id, cat and name" % where)
            key = (e["pid"], e["cat"], e["id"])
            if ph == "b":
                if key in open_slices:
                    fail("%s: id %s reused while its slice is open" % (where, e["id"]))
                open_slices[key] = e["name"]
                summary["slices"] += 1
            else:
                if key not in open_slices:
                    fail("%s: end of id %s that is not open" % (where, e["id"]))
                if open_slices.pop(key) != e["name"]:
                    fail("%s: end of id %s names another slice" % (where, e["id"]))
                how = e.get("args", {}).get("how", "?")
                summary["ends"][how] = summary["ends"].get(how, 0) + 1
        elif ph == "X":
            dur = e.get("dur")
            if type(dur) not in (int, float) or dur < 0:
                fail("%s: complete slice with dur %r" % (where, dur))
            track = (e["pid"], e["tid"])
            if ts < complete_end.get(track, 0):
                fail("%s: slice at %r overlaps the one before on pid %d tid %d (ends %r)"
                     % (where, ts, e["pid"], e["tid"], complete_end[track]))
            complete_end[track] = ts + dur
            name = e.get("name")
            summary["complete"][name] = summary["complete"].get(name, 0) + 1
            units = e.get("args", {}).get("units", 0)
            summary["complete_units"][name] = summary["complete_units"].get(name, 0) + units
        elif ph == "C":
            args = e.get("args")
            if not isinstance(args, dict) or not args:
                fail("%s: counter without values" % where)
            for k, v in args.items():
                if type(v) not in (int, float):
                    fail("%s: counter %s value %r is not a number" % (where, k, v))
            summary["counters"][e.get("name")] = summary["counters"].get(e.get("name"), 0) + 1
        elif ph == "i":
            if e.get("s") not in ("t", "p", "g"):
                fail("%s: instant without scope" % where)
            if e.get("cat") == "cascade":
                summary["cascades"] += 1
                summary["cascade_moves"] += e["args"]["count"]
            elif e.get("cat") == "fidelity":
                summary["misses"] += 1
            elif e.get("cat") == "interrupt":
                summary["interrupts"] += 1
    if open_slices:
        fail("%d slices never closed, e.g. id %s" % (len(open_slices), next(iter(open_slices))[2]))
    print(json.dumps(summary, sort_keys=True))


if __name__ == "__main__":
    if len(sys.argv) != 2:
        fail("usage: check-trace-events.py FILE")
    main(sys.argv[1])
