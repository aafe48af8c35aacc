#!/usr/bin/python3
"""A timer load for measuring `timersim top`: sleepers and loopback TCP.

Sleepers are threads in nanosleep (an hrtimer each: start, expiry, wakeup);
TCP pairs exchange small messages over loopback with a pause between them
(the wheel's delayed-ACK, retransmit and keepalive timers armed, re-armed and
canceled). The kernel's own tick and softirqs come on top. With the defaults
a 2-CPU VM traces about 10,000 events/s (timer:*, irq:softirq_*,
irq_vectors:local_timer_*); `timersim top --batch` prints the rate it sees.

  scripts/top-load.py [--sleepers N] [--sleep-us U] [--tcp-pairs M]
                      [--tcp-gap-us G] [--seconds S]
"""
import argparse
import socket
import threading
import time


def sleeper(stop, seconds):
    while not stop.is_set():
        time.sleep(seconds)


def tcp_pair(stop, gap):
    server = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    server.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    server.bind(("127.0.0.1", 0))
    server.listen(1)
    client = socket.create_connection(server.getsockname())
    peer, _ = server.accept()
    server.close()

    def echo():
        try:
            while not stop.is_set():
                data = peer.recv(64)
                if not data:
                    return
                peer.sendall(data)
        except OSError:
            return

    threading.Thread(target=echo, daemon=True).start()
    while not stop.is_set():
        client.sendall(b"ping")
        client.recv(64)
        time.sleep(gap)
    client.close()
    peer.close()


def main():
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--sleepers", type=int, default=2)
    p.add_argument("--sleep-us", type=int, default=3000)
    p.add_argument("--tcp-pairs", type=int, default=1)
    p.add_argument("--tcp-gap-us", type=int, default=5000)
    p.add_argument("--seconds", type=float, default=0, help="0: until killed")
    a = p.parse_args()
    stop = threading.Event()
    threads = [threading.Thread(target=sleeper, args=(stop, a.sleep_us / 1e6), daemon=True)
               for _ in range(a.sleepers)]
    threads += [threading.Thread(target=tcp_pair, args=(stop, a.tcp_gap_us / 1e6), daemon=True)
                for _ in range(a.tcp_pairs)]
    for t in threads:
        t.start()
    try:
        if a.seconds:
            time.sleep(a.seconds)
        else:
            while True:
                time.sleep(3600)
    except KeyboardInterrupt:
        pass
    stop.set()


if __name__ == "__main__":
    main()
