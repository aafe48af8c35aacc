#!/usr/bin/env python3
"""Loads a `timersim view` page in Debian's headless Chromium and steps it.

Drives the browser over the DevTools protocol on a pipe
(--remote-debugging-pipe: JSON messages separated by NUL bytes on file
descriptors 3 and 4), with the standard library only. It loads the page,
collects console errors and uncaught exceptions, then for each requested
frame of a CPU calls the page's own handle (window.timersimView.goTo) and
reads back what the page shows: the timers listed in every slot, and the
slots marked as each level's index. Optionally clicks a slot and reads the
list it shows, and saves a screenshot.

Usage: view-browser-check.py PAGE.html [PAGE.html ...] --cpu N --frames 0,1,5 [--screenshot OUT.png]
                             [--click-first-slot] [--worst] [--step-json STEP.json] [--changes] [--hash]
                             [--width PX] [--time]
Prints plain lines the caller compares with what it expects:

  errors N                      then one line per console error or exception
  frames N                      frames of the CPU in the window
  worst cpu C frame K jiffy J   (--worst: where the worst-tick button went)
  frame K cpu C jiffy J         per requested frame, then its slots:
  slot BASE LEVEL SLOT: ID ID   every non-empty slot, timers in list order
  index BASE LEVEL SLOT         the slot each level's index marks
  clicked: ID ID                (--click-first-slot: the timers the slot panel lists)
  changes K:                   (--changes) per requested frame, what the page lists
    LINE                        that the step did, one line each, indented
  step frame K: same|differs    (--step-json: `timersim step --json` output of the same
                                scenario or trace window; see compare_with_step())
  step compared N differ M
  hash K: #frame=K history H   (--hash) per requested frame, the page's address after it
                                went there, and the history's length (the same for every
                                frame: stepping adds no entry)
  linked #frame=F: frame K      (--hash) the frame shown after the address is set to the
                                first requested frame's link while the page is open
  time rows N                   (--time) rows of the time table (per callback, ms)
  time row I: CELL | CELL ...   its first rows as shown (a cell's lines joined by a space)
  time seconds N                bars of the per-second strip of the CPU (measured seconds)
  cut N                         table cells whose right edge lies past the window's visible
                                width (--width PX, 1560 unless given, less a scroll bar), or
                                that clip their text

With --step-json every frame of the CPU is read, and the slots the page
shows (timers by name, in list order) and each level's index are compared
with the wheel `timersim step` printed: for a scenario page, frame K with
the wheel after statement K (frame 0 is the wheel before the first); for a
trace window, the frame before jiffy J with the wheel after the last step
whose next jiffy is J (frames no step ends at are not compared). Step names
a trace's second timer of a callback "cb.2"; the page names it "cb".

With several pages (one browser for all: it is the slow part), each
page's lines follow a line "page I PATH", and the I-th --step-json and
--screenshot go with the I-th page.

Exit status 0 when the page loaded; the caller judges the contents. Fails
(status 1) when Chromium cannot start or answer.
"""
import argparse
import base64
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time

CHROMIUM_FLAGS = [
    "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
    "--disable-background-networking", "--disable-component-update", "--disable-sync",
    "--disable-extensions", "--disable-default-apps", "--mute-audio",
    "--remote-debugging-pipe",
]


