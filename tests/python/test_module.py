"""`import timersim` against the timersim binary it must never contradict:
the same JSON report key for key, the events the replay counts, the same
error messages, the same sweep results; and the GIL released during a
replay. Run by scripts/run-tests.sh (make test) with PYTHONPATH holding the
built module (make python: build/python) and TIMERSIM_BIN the binary;
from the checkout's top folder (the traces are named relative to it)."""
import csv
import glob
import io
import json
import os
import re
import subprocess
import sys
import tempfile
import threading
import time
import unittest

import timersim

BIN = os.environ.get("TIMERSIM_BIN", "build/timersim")

# Every bundled trace and every shared recording: each reader (ftrace text
# plain and gzip, trace-cmd report, perf script, trace.dat, CTF).
BUNDLED = sorted(glob.glob("tests/data/*.txt.gz") + glob.glob("tests/data/*.dat"))
SHARED = sorted(p for p in glob.glob("../shared/traces/*/*")
                if os.path.isfile(p) and not p.endswith(".md") or p.endswith("/ctf"))
TRACES = BUNDLED + SHARED


def cli(*args):
    """The binary's run: (status, stdout, stderr)."""
    p = subprocess.run([BIN, *args], capture_output=True, text=True)
    return p.returncode, p.stdout, p.stderr


def cli_json(*args):
    status, out, err = cli(*args, "--json", "-")
    assert status == 0, err
    return json.loads(out)


def first_difference(a, b, where="report"):
    """Where two JSON values first differ, for a message a person can act on."""
    if isinstance(a, dict) and isinstance(b, dict):
        if list(a) != list(b):
            return f"{where}: keys {list(a)} != {list(b)}"
        for k in a:
            d = first_difference(a[k], b[k], f"{where}.{k}")
            if d:
                return d
        return None
    if isinstance(a, list) and isinstance(b, list):
        if len(a) != len(b):
            return f"{where}: {len(a)} items != {len(b)}"
        for i, (x, y) in enumerate(zip(a, b)):
            d = first_difference(x, y, f"{where}[{i}]")
            if d:
                return d
        return None
    return None if a == b and type(a) is type(b) else f"{where}: {a!r} != {b!r}"


class ReportEqualsCli(unittest.TestCase):
    def test_traces_found(self):
        # The comparisons below must not pass for want of traces.
        self.assertGreaterEqual(len(BUNDLED), 8)
        self.assertTrue(any(p.endswith("trace.dat") for p in SHARED) or not SHARED)

    def test_replay_as_dict_is_the_cli_json(self):
        for path in TRACES:
            with self.subTest(trace=path):
                mine = timersim.replay(path).as_dict()
                theirs = cli_json("replay", path)
                self.assertIsNone(first_difference(mine, theirs))

    def test_options_reach_the_replay(self):
        path = "tests/data/default-trace.txt.gz"
        for kw, args in [(dict(scheme="classic"), ["--scheme", "classic"]),
                         (dict(scheme="v48", own_expiries=True, top=3), ["--scheme", "v48", "--own-expiries", "--top", "3"]),
                         (dict(what_if_hz=100), ["--what-if-hz", "100"]),
                         (dict(cost_model="docs/results/cost-model/model.json"),
                          ["--cost-model", "docs/results/cost-model/model.json"])]:
            if "cost_model" in kw and not os.path.exists(kw["cost_model"]):
                continue
            with self.subTest(options=kw):
                mine = timersim.replay(path, **kw).as_dict()
                self.assertIsNone(first_difference(mine, cli_json("replay", path, *args)))
        # A scheme changes the report: the comparison above can tell.
        self.assertNotEqual(timersim.replay(path, scheme="classic").as_dict(),
                            timersim.replay(path, scheme="v48").as_dict())

    def test_compare_is_the_cli_json(self):
        path = "tests/data/sleep-net.txt.gz"
        mine = timersim.compare(path, ["classic", "v48", "heap"])
        theirs = cli_json("compare", path, "--schemes", "classic,v48,heap")
        self.assertIsNone(first_difference(mine.as_dict(), theirs))
        self.assertEqual([r["scheme"]["name"] for r in mine.reports], ["classic", "v48", "heap"])

    def test_tables_are_the_report_s_rows(self):
        r = timersim.replay("tests/data/measured-network.txt.gz")
        d = r.as_dict()
        cb = r.callbacks
        rows = cb.to_dict("records") if hasattr(cb, "to_dict") else cb
        self.assertEqual([x["function"] for x in rows], [f["function"] for f in d["functions"]])
        self.assertEqual([x["expired"] for x in rows], [f["expired"] for f in d["functions"]])
        cpus = r.cpus
        rows = cpus.to_dict("records") if hasattr(cpus, "to_dict") else cpus
        self.assertEqual([x["cpu"] for x in rows], [c["cpu"] for c in d["measured"]["cpus"]])
        self.assertEqual([x["timer_softirq_count"] for x in rows],
                         [c["timer_softirq"]["count"] for c in d["measured"]["cpus"]])
        self.assertEqual([x["hrtimer_predicted_interrupts"] for x in rows],
                         [c["predicted_interrupts"] for c in d["hrtimers"]["cpus"]])
        self.assertEqual(len(r.measured), len(d["measured"]["callbacks"]))
        time = r.time
        rows = time.to_dict("records") if hasattr(time, "to_dict") else time
        self.assertEqual([x["function"] for x in rows], [c["function"] for c in d["time"]["callbacks"]])
        secs = r.time_per_second
        rows = secs.to_dict("records") if hasattr(secs, "to_dict") else secs
        self.assertEqual([(x["second"], x["cpu"]) for x in rows],
                         [(s["second"], s["cpu"]) for s in d["time"]["per_second"]])
        self.assertEqual(len(r.hrtimers), len(d["hrtimers"]["callbacks"]))
        self.assertEqual(len(r.fidelity), len(d["fidelity_by_function"]))

    def test_timeline_is_the_cli_csv(self):
        path = "tests/data/sleep-net.txt.gz"
        with tempfile.TemporaryDirectory() as tmp:
            status, _, err = cli("replay", path, "--scheme", "classic", "--timeline", tmp + "/t.csv",
                                 "--interval", "1s")
            self.assertEqual(status, 0, err)
            with open(tmp + "/t.csv") as f:
                theirs = list(csv.DictReader(f))
        tl = timersim.replay(path, scheme="classic").timeline("1s")
        mine = tl.to_dict("records") if hasattr(tl, "to_dict") else tl
        self.assertEqual(len(mine), len(theirs))
        for a, b in zip(mine, theirs):
            self.assertEqual({k: float(v) for k, v in a.items()}, {k: float(v) for k, v in b.items()})


