#!/usr/bin/env python3
"""The `load` workload of scripts/record-trace.sh: SECONDS of

- loopback TCP churn with small writes: short connections whose client
  writes a few 64-byte pieces with pauses and the server answers only after
  the last, and one long connection writing 64 bytes every 60 ms that the
  server never answers: past the quick-ACK start of a connection its
  delayed ACK timer (tcp_delack_timer, 40 ms at least) runs;
- sleepers with several timer slacks (prctl PR_SET_TIMERSLACK: 1 ns, the
  default 50 us, 1 ms, 10 ms), each sleeping in turn 1, 4 and 20 ms;
- one SCHED_FIFO sleeper (its slack is 0 on 6.12+ kernels:
  hrtimer_start shows softexpires == expires for it);
- short polls: select() with 2 ms and 7 ms timeouts on an idle pipe;
- a CPU hog at nice 19.

Usage: load-workload.py SECONDS
"""
import ctypes
import os
import select
import socket
import sys
import threading
import time

PR_SET_TIMERSLACK = 29
secs = float(sys.argv[1])
end = time.time() + secs
libc = ctypes.CDLL(None, use_errno=True)


def sleeper(slack_ns, fifo=False):
    pid = os.fork()
    if pid:
        return pid
    if fifo:
        try:
            os.sched_setscheduler(0, os.SCHED_FIFO, os.sched_param(10))
        except OSError:
            pass
    libc.prctl(PR_SET_TIMERSLACK, ctypes.c_ulong(slack_ns), 0, 0, 0)
    while time.time() < end:
        for period in (0.001, 0.004, 0.02):
            time.sleep(period)
    os._exit(0)


def poller(timeout):
    pid = os.fork()
    if pid:
        return pid
    r, _ = os.pipe()
    while time.time() < end:
        select.select([r], [], [], timeout)
    os._exit(0)


def hog():
    pid = os.fork()
    if pid:
        return pid
    os.nice(19)
    while time.time() < end:
        pass
    os._exit(0)


def serve(lsock):
    def one(conn):
        with conn:
            first = conn.recv(1)
            if first == b"t":
                while conn.recv(4096):
                    pass
                return
            got = len(first)
            while got < 4 * 64:
                b = conn.recv(4096)
                if not b:
                    return
                got += len(b)
            conn.sendall(b"k" * 32)
    while time.time() < end:
        lsock.settimeout(0.5)
        try:
            conn, _ = lsock.accept()
        except OSError:
            continue
        threading.Thread(target=one, args=(conn,), daemon=True).start()


def trickle(port):
    try:
        with socket.create_connection(("127.0.0.1", port), timeout=2) as c:
            while time.time() < end - 0.2:
                c.sendall(b"t" * 64)
                time.sleep(0.06)
    except OSError:
        pass


def client(port):
    while time.time() < end - 0.2:
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=2) as c:
                for _ in range(4):
                    c.sendall(b"w" * 64)
                    time.sleep(0.015)
                c.recv(64)
        except OSError:
            pass
        time.sleep(0.03)


children = [sleeper(s) for s in (1, 50000, 1000000, 10000000)]
children.append(sleeper(50000, fifo=True))
children += [poller(0.002), poller(0.007), hog()]
lsock = socket.socket()
lsock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
lsock.bind(("127.0.0.1", 0))
lsock.listen(64)
port = lsock.getsockname()[1]
threading.Thread(target=serve, args=(lsock,), daemon=True).start()
clients = [threading.Thread(target=client, args=(port,)) for _ in range(3)]
clients.append(threading.Thread(target=trickle, args=(port,)))
for t in clients:
    t.start()
for t in clients:
    t.join()
for pid in children:
    os.waitpid(pid, 0)
