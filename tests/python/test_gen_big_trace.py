#!/usr/bin/python3
"""scripts/gen-big-trace.sh (the trace `make bench-replay` and
bench_text_readers replay) repeats a recording with copy k shifted by
k*S seconds: every number that is a time moves by exactly that, each
field once, and the result replays (strict, as by default). A field shifted twice
(softexpires= matched as "expires=") made every hrtimer_start of the
second copy on carry softexpires past expires, which strict replay
refuses, and the bench stopped at its first run."""

import os
import re
import subprocess
import tempfile
import unittest

BIN = os.environ.get("TIMERSIM_BIN", "build/timersim")
SOURCE = "tests/data/measured-network-quiet.txt.gz"
LINE = re.compile(r" (\d+)\.(\d+): (\w+): (.*)$")


def fields(payload):
    return {k: int(v) for k, v in re.findall(r"(?:^| )(\w+)=(-?\d+)(?= |$)", payload)}


class GenBigTrace(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.tmp = tempfile.TemporaryDirectory()
        src = os.path.join(cls.tmp.name, "source.txt")
        # The recording's first 6,000 lines (its header, both CPUs' ticks,
        # wheel and hrtimer events): three copies of them at 2 MiB.
        text = subprocess.run(["zcat", SOURCE], capture_output=True, check=True).stdout
        with open(src, "wb") as f:
            f.write(b"\n".join(text.split(b"\n")[:6000]) + b"\n")
        cls.out = os.path.join(cls.tmp.name, "big.txt")
        r = subprocess.run(["scripts/gen-big-trace.sh", cls.out, "2M", src],
                           capture_output=True, text=True, check=True)
        m = re.search(r"(\d+) events x (\d+) copies, HZ (\d+), (\d+) s / (\d+) jiffies", r.stderr)
        cls.events, cls.copies, cls.hz, cls.secs, cls.jiffies = map(int, m.groups())
        with open(cls.out) as f:
            cls.lines = [l for l in f.read().splitlines() if not l.startswith("#")]

    @classmethod
    def tearDownClass(cls):
        cls.tmp.cleanup()

    def test_each_copy_is_the_first_moved_by_its_shift(self):
        self.assertGreaterEqual(self.copies, 3)
        self.assertEqual(len(self.lines), self.events * self.copies)
        ns = self.secs * 10**9
        checked = 0
        for i in range(self.events):
            first = LINE.search(self.lines[i])
            f0 = fields(first.group(4))
            for c in range(1, self.copies):
                later = LINE.search(self.lines[c * self.events + i])
                self.assertEqual(later.group(3), first.group(3))
                self.assertEqual(int(later.group(1)), int(first.group(1)) + c * self.secs)
                self.assertEqual(later.group(2), first.group(2))
                fc = fields(later.group(4))
                self.assertEqual(fc.keys(), f0.keys())
                for key, v in f0.items():
                    if first.group(3).startswith("hrtimer_") and key in ("expires", "softexpires", "now"):
                        want = v + c * ns
                    elif first.group(3).startswith("timer_") and key in ("expires", "now", "baseclk", "bucket_expiry"):
                        want = v + c * self.jiffies
                    else:
                        want = v
                    self.assertEqual(fc[key], want, f"copy {c}, line {i}: {key}")
                    checked += 1
        self.assertGreater(checked, 10000)

    def test_hrtimer_starts_keep_softexpires_up_to_expires(self):
        starts = [fields(LINE.search(l).group(4)) for l in self.lines if " hrtimer_start: " in l]
        self.assertGreater(len(starts), 100)
        for f in starts:
            self.assertLessEqual(f["softexpires"], f["expires"])

    def test_replays_without_a_malformed_line(self):
        r = subprocess.run([BIN, "replay", self.out], capture_output=True, text=True)
        self.assertEqual(r.returncode, 0, r.stderr)


if __name__ == "__main__":
    unittest.main()