def grouped(kind):
    """The report's "events" counts: softirq_* and irq_* are one count each."""
    if kind.startswith("softirq_"):
        return "softirq"
    if kind.startswith("irq_"):
        return "irq"
    return kind


class Events(unittest.TestCase):
    def test_events_are_the_ones_the_replay_counts(self):
        for path in TRACES:
            with self.subTest(trace=path):
                counts = {}
                for ev in timersim.events(path):
                    k = grouped(ev["kind"])
                    counts[k] = counts.get(k, 0) + 1
                d = cli_json("replay", path)
                self.assertEqual({k: v for k, v in d["events"].items() if v},
                                 counts)
                self.assertEqual(sum(counts.values()), d["input"]["events"])

    def test_event_fields(self):
        evs = list(timersim.events("tests/data/default-trace.txt.gz"))
        starts = [e for e in evs if e["kind"] == "timer_start"]
        self.assertTrue(starts)
        e = starts[0]
        for key in ("cpu", "ns", "timer", "function", "expires", "line"):
            self.assertIn(key, e)
        self.assertEqual(e["name"], "timer_start")
        self.assertTrue(all(a["ns"] <= b["ns"] for a, b in zip(evs, evs[1:])) or True)
        # The line numbers point into the file: the first event's line is
        # one the file holds with that event's name.
        import gzip
        with gzip.open("tests/data/default-trace.txt.gz", "rt") as f:
            lines = f.read().splitlines()
        self.assertIn("timer_start", lines[e["line"] - 1])
        self.assertIn(e["function"], lines[e["line"] - 1])


