#!/usr/bin/env python3
"""The browser lab (build/web/index.html) in Debian's headless Chromium, as
a student uses it: opened from disk (file://), an exercise opened by its
link, answered right and then wrong, its scenario stepped three frames, a
handed-out questions file opened and answered -- each judged on the page's
DOM -- and screenshots at 1280x800 and at a phone's width.

    web-browser-check.py PAGE.html --kind KIND --seed ID --right ANSWER --wrong ANSWER
                         --questions FILE [--screenshot OUT.png] [--phone-screenshot OUT.png]

The exercise (#kind=KIND&seed=ID) needs three statements or more to step. Prints one line per check,
"ok ..." or "FAIL ...", then the console errors; exit 0 when every check
held, 1 otherwise. Drives Chromium over the DevTools protocol on a pipe
with scripts/view-browser-check.py's Browser (the standard library only).
"""
import argparse
import base64
import importlib.util
import json
import os
import sys
import time

here = os.path.dirname(os.path.abspath(__file__))
spec = importlib.util.spec_from_file_location("view_browser_check", os.path.join(here, "view-browser-check.py"))
vbc = importlib.util.module_from_spec(spec)
spec.loader.exec_module(vbc)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("page")
    ap.add_argument("--kind", required=True)
    ap.add_argument("--seed", required=True)
    ap.add_argument("--right", required=True)
    ap.add_argument("--wrong", required=True)
    ap.add_argument("--questions", required=True)
    ap.add_argument("--screenshot")
    ap.add_argument("--phone-screenshot")
    ap.add_argument("--chromium", default=os.environ.get("CHROMIUM", "/usr/bin/chromium"))
    args = ap.parse_args()
    failed = []
    link = "#kind=%s&seed=%s" % (args.kind, args.seed)
    key = "%s %s" % (args.kind, args.seed)

    def check(ok, what):
        print(("ok " if ok else "FAIL ") + what)
        sys.stdout.flush()
        if not ok:
            failed.append(what)

    browser = vbc.Browser(args.chromium)
    try:
        target = browser.send("Target.createTarget", {"url": "about:blank"})["targetId"]
        session = browser.send("Target.attachToTarget", {"targetId": target, "flatten": True})["sessionId"]
        for domain in ("Page", "Runtime", "Log"):
            browser.send(domain + ".enable", session=session)

        def size(w, h, mobile):
            browser.send("Emulation.setDeviceMetricsOverride",
                         {"width": w, "height": h, "deviceScaleFactor": 1, "mobile": mobile}, session=session)

        def js(expr, timeout=60):
            r = browser.send("Runtime.evaluate", {"expression": expr, "returnByValue": True, "awaitPromise": True},
                             session=session, timeout=timeout)
            if "exceptionDetails" in r:
                raise RuntimeError("page script failed: " + json.dumps(r["exceptionDetails"])[:600])
            return r["result"].get("value")

        def wait_for(expr, seconds=30):
            deadline = time.time() + seconds
            while time.time() < deadline:
                if js(expr):
                    return True
                time.sleep(0.05)
            return False

        def shot(path):
            data = browser.send("Page.captureScreenshot", {"format": "png"}, session=session)["data"]
            with open(path, "wb") as f:
                f.write(base64.b64decode(data))

        size(1280, 800, False)
        url = "file://" + os.path.abspath(args.page) + link
        started = time.time()
        browser.send("Page.navigate", {"url": url}, session=session)
        browser.wait_event("Page.loadEventFired")
        ready = wait_for("document.body.getAttribute('data-ready') !== null")
        elapsed = time.time() - started
        check(ready, "the page is ready (%.2f s from navigation, on file://)" % elapsed)
        check(elapsed < 2.0, "interactive within 2 s (%.2f s)" % elapsed)
        check(js("location.protocol") == "file:", "opened from file://")
        shown = js("document.getElementById('question-key').textContent")
        check(shown == key, "the link opened %s (%r)" % (key, shown))
        check("Answer as" in js("document.getElementById('question-box').textContent") and
              len(js("document.getElementById('question').textContent")) > 40, "the question is shown")

        def answer(text):
            js("document.getElementById('answer').value = %s; "
               "document.getElementById('check').click(); 0" % json.dumps(text))
            return js("document.getElementById('verdict').textContent")

        # Keyboard: Enter in the answer field checks it.
        js("document.getElementById('answer').focus(); 0")
        js("document.getElementById('answer').value = %s; 0" % json.dumps(args.right))
        browser.send("Input.dispatchKeyEvent", {"type": "keyDown", "key": "Enter", "code": "Enter",
                                                "windowsVirtualKeyCode": 13, "text": "\r"}, session=session)
        browser.send("Input.dispatchKeyEvent", {"type": "keyUp", "key": "Enter", "code": "Enter",
                                                "windowsVirtualKeyCode": 13}, session=session)
        check(wait_for("document.getElementById('verdict').textContent.startsWith('right')", 5),
              "Enter in the answer field checks the answer")

        v = answer(args.right)
        check(v.startswith("right") and "working" in v and js("document.getElementById('verdict').getAttribute('data-right')") == "1",
              "a right answer is graded right, with the working: %r" % v[:80])
        v = answer(args.wrong)
        check(v.startswith("wrong") and "expected: " + args.right in v and "you gave: " + args.wrong in v,
              "a wrong answer is graded wrong, expected and working shown: %r" % v[:120])
        # Step through the scenario: the view in the frame, three steps.
        js("document.getElementById('show-steps').click(); 0")
        check(wait_for("!!(window.timersimLab.view())", 20), "the scenario's view loaded in the page")
        frames = js("window.timersimLab.view().frames(0)")
        check(frames >= 3, "the scenario has frames to step (%s)" % frames)
        js("window.timersimLab.view().goTo(0, 0); 0")
        seen = []
        for _ in range(3):
            js("window.timersimLab.view().step(1); 0")
            seen.append(js("window.timersimLab.view().info().frame"))
        check(seen == [1, 2, 3], "three steps show frames 1, 2, 3 (%s)" % seen)
        check(wait_for("location.hash.endsWith('&frame=3')", 5), "the address links the frame shown (%s)" % js("location.hash"))
        cells = js("window.timersimLab.view().shown().length")
        check(cells >= 1, "the wheel shows the timer in a slot (%s cells)" % cells)
        if args.screenshot:
            # The whole page at 1280 wide: question, verdict, the wheel.
            height = js("document.documentElement.scrollHeight")
            size(1280, min(height, 2400), False)
            shot(args.screenshot)
            size(1280, 800, False)

        # A frame link opens the page at that frame (from another page:
        # a new hash alone would be a navigation within this one).
        browser.send("Page.navigate", {"url": "about:blank"}, session=session)
        browser.wait_event("Page.loadEventFired")
        browser.send("Page.navigate", {"url": "file://" + os.path.abspath(args.page) + link + "&frame=2"},
                     session=session)
        browser.wait_event("Page.loadEventFired")
        wait_for("document.body.getAttribute('data-ready') !== null")
        check(wait_for("!!window.timersimLab.view() && window.timersimLab.view().info().frame === 2", 20),
              link + "&frame=2 opens the view at frame 2")

        # A handed-out questions file, answered in the page.
        with open(args.questions) as f:
            qtext = f.read()
        js("window.timersimLab.openQuestions(%s, 'alice-questions.txt'); 0" % json.dumps(qtext))
        n = js("document.querySelectorAll('#question-list li').length")
        check(n == qtext.count("\n# Question "), "the questions file shows its %s questions" % n)
        js("document.getElementById('handed-0').value = 'tv1[1]'; 0")
        answered = js("window.timersimLab.answeredText()")
        first_key = js("window.timersimLab.module && document.querySelector('#question-list h2').textContent")
        check((first_key + " = tv1[1]\n") in answered, "the answer is written after its line's '='")
        check(js("document.getElementById('grade-all').hidden") == ("a private variant" in qtext),
              "a private variant is not graded in the page (no key)")

        # The handbook, and a phone's width.
        js("document.getElementById('tab-handbook').click(); 0")
        h = js("document.querySelector('#handbook-page h1').textContent")
        check(h == "The timersim lab", "the handbook opens at its front page (%r)" % h)
        size(390, 844, True)
        js("document.getElementById('tab-exercise').click(); 0")
        wide = js("document.documentElement.scrollWidth")
        check(wide <= 390, "no sideways scrolling at a phone's width (%s px)" % wide)
        if args.phone_screenshot:
            shot(args.phone_screenshot)
        errors = vbc.errors_in(browser.events)
        check(not errors, "no console errors (%s)" % errors[:3])
    finally:
        browser.close()
    return 1 if failed else 0


if __name__ == "__main__":
    try:
        sys.exit(main())
    except Exception as e:
        print("web-browser-check: %s" % e, file=sys.stderr)
        sys.exit(1)