class Browser:
    def __init__(self, binary):
        self.profile = tempfile.mkdtemp(prefix="timersim-chromium-")
        to_child_r, self.to_child = os.pipe()
        self.from_child, from_child_w = os.pipe()

        def wire():
            # The child reads commands on fd 3 and writes replies on fd 4
            # (copied high first, in case a pipe end already is 3 or 4).
            r, w = os.dup(to_child_r), os.dup(from_child_w)
            os.dup2(r, 3)
            os.dup2(w, 4)

        self.proc = subprocess.Popen(
            [binary] + CHROMIUM_FLAGS + ["--user-data-dir=" + self.profile, "about:blank"],
            stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
            preexec_fn=wire, close_fds=False)
        os.close(to_child_r)
        os.close(from_child_w)
        self.buf = b""
        self.next_id = 0
        self.events = []

    def send(self, method, params=None, session=None, timeout=20):
        self.next_id += 1
        msg = {"id": self.next_id, "method": method, "params": params or {}}
        if session:
            msg["sessionId"] = session
        os.write(self.to_child, json.dumps(msg).encode() + b"\0")
        deadline = time.time() + timeout
        while time.time() < deadline:
            reply = self.read(deadline)
            if reply is None:
                break
            if reply.get("id") == self.next_id:
                if "error" in reply:
                    raise RuntimeError("%s: %s" % (method, reply["error"]))
                return reply.get("result", {})
            self.events.append(reply)
        raise RuntimeError("%s: no reply from Chromium" % method)

    def read(self, deadline):
        while b"\0" not in self.buf:
            if time.time() > deadline:
                return None
            chunk = os.read(self.from_child, 1 << 20)
            if not chunk:
                return None
            self.buf += chunk
        msg, self.buf = self.buf.split(b"\0", 1)
        return json.loads(msg)

    def wait_event(self, method, timeout=20):
        deadline = time.time() + timeout
        for i, e in enumerate(self.events):
            if e.get("method") == method:
                return self.events.pop(i)
        while time.time() < deadline:
            e = self.read(deadline)
            if e is None:
                break
            if e.get("method") == method:
                return e
            self.events.append(e)
        raise RuntimeError("no %s from Chromium" % method)

    def close(self):
        try:
            self.send("Browser.close", timeout=5)
        except Exception:
            pass
        try:
            self.proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.proc.kill()
        shutil.rmtree(self.profile, ignore_errors=True)


def errors_in(events):
    out = []
    for e in events:
        m, p = e.get("method"), e.get("params", {})
        if m == "Runtime.exceptionThrown":
            d = p.get("exceptionDetails", {})
            out.append("exception: " + d.get("exception", {}).get("description", d.get("text", "?")))
        elif m == "Runtime.consoleAPICalled" and p.get("type") in ("error", "assert"):
            out.append("console.%s: %s" % (p["type"], " ".join(
                str(a.get("value", a.get("description", ""))) for a in p.get("args", []))))
        elif m == "Log.entryAdded" and p.get("entry", {}).get("level") == "error":
            out.append("log: " + p["entry"].get("text", ""))
    return out


def page_wheel(frame):
    """The page's frame as {(base, level, slot): [names]} and {(base, level): index}."""
    slots = {(s["base"], s["level"], s["slot"]): s["names"] for s in frame["slots"]}
    return slots, {(i["base"], i["level"]): i["slot"] for i in frame["indexes"]}


def step_wheel(wheel, strip_suffix):
    slots, indexes = {}, {}
    for b, base in enumerate(wheel["bases"]):
        for level in base["levels"]:
            indexes[(b, level["name"])] = level["index"]
            for s in level["slots"]:
                names = [t["name"] for t in s["timers"]]
                if strip_suffix:
                    names = [re.sub(r"\.\d+$", "", n) for n in names]
                slots[(b, level["name"], s["slot"])] = names
    return slots, indexes


def describe(slots, indexes):
    return "; ".join("%d %s[%d]: %s" % (k + (" ".join(v),)) for k, v in sorted(slots.items())) + \
        " | index " + " ".join("%d %s %d" % (k + (v,)) for k, v in sorted(indexes.items()))


def compare_with_step(frames, step, is_scenario):
    """Lines comparing each page frame with the wheel `timersim step` printed."""
    steps = step["steps"]
    lines, compared, differ = [], 0, 0
    for f in frames:
        if is_scenario:
            want = steps[f["frame"] - 1]["wheel"] if f["frame"] > 0 else None
        else:
            ends = [s for s in steps if s["wheel"]["now"] == f["jiffy"]]
            want = ends[-1]["wheel"] if ends else None
        if want is None:
            continue
        compared += 1
        got = page_wheel(f)
        expect = step_wheel(want, not is_scenario)
        if got == expect and want["now"] == f["jiffy"]:
            lines.append("step frame %d: same" % f["frame"])
        else:
            differ += 1
            lines.append("step frame %d: differs\n  page %s (jiffy %d)\n  step %s (now %d)" % (
                f["frame"], describe(*got), f["jiffy"], describe(*expect), want["now"]))
    lines.append("step compared %d differ %d" % (compared, differ))
    return lines