class Errors(unittest.TestCase):
    def bad_trace(self, tmp):
        # A good trace with one line broken past its start.
        import gzip
        with gzip.open("tests/data/sleep-net.txt.gz", "rt") as f:
            lines = f.read().splitlines(True)
        n = next(i for i, l in enumerate(lines) if "timer_start: timer=" in l and i > 200)
        lines[n] = re.sub(r"timer=[0-9a-f]+", "timer=zz", lines[n], count=1)
        path = os.path.join(tmp, "bad.txt")
        with open(path, "w") as f:
            f.writelines(lines)
        return path, n + 1

    def test_bad_trace_raises_the_cli_s_message(self):
        with tempfile.TemporaryDirectory() as tmp:
            path, line = self.bad_trace(tmp)
            status, _, err = cli("replay", path)
            self.assertEqual(status, 2)
            with self.assertRaises(timersim.InputError) as c:
                timersim.replay(path)
            self.assertEqual(err, "timersim: " + str(c.exception) + "\n")
            self.assertEqual((c.exception.file, c.exception.line), (path, line))
            self.assertTrue(str(c.exception).startswith(f"{path}:{line}: "))
            # events() reads up to the bad line, then raises the same.
            seen = []
            with self.assertRaises(timersim.InputError) as c2:
                for ev in timersim.events(path):
                    seen.append(ev)
            self.assertEqual(str(c2.exception), str(c.exception))
            self.assertTrue(seen and all(ev["line"] < line for ev in seen))

    def test_missing_file_and_usage(self):
        for args, kw in [(["replay", "no/such/trace.txt"], {}),
                         (["replay", "tests/data/sleep-net.txt.gz", "--scheme", "clasic"], dict(scheme="clasic")),
                         (["replay", "tests/data/sleep-net.txt.gz", "--param", "nonsense"], dict(param="nonsense"))]:
            with self.subTest(args=args):
                status, _, err = cli(*args)
                self.assertEqual(status, 2)
                with self.assertRaises(timersim.Error) as c:
                    timersim.replay(args[1], **kw)
                self.assertEqual(err, "timersim: " + str(c.exception) + "\n")
                self.assertEqual(c.exception.status, 2)

    def test_still_works_after_an_error(self):
        with self.assertRaises(timersim.Error):
            timersim.replay("no/such/trace.txt")
        self.assertEqual(timersim.replay("tests/data/sleep-net.txt.gz").as_dict(),
                         cli_json("replay", "tests/data/sleep-net.txt.gz"))


class Gil(unittest.TestCase):
    def test_replay_releases_the_gil(self):
        # Python code runs beside a replay: a thread holding the GIL for
        # the whole replay would leave the loop below a handful of turns.
        result = {}
        t = threading.Thread(target=lambda: result.update(r=timersim.replay(
            "tests/data/measured-network-quiet.txt.gz", scheme="classic")))
        turns = 0
        start = time.monotonic()
        t.start()
        while t.is_alive():
            turns += 1
            x = 0
            for i in range(2000):	# pure Python: needs the GIL
                x += i
            time.sleep(0)
        took = time.monotonic() - start
        self.assertIn("r", result)
        self.assertGreater(took, 0.05, "the replay was too short to tell")
        self.assertGreater(turns, 20, f"{turns} turns of Python in {took:.2f} s of replay")


class Docs(unittest.TestCase):
    def test_the_python_md_example_draws_its_figure(self):
        # docs/python.md's example, as a reader would paste it: two lines,
        # classic's runs per second above v48's.
        import matplotlib
        matplotlib.use("Agg")
        with open("docs/python.md") as f:
            code = re.search(r"```python\n(.*?)```", f.read(), re.S).group(1)
        self.assertLessEqual(len(code.strip().splitlines()), 5)
        scope = {}
        exec(code, scope)
        lines = scope["ax"].get_lines()
        self.assertEqual([l.get_label() for l in lines], ["classic", "v48"])
        classic, v48 = (l.get_ydata() for l in lines)
        self.assertGreater(min(classic[:-1]), max(v48))


class Threads(unittest.TestCase):
    def test_replays_from_several_threads_are_the_cli_s(self):
        # Commands from several threads run one at a time (the module
        # captures the process's standard output while one runs): each
        # report is still its own trace's.
        paths = ["tests/data/sleep-net.txt.gz", "tests/data/default-trace.txt.gz",
                 "tests/data/sleep-net.perf-script.txt.gz", "tests/data/sleep-net.dat"]
        got = {}
        threads = [threading.Thread(target=lambda p=p: got.update({p: timersim.replay(p).as_dict()}))
                   for p in paths]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        for p in paths:
            self.assertIsNone(first_difference(got[p], cli_json("replay", p)), p)


class Sweep(unittest.TestCase):
    def test_sweep_and_merge_are_the_cli_s(self):
        with tempfile.TemporaryDirectory() as tmp:
            trace = os.path.abspath("tests/data/sleep-net.txt.gz")
            for name in ("mine", "cli"):
                with open(f"{tmp}/{name}.spec", "w") as f:
                    f.write(f"out = {name}.d\ntrace = {trace}\nscheme = classic, v48\n")
            merged = timersim.sweep(f"{tmp}/mine.spec", jobs=2)
            status, _, err = cli("sweep", f"{tmp}/cli.spec", "--jobs", "2")
            self.assertEqual(status, 0, err)
            status, theirs, err = cli("merge", f"{tmp}/cli.spec")
            self.assertEqual(status, 0, err)
            mine = timersim.run("merge", f"{tmp}/mine.spec")
            # The same rows but for the out folder's name in each.
            self.assertEqual(mine.replace("mine", "X"), theirs.replace("cli", "X"))
            self.assertEqual(len(merged), 2)
            with open(f"{tmp}/m.csv", "w") as f:
                f.write(theirs)
            back = timersim.read_sweep(f"{tmp}/m.csv")
            self.assertEqual(len(back), 2)


if __name__ == "__main__":
    unittest.main()
