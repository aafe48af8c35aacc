#!/usr/bin/python3
"""One command, timed as a user's `time` sees it, to the microsecond:
    scripts/timed.py OUT ERR COMMAND...
runs COMMAND with stdout to file OUT and stderr to file ERR and prints
"WALL USER SYS MAXRSS_KB" (seconds, seconds, seconds, KiB) on stdout.

Why not /usr/bin/time: it prints seconds with two decimals, and the binary
readers' whole processes take some 30 ms, so its 10 ms steps were a third
of the figure (a 3.7x ratio could be anything from 2.8x to 5.5x). wait4(2)
gives the child's CPU time in microseconds and the wall clock is read
around the fork and the wait. Exits with the command's status (128+N for a
signal), after printing nothing, when the command fails."""
import os
import sys
import time


def main():
    if len(sys.argv) < 4:
        sys.exit("usage: timed.py OUT ERR COMMAND...")
    out, err, argv = sys.argv[1], sys.argv[2], sys.argv[3:]
    with open(out, "wb") as o, open(err, "wb") as e:
        start = time.perf_counter()
        pid = os.posix_spawnp(argv[0], argv, os.environ,
                              file_actions=[(os.POSIX_SPAWN_DUP2, o.fileno(), 1),
                                            (os.POSIX_SPAWN_DUP2, e.fileno(), 2)])
        _, status, usage = os.wait4(pid, 0)
        wall = time.perf_counter() - start
    code = os.waitstatus_to_exitcode(status)
    if code != 0:
        sys.exit(code if code > 0 else 128 - code)
    print(f"{wall:.6f} {usage.ru_utime:.6f} {usage.ru_stime:.6f} {usage.ru_maxrss}")


if __name__ == "__main__":
    main()