def check_page(browser, session, args, page, step_json, screenshot):
    """The lines for one page (the browser and its tab are shared)."""
    browser.events = []
    browser.send("Page.navigate", {"url": "file://" + os.path.abspath(page)}, session=session)
    browser.wait_event("Page.loadEventFired")

    def js(expr):
        r = browser.send("Runtime.evaluate", {"expression": expr, "returnByValue": True}, session=session)
        if "exceptionDetails" in r:
            raise RuntimeError("page script failed: " + json.dumps(r["exceptionDetails"])[:500])
        return r["result"].get("value")

    out = {"frames": [], "count": js("window.timersimView ? window.timersimView.frames(%d) : -1" % args.cpu)}
    if args.worst:
        js("window.timersimView.worst()")
        out["worst"] = js("window.timersimView.info()")
    def read_frame(k):
        js("window.timersimView.goTo(%d, %d)" % (args.cpu, k))
        info = js("window.timersimView.info()")
        info["slots"] = js("window.timersimView.shown()")
        info["indexes"] = js("window.timersimView.indexes()")
        info["changes"] = js("document.getElementById('changes').textContent")
        info["hash"] = js("location.hash + ' history ' + history.length")
        return info

    step_lines = []
    if step_json:
        with open(step_json) as f:
            step = json.load(f)
        is_scenario = js("!!JSON.parse(document.getElementById('timersim-data').textContent).lab")
        # Every frame in one call: the page steps and reads itself back.
        every = js("""(() => { const v = window.timersimView; return Array.from({length: %d}, (_, k) => {
            v.goTo(%d, k); return Object.assign(v.info(), {slots: v.shown(), indexes: v.indexes()}); }); })()"""
                   % (out["count"], args.cpu))
        step_lines = compare_with_step(every, step, is_scenario)
    for k in [int(f) for f in args.frames.split(",") if f != ""]:
        out["frames"].append(read_frame(k))
    if args.click_first_slot:
        out["clicked"] = js("""(() => {
            const c = document.querySelector('#wheel .cell[data-timers]:not([data-timers=""])');
            if (!c) return [];
            c.click();
            return Array.from(document.querySelectorAll('#slot-timers li')).map((li) => ({
                timer: Number(li.getAttribute('data-timer')), text: li.textContent}));
        })()""")
    if screenshot:
        shot = browser.send("Page.captureScreenshot", {"format": "png"}, session=session)
        with open(screenshot, "wb") as f:
            f.write(base64.b64decode(shot["data"]))
    time.sleep(0.2)
    browser.send("Runtime.evaluate", {"expression": "1"}, session=session)
    errors = errors_in(browser.events)
    lines = ["errors %d" % len(errors)] + errors + ["frames %d" % out["count"]]
    if "worst" in out:
        w = out["worst"]
        lines.append("worst cpu %d frame %d jiffy %d" % (w["cpu"], w["frame"], w["jiffy"]))
    for f in out["frames"]:
        lines.append("frame %d cpu %d jiffy %d" % (f["frame"], f["cpu"], f["jiffy"]))
        for s in f["slots"]:
            lines.append("slot %d %s %d: %s" % (s["base"], s["level"], s["slot"], " ".join(map(str, s["timers"]))))
        for i in f["indexes"]:
            lines.append("index %d %s %d" % (i["base"], i["level"], i["slot"]))
    if "clicked" in out:
        lines.append("clicked: " + " ".join(str(c["timer"]) for c in out["clicked"]))
    if args.changes:
        for f in out["frames"]:
            lines.append("changes %d:" % f["frame"])
            lines += ["    " + l for l in f["changes"].split("\n")]
    if args.time:
        t = js("""(() => {
            const rows = Array.from(document.querySelectorAll('#time-ns table'))[0];
            const body = rows ? Array.from(rows.querySelectorAll('tr')).slice(1) : [];
            const cells = Array.from(document.querySelectorAll('table td, table th'));
            // The visible width: the window's less its vertical scroll bar.
            const visible = document.documentElement.clientWidth;
            const cut = cells.filter((c) => { const r = c.getBoundingClientRect();
                return r.width > 0 && (r.right > visible + 0.5 || c.scrollWidth > c.clientWidth + 1); });
            return {rows: body.length, first: body.slice(0, 3).map((tr) => Array.from(tr.children).map((td) =>
                        td.innerText.replace(/\\n/g, ' '))),
                    bars: document.querySelectorAll('#time-chart rect[data-second]').length,
                    cut: cut.map((c) => c.textContent.slice(0, 40))};
        })()""")
        lines.append("time rows %d" % t["rows"])
        lines += ["time row %d: %s" % (i, " | ".join(r)) for i, r in enumerate(t["first"])]
        lines.append("time seconds %d" % t["bars"])
        lines.append("cut %d" % len(t["cut"]))
        lines += ["  cut: " + c for c in t["cut"]]
    if args.hash:
        for f in out["frames"]:
            lines.append("hash %d: %s" % (f["frame"], f["hash"]))
        if out["frames"]:
            # Another frame first, so that setting the link changes the address.
            first = out["frames"][0]["frame"]
            js("window.timersimView.goTo(%d, %d)" % (args.cpu, 0 if first else 1))
            r = browser.send("Runtime.evaluate", {"expression": """new Promise((done) => {
                window.addEventListener('hashchange', () => setTimeout(() => done(window.timersimView.info().frame), 0),
                                        {once: true});
                location.hash = '#frame=%d'; })""" % first, "awaitPromise": True, "returnByValue": True},
                session=session)
            lines.append("linked #frame=%d: frame %s" % (first, r["result"].get("value")))
    lines += step_lines
    return lines


