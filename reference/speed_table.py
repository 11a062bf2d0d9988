#!/usr/bin/env python3
"""The README's speed table: two varsand builds and Fairy-Stockfish, side by side.

    reference/speed_table.py BEFORE AFTER FSF [ROUNDS]

BEFORE and AFTER are two `varsand` release binaries (say, the last release and the
working tree's `target/release/varsand`); FSF is a Fairy-Stockfish binary built by
reference/build_fairy_stockfish.sh (the 8x8 one). Not part of the test run.

For each case the programs run one after the other, ROUNDS times (default 5), one
thread each, so that the machine's load falls on all of them alike. Perft counts
leaves in bulk at the last ply in both programs; only the count itself is timed
(varsand's own `time` line; Fairy-Stockfish from `go perft` to its `Nodes searched`).
The search figure is `go depth 8` from the chess start through UCI, nodes per second
as the engine reports them at its last depth. Prints a Markdown table: medians with
the lowest and highest round, and the ratio of Fairy-Stockfish's time to AFTER's.
"""

import os
import re
import statistics
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
KIWIPETE = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1"

# (label, rule file, position or None, depth, compared with Fairy-Stockfish)
PERFT_CASES = [
    ("chess, start", "chess", None, 6, True),
    ("chess, Kiwipete", "chess", KIWIPETE, 5, True),
    ("Jungles and Mountains, start", "jungles_mountains", None, 9, False),
    ("Monkey Queen, start", "monkey_queen", None, 5, False),
    ("Monkey King Chess, start", "monkey_king", None, 4, False),
]


def varsand_perft(exe, variant, fen, depth):
    """(seconds, nodes) of one `varsand perft`."""
    args = [exe, "perft", os.path.join(HERE, "variants", variant + ".var"), str(depth)]
    if fen:
        args += ["--fen", fen]
    run = subprocess.run(args, capture_output=True, text=True, check=True)
    seconds = float(re.search(r"^time ([0-9.]+) s", run.stderr, re.M).group(1))
    nodes = int(re.search(r"Nodes searched: (\d+)", run.stdout + run.stderr).group(1))
    return seconds, nodes


def uci(exe, args, commands, until):
    """Sends UCI commands; returns the output lines up to one starting with `until`."""
    p = subprocess.Popen([exe] + args, stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
    lines = []

    def send(s):
        p.stdin.write(s + "\n")
        p.stdin.flush()

    send("uci")
    send("isready")
    for line in p.stdout:
        if line.strip() == "readyok":
            break
    started = time.perf_counter()
    for c in commands:
        send(c)
    for line in p.stdout:
        lines.append(line.strip())
        if line.startswith(until):
            break
    elapsed = time.perf_counter() - started
    send("quit")
    p.wait()
    return lines, elapsed


def fsf_perft(exe, fen, depth):
    position = "position " + ("fen " + fen if fen else "startpos")
    lines, elapsed = uci(exe, [], ["setoption name Threads value 1", position, f"go perft {depth}"],
                         "Nodes searched")
    return elapsed


def search_nps(exe):
    lines, _ = uci(exe, ["uci", os.path.join(HERE, "variants", "chess.var")],
                   ["position startpos", "go depth 8"], "bestmove")
    infos = [l for l in lines if l.startswith("info depth")]
    return int(re.search(r" nps (\d+)", infos[-1]).group(1))


def summary(values, unit=""):
    v = sorted(values)
    return f"{statistics.median(v):.3f}{unit} [{v[0]:.3f}-{v[-1]:.3f}]"


def main():
    if len(sys.argv) not in (4, 5):
        sys.exit(__doc__)
    before, after, fsf = sys.argv[1:4]
    rounds = int(sys.argv[4]) if len(sys.argv) == 5 else 5
    print(f"{rounds} rounds; before = {before}, after = {after}, Fairy-Stockfish = {fsf}\n")
    print("| position | depth | nodes | before: s [spread] | after: s [spread] | after, nodes/s "
          "| Fairy-Stockfish: s [spread] | Fairy-Stockfish / after |")
    print("| --- | --- | --- | --- | --- | --- | --- | --- |")
    after_nps = {}
    for label, variant, fen, depth, with_fsf in PERFT_CASES:
        times = {"before": [], "after": [], "fsf": [], "ratio": []}
        nodes = 0
        for _ in range(rounds):
            t, nodes = varsand_perft(before, variant, fen, depth)
            times["before"].append(t)
            t, _ = varsand_perft(after, variant, fen, depth)
            times["after"].append(t)
            if with_fsf:
                f = fsf_perft(fsf, fen, depth)
                times["fsf"].append(f)
                times["ratio"].append(f / t)
        nps = nodes / statistics.median(times["after"])
        after_nps[label] = nps
        fsf_cells = (f"{summary(times['fsf'])} | {summary(times['ratio'])}" if with_fsf
                     else "| ")
        print(f"| {label} | {depth} | {nodes:,} | {summary(times['before'])} | "
              f"{summary(times['after'])} | {nps / 1e6:.1f} M | {fsf_cells} |", flush=True)
    mk = after_nps["Monkey King Chess, start"] / after_nps["chess, start"]
    print(f"\nMonkey King Chess nodes/s / chess start nodes/s (after): {mk:.2f}")
    nps = {"before": [], "after": []}
    for _ in range(rounds):
        nps["before"].append(search_nps(before) / 1e6)
        nps["after"].append(search_nps(after) / 1e6)
    print(f"search, chess start, go depth 8: before {summary(nps['before'], ' M')} nodes/s, "
          f"after {summary(nps['after'], ' M')} nodes/s")


if __name__ == "__main__":
    main()
