#!/usr/bin/python3
"""The README's two tables of figures follow from the current code: every
cell of "What it cost" (the validation table) and of "Fidelity" is what
`timersim replay` prints for that recording now, or what
docs/results/cost-model/reference.txt holds (which `make results-check`
holds to `timersim cost-model --reference`). A figure typed by hand, or
one the code no longer gives, fails here."""

import os
import re
import subprocess
import unittest

BIN = os.environ.get("TIMERSIM_BIN", "build/timersim")
README = "README.md"
REFERENCE = "docs/results/cost-model/reference.txt"


def table_after(text, heading, first_column):
    """The rows (lists of cells) of the first table under HEADING whose
    header starts with FIRST_COLUMN."""
    section = text.split(heading, 1)[1]
    rows, in_table = [], False
    for line in section.splitlines():
        if line.startswith("| " + first_column + " |"):
            in_table = True
            continue
        if in_table:
            if not line.startswith("|"):
                break
            if line.startswith("|---"):
                continue
            rows.append([c.strip() for c in line.strip("|").split("|")])
    return rows


def recording_path(cell):
    """The trace a table's first cell names (`name`, maybe with a note)."""
    name = re.match(r"`([^`]+)`", cell).group(1)
    if name.startswith("linux-"):
        # A shared recording's folder (its trace.txt), or a file in it
        # (`linux-6.18-tcp/perf-script.txt`).
        return "../shared/traces/%s" % name if "/" in name else "../shared/traces/%s/trace.txt" % name
    return "tests/data/%s.txt.gz" % name


def replay_text(path, cache={}):
    if path not in cache:
        cache[path] = subprocess.run([BIN, "replay", path], capture_output=True, text=True, check=True).stdout
    return cache[path]


def number(s):
    return s.replace(",", "")


class ReadmeTables(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        with open(README, encoding="utf-8") as f:
            cls.readme = f.read()

    def test_the_validation_table_is_what_replay_and_the_reference_give(self):
        rows = table_after(self.readme, "## What it cost", "recording")
        self.assertGreaterEqual(len(rows), 4, "the validation table has too few recordings")
        with open(REFERENCE, encoding="utf-8") as f:
            reference = f.read()
        for recording, measured, calibrated, left_out, interval, holds in rows:
            path = recording_path(recording)
            verdict = re.search(r"verdict ([\d.]+) ms predicted \(held-out blocks\), ([\d.]+) ms measured: ([-+][\d.]+%)",
                                replay_text(path))
            self.assertIsNotNone(verdict, "%s: no verdict line" % path)
            self.assertEqual(measured, verdict.group(2), path)
            self.assertEqual(calibrated, "%s (%s)" % (verdict.group(1), verdict.group(3)), path)
            ref = re.search(re.escape(path) + r"\s+[\d.]+\s+([\d.]+)\s+([\d.]+)\s+([-+][\d.]+%)\s+([\d.]+ \.\. [\d.]+)\s+(\w+)",
                            reference)
            self.assertIsNotNone(ref, "%s is not in %s" % (path, REFERENCE))
            self.assertEqual(measured, ref.group(1), path)
            self.assertEqual(left_out, "%s (%s)" % (ref.group(2), ref.group(3)), path)
            self.assertEqual(interval, ref.group(4), path)
            self.assertEqual(holds, ref.group(5), path)

    def test_the_fidelity_table_is_what_replay_gives(self):
        rows = table_after(self.readme, "## Fidelity", "recording")
        self.assertGreaterEqual(len(rows), 4, "the fidelity table has too few recordings")
        for recording, wheel, hrtimers, interrupts, tick_stops in rows:
            path = recording_path(recording)
            text = replay_text(path)
            share, of = re.fullmatch(r"([\d.]+%) of ([\d,]+)", wheel).groups()
            self.assertIn("exact %s of %s (%s)" % (number(of), number(of), share)
                          if share == "100.00%" else "of %s (%s)" % (number(of), share),
                          re.search(r"by the bucket the kernel ran.*", text).group(0), path)
            share, of = re.fullmatch(r"([\d.]+%) of ([\d,]+)", hrtimers).groups()
            judged = re.search(r"judged on the arms the trace shows.*", text).group(0)
            self.assertRegex(judged, r" of %s in the same interrupt \(%s\)" % (number(of), re.escape(share)), path)
            predicted = re.search(r"  predicted \d+ .* against the .*", text).group(0)
            self.assertTrue(predicted.endswith(": " + interrupts), "%s: %s, README says %s" % (path, predicted, interrupts))
            # Recorded: the "tick stops" line (absent when the trace has no
            # tick_stop); inferred: the CPUs' "N stops inferred" lines.
            stops = re.search(r"  tick stops  (\d+) recorded \(tick_stop\), (\d+) inferred", text)
            inferred = sum(int(n) for n in re.findall(r"with no event traced: (\d+) stops inferred", text))
            if stops:
                self.assertEqual(int(stops.group(2)), inferred, path)
            self.assertEqual(tick_stops, "%s / %d" % (stops.group(1) if stops else "0", inferred), path)


if __name__ == "__main__":
    unittest.main()
