"""scripts/steal-windows.py's stolen-window rule on the real lines of
tests/data/sleep-net.txt.gz that docs/costs.md ("Where a stretch still
misses") cites, worked by hand from the trace:

  CPU 0's tick hrtimer 00000000046cd983 was armed for 14028740000000
  (hrtimer_start at 14028.758941) and expired at now=14028740231292: 231 us
  late. CPU 0's last event before was its local_timer_exit at 14028.758946,
  its first after the due time the reschedule_entry at 14028.763098: its
  window runs from the due time in the trace clock (the clock offset is
  at most 14028.762919 - 14028.740038836 s = 22880164 ns, CPU 1's tick of
  the same period) to 14028.763098. CPU 1's TIMER run 14028.762932 ..
  14028.762959 (no callback, no interrupt: 27 us of overhead) lies inside
  it: 27 us overlapped, 166 us of the window left at its start. CPU 1's
  tick of that period was 38.8 us late: no window.

  CPU 0's run 14031.134954 .. 14031.134990 (a 1 us callback: 35 us) is not
  flagged: CPU 1's tick of that period was 54.7 us late, under the
  threshold, and CPU 1 recorded nothing else while it ran (it was running
  cc1plus, which the trace does not show: silence alone is no steal).

The threshold (median lateness + 10 median absolute deviations, at least
50 us) is checked against an independent count of the tick lateness.
Run from the checkout's top folder by scripts/run-tests.sh (make test)."""
import gzip
import importlib.util
import re
import statistics
import unittest

TRACE = "tests/data/sleep-net.txt.gz"


def load_script():
    spec = importlib.util.spec_from_file_location("steal_windows", "scripts/steal-windows.py")
    m = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(m)
    return m


def tick_lateness_by_hand():
    """Each tick expiry's now - the expires its hrtimer was last armed for
    (each CPU's tick is its own hrtimer)."""
    armed, late = {}, []
    start = re.compile(r"hrtimer_start: hrtimer=(\w+) function=tick_nohz_handler expires=(\d+)")
    expire = re.compile(r"hrtimer_expire_entry: hrtimer=(\w+) function=tick_nohz_handler now=(\d+)")
    with gzip.open(TRACE, "rt") as f:
        for line in f:
            m = start.search(line)
            if m:
                armed[m.group(1)] = int(m.group(2))
            m = expire.search(line)
            if m and m.group(1) in armed:
                late.append(int(m.group(2)) - armed.pop(m.group(1)))
    return late


class StealWindows(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.sw = load_script()
        cls.runs, cls.ticks, cls.events, cls.offset = cls.sw.read(TRACE)
        cls.threshold = cls.sw.threshold_of(cls.ticks)
        cls.windows = cls.sw.windows_of(cls.ticks, cls.events, cls.offset, cls.threshold)

    def run_at(self, cpu, entry_ns):
        found = [r for r in self.runs if r[0] == cpu and r[1] == entry_ns]
        self.assertEqual(len(found), 1)
        return found[0]

    def test_the_clock_offset(self):
        self.assertLessEqual(self.offset, 22880164)
        self.assertGreater(self.offset, 22879000)

    def test_the_threshold_is_the_recordings_own(self):
        late = tick_lateness_by_hand()
        self.assertEqual(sorted(late), sorted(t[4] for t in self.ticks))
        med = statistics.median(late)
        mad = statistics.median(abs(x - med) for x in late)
        self.assertEqual(self.threshold, max(50000, med + 10 * mad))
        # Between the two ticks of the cited lines: one is a window, one not.
        self.assertTrue(54712 < self.threshold < 231292, self.threshold)

    def test_cpu0_late_tick_is_a_window_to_its_first_event(self):
        mine = [w for w in self.windows if w[0] == 0 and w[1] <= 14028762932000 < w[2]]
        self.assertEqual(len(mine), 1)
        cpu, start, end = mine[0]
        self.assertEqual(start, 14028740000000 + self.offset)
        self.assertEqual(end, 14028763098000)
        # A CPU's own window is not its runs' steal (it ran nothing then).
        self.assertEqual(self.sw.overlap([0, start, end], self.windows), 0)
        self.assertEqual(self.sw.at_start([0, start + 1, end], self.windows), 0)
        # CPU 1's tick of the same period (38.8 us late) opens none.
        self.assertFalse([w for w in self.windows if w[0] == 1 and w[1] <= 14028762932000 < w[2]])

    def test_cpu1_run_inside_it_is_flagged(self):
        r = self.run_at(1, 14028762932000)
        self.assertEqual(r[2], 14028762959000)
        self.assertEqual(r[3], 27000)
        self.assertEqual(self.sw.overlap(r, self.windows), 27000)
        self.assertEqual(self.sw.at_start(r, self.windows), 14028763098000 - 14028762932000)

    def test_a_stall_beside_a_silent_but_punctual_cpu_is_not(self):
        r = self.run_at(0, 14031134954000)
        self.assertEqual(r[3], 36000 - 1000)
        self.assertEqual(self.sw.overlap(r, self.windows), 0)
        self.assertEqual(self.sw.at_start(r, self.windows), 0)


if __name__ == "__main__":
    unittest.main()