def nth(values, i):
    return values[i] if values and i < len(values) else None


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("page", nargs="+")
    ap.add_argument("--cpu", type=int, default=0)
    ap.add_argument("--frames", default="0")
    ap.add_argument("--screenshot", action="append")
    ap.add_argument("--click-first-slot", action="store_true")
    ap.add_argument("--worst", action="store_true")
    ap.add_argument("--step-json", action="append")
    ap.add_argument("--changes", action="store_true")
    ap.add_argument("--hash", action="store_true")
    ap.add_argument("--width", type=int, default=1560)
    ap.add_argument("--time", action="store_true")
    ap.add_argument("--chromium", default=os.environ.get("CHROMIUM", "/usr/bin/chromium"))
    args = ap.parse_args()

    browser = Browser(args.chromium)
    try:
        target = browser.send("Target.createTarget", {"url": "about:blank"})["targetId"]
        session = browser.send("Target.attachToTarget", {"targetId": target, "flatten": True})["sessionId"]
        for domain in ("Page", "Runtime", "Log"):
            browser.send(domain + ".enable", session=session)
        browser.send("Emulation.setDeviceMetricsOverride",
                     {"width": args.width, "height": 1100, "deviceScaleFactor": 1, "mobile": False}, session=session)
        for i, page in enumerate(args.page):
            if len(args.page) > 1:
                print("page %d %s" % (i, page))
            print("\n".join(check_page(browser, session, args, page, nth(args.step_json, i), nth(args.screenshot, i))))
            sys.stdout.flush()
    finally:
        browser.close()


if __name__ == "__main__":
    try:
        main()
    except Exception as e:  # a browser that cannot start or answer
        print("view-browser-check: %s" % e, file=sys.stderr)
        sys.exit(1)
