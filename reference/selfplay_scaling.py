#!/usr/bin/env python3
"""Self-play scaling: the CPU time of the same games on one thread and on two.

    reference/selfplay_scaling.py EXE [--games N] [--rounds R] [--depth D] [GAME...]

EXE is a `varsand` release binary. For each shipped game (or those named, such as
`chess monkey_king`), `EXE analyze variants/GAME.var --threads 1` and `--threads 2` run
the same games (same seed) one after the other, ROUNDS times (default 3), so that the
machine's load falls on both alike. Without --depth the games are uniformly random
playouts (--games, default 2000); with --depth D they are the search at depth D
against itself (--games, default 6).

The figure that matters is the CPU time (user + system, from the kernel's accounting
of the child process): when threads share nothing on the hot path, two threads do
the same work in the same CPU time, and the growth is near 0%. A shared cache line
written on every move (a reference count, a counter, a lock) shows as growth. The
issue's criterion: at most 5% for every game. Wall time is shown for the speed-up.

Prints a Markdown table: per game the median CPU seconds on 1 and 2 threads (lowest
and highest round in brackets), the growth of the medians, and the wall speed-up.
Not part of the test run.
"""

import argparse
import os
import statistics
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def run(exe, game, threads, games, depth):
    """(cpu seconds, wall seconds) of one `analyze`."""
    args = [exe, "analyze", os.path.join(HERE, "variants", game + ".var"),
            "--games", str(games), "--threads", str(threads), "--seed", "1", "--json"]
    args += ["--depth", str(depth)] if depth else ["--random"]
    start = time.monotonic()
    p = subprocess.Popen(args, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    _, status, usage = os.wait4(p.pid, 0)
    wall = time.monotonic() - start
    if status != 0:
        sys.exit(f"{' '.join(args)} failed ({status})")
    return usage.ru_utime + usage.ru_stime, wall


def spread(xs):
    return f"{statistics.median(xs):.2f} [{min(xs):.2f}–{max(xs):.2f}]"


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("exe")
    ap.add_argument("games_to_run", nargs="*", metavar="GAME")
    ap.add_argument("--games", type=int)
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--depth", type=int)
    a = ap.parse_intermixed_args()
    games = a.games or (6 if a.depth else 2000)
    names = a.games_to_run or sorted(
        f[:-4] for f in os.listdir(os.path.join(HERE, "variants")) if f.endswith(".var"))
    kind = f"search depth {a.depth}" if a.depth else "random playouts"
    print(f"{kind}, {games} games, {a.rounds} rounds; CPU seconds, median [lowest–highest]\n")
    print("| game | CPU, 1 thread | CPU, 2 threads | growth | wall speed-up |")
    print("| --- | --- | --- | --- | --- |")
    for name in names:
        cpu = {1: [], 2: []}
        wall = {1: [], 2: []}
        for _ in range(a.rounds):
            for threads in (1, 2):
                c, w = run(a.exe, name, threads, games, a.depth)
                cpu[threads].append(c)
                wall[threads].append(w)
        growth = statistics.median(cpu[2]) / statistics.median(cpu[1]) - 1
        speedup = statistics.median(wall[1]) / statistics.median(wall[2])
        print(f"| {name} | {spread(cpu[1])} | {spread(cpu[2])} | {growth:+.1%} | {speedup:.2f}x |",
              flush=True)


if __name__ == "__main__":
    main()
