#!/usr/bin/env python3
"""The README's speed table: two varsand builds and Fairy-Stockfish, side by side.

    reference/speed_table.py BEFORE AFTER [--rounds N] [--only GAME,GAME]
        [--fsf PATH] [--fsf-large PATH] [--search]

BEFORE and AFTER are two `varsand` release binaries (say, a copy of the last
release's and the working tree's `target/release/varsand`). Fairy-Stockfish is the
build of reference/build_fairy_stockfish.sh: `--fsf` the 8x8 one (default
/work/fsf/bin/fairy-stockfish), `--fsf-large` the one for boards past 8x8 (default
/work/fsf/bin/fairy-stockfish-large). Not part of the test run.

Every shipped game that Fairy-Stockfish also plays (its UCI_Variant list; the game of
the Amazons and duck chess are not in this build's list) is counted from its start,
plus chess from Kiwipete and the seed games without a reference. For each case the
programs run one after the other, ROUNDS times (default 3), one thread each, so that
the machine's load falls on all of them alike. The time is the CPU time of the
process (user + sys, from the children's totals), less that of the same process
counting to depth 1 in the same round: what starting costs (reading the rules,
building the tables; Fairy-Stockfish's start) is left out, the count itself stays.
Both count leaves in bulk at the last ply. Prints a Markdown table: the best
round, with the spread of the rounds [lowest-highest], and the ratio of
Fairy-Stockfish's best time to AFTER's (above 1: varsand is faster). A node count
that differs between the programs is marked. `--search` adds the search speed from
the chess start (`go depth 8`, nodes per second as the engine reports them).
"""

import argparse
import os
import re
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
KIWIPETE = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1"

# (label, rule file, Fairy-Stockfish's variant or None, its large build?, depth,
# position or None). Depths chosen so that each count takes about 2-6 s in both
# engines where a depth does (the start and the machine's noise then weigh little);
# where the next depth would take 20 s or more in one of them (antichess, losers,
# spartan, shatranj, seirawan, dobutsu, capablanca, grand, shogi, checkshogi,
# Jungles and Mountains), the lower one, at 0.2-2 s. Every node count here agrees
# with Fairy-Stockfish's `go perft` but minishogi's at depth 7 (132,680,617 against
# its 132,680,698; depth 6 agrees), which the table marks: the 81 are pawn drops that
# mate, illegal under `forbid mate-by-drop Pawn`, which Fairy-Stockfish's generator
# still produces (the rule file without that line counts 132,680,698).
CASES = [
    ("chess", "chess", "chess", False, 6, None),
    ("chess, Kiwipete", "chess", "chess", False, 5, KIWIPETE),
    ("3check", "3check", "3check", False, 6, None),
    ("antichess", "antichess", "antichess", False, 6, None),
    ("losers", "losers", "losers", False, 6, None),
    ("atomic", "atomic", "atomic", False, 6, None),
    ("racingkings", "racingkings", "racingkings", False, 6, None),
    ("threekings", "threekings", "threekings", False, 6, None),
    ("spartan", "spartan", "spartan", False, 5, None),
    ("breakthrough", "breakthrough", "breakthrough", False, 6, None),
    ("shatranj", "shatranj", "shatranj", False, 6, None),
    ("makruk", "makruk", "makruk", False, 6, None),
    ("crazyhouse", "crazyhouse", "crazyhouse", False, 6, None),
    ("placement", "placement", "placement", False, 5, None),
    ("seirawan", "seirawan", "seirawan", False, 5, None),
    ("minishogi", "minishogi", "minishogi", False, 7, None),
    ("kyotoshogi", "kyotoshogi", "kyotoshogi", False, 7, None),
    ("torishogi", "torishogi", "torishogi", False, 6, None),
    ("dobutsu", "dobutsu", "dobutsu", False, 9, None),
    ("flipello", "flipello", "flipello", False, 10, None),
    ("ataxx", "ataxx", "ataxx", False, 6, None),
    ("capablanca", "capablanca", "capablanca", True, 5, None),
    ("grand", "grand", "grand", True, 4, None),
    ("shogi", "shogi", "shogi", True, 5, None),
    ("checkshogi", "checkshogi", "checkshogi", True, 5, None),
    ("xiangqi", "xiangqi", "xiangqi", True, 5, None),
    ("janggi", "janggi", "janggi", True, 5, None),
    ("Jungles and Mountains", "jungles_mountains", None, False, 9, None),
    ("Monkey Queen", "monkey_queen", None, False, 5, None),
    ("Monkey King Chess", "monkey_king", None, False, 4, None),
]


def cpu_run(args, stdin_text=None):
    """Runs a process to its end; (CPU seconds user + sys, its stdout + stderr)."""
    p = subprocess.Popen(args, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                         stderr=subprocess.STDOUT, text=True)
    out, _ = p.communicate(stdin_text)
    # communicate has reaped it; its resource use is in the children's totals.
    return out


def timed(args, stdin_text=None):
    before = os.times()
    out = cpu_run(args, stdin_text)
    after = os.times()
    cpu = (after.children_user - before.children_user) + (after.children_system -
                                                          before.children_system)
    return cpu, out


def varsand_perft(exe, variant, fen, depth):
    """(CPU seconds, nodes) of one `varsand perft`, less its start (depth 1)."""
    start, _ = varsand_run(exe, variant, fen, 1)
    cpu, nodes = varsand_run(exe, variant, fen, depth)
    return max(cpu - start, 0.0), nodes


def fsf_perft(exe, variant, fen, depth):
    """(CPU seconds, nodes) of one Fairy-Stockfish `go perft`, less its start."""
    start, _ = fsf_run(exe, variant, fen, 1)
    cpu, nodes = fsf_run(exe, variant, fen, depth)
    return max(cpu - start, 0.0), nodes


def varsand_run(exe, variant, fen, depth):
    """(CPU seconds, nodes) of one `varsand perft` process."""
    args = [exe, "perft", os.path.join(HERE, "variants", variant + ".var"), str(depth)]
    if fen:
        args += ["--fen", fen]
    cpu, out = timed(args)
    nodes = int(re.search(r"Nodes searched: (\d+)", out).group(1))
    return cpu, nodes


def fsf_run(exe, variant, fen, depth):
    """(CPU seconds, nodes) of one Fairy-Stockfish `go perft` process."""
    position = "position " + ("fen " + fen if fen else "startpos")
    commands = "\n".join(["uci", "setoption name Threads value 1",
                          f"setoption name UCI_Variant value {variant}", position,
                          f"go perft {depth}", "quit", ""])
    cpu, out = timed([exe], commands)
    nodes = int(re.search(r"Nodes searched: (\d+)", out).group(1))
    return cpu, nodes


def search_nps(exe):
    p = subprocess.Popen([exe, "uci", os.path.join(HERE, "variants", "chess.var")],
                         stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
    for c in ["uci", "isready", "position startpos", "go depth 8"]:
        p.stdin.write(c + "\n")
    p.stdin.flush()
    infos = []
    for line in p.stdout:
        if line.startswith("info depth"):
            infos.append(line)
        if line.startswith("bestmove"):
            break
    p.stdin.write("quit\n")
    p.stdin.flush()
    p.wait()
    return int(re.search(r" nps (\d+)", infos[-1]).group(1))


def ratio(a, b):
    """a / b, or a dash where b rounds to nothing."""
    return f"{a / b:.2f}x" if b > 0.005 else "-"


def spread(values):
    v = sorted(values)
    return f"{v[0]:.2f} [{v[0]:.2f}-{v[-1]:.2f}]"


def main():
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("before")
    ap.add_argument("after")
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--only", default="", help="labels or rule files, comma separated")
    ap.add_argument("--fsf", default="/work/fsf/bin/fairy-stockfish")
    ap.add_argument("--fsf-large", default="/work/fsf/bin/fairy-stockfish-large")
    ap.add_argument("--search", action="store_true")
    a = ap.parse_args()
    only = {s.strip() for s in a.only.split(",") if s.strip()}
    print(f"{a.rounds} rounds, CPU time of each process (user + sys), best round "
          f"[lowest-highest]; before = {a.before}, after = {a.after}\n")
    print("| game | depth | nodes | before, s | after, s | before / after | "
          "Fairy-Stockfish, s | Fairy-Stockfish / after |")
    print("| --- | --- | --- | --- | --- | --- | --- | --- |")
    started = time.time()
    for label, variant, fsf_variant, large, depth, fen in CASES:
        if only and label not in only and variant not in only:
            continue
        times = {"before": [], "after": [], "fsf": []}
        nodes = fsf_nodes = None
        for _ in range(a.rounds):
            t, nodes = varsand_perft(a.before, variant, fen, depth)
            times["before"].append(t)
            t, after_nodes = varsand_perft(a.after, variant, fen, depth)
            times["after"].append(t)
            if after_nodes != nodes:
                sys.exit(f"{label}: before counts {nodes}, after {after_nodes}")
            if fsf_variant:
                t, fsf_nodes = fsf_perft(a.fsf_large if large else a.fsf, fsf_variant, fen,
                                         depth)
                times["fsf"].append(t)
        best = {k: min(v) for k, v in times.items() if v}
        if fsf_variant:
            mark = "" if fsf_nodes == nodes else f" (its count: {fsf_nodes:,})"
            fsf_cells = (f"{spread(times['fsf'])}{mark} | "
                         f"{ratio(best['fsf'], best['after'])}")
        else:
            fsf_cells = " | "
        print(f"| {label} | {depth} | {nodes:,} | {spread(times['before'])} | "
              f"{spread(times['after'])} | {ratio(best['before'], best['after'])} | "
              f"{fsf_cells} |", flush=True)
    print(f"\n({time.time() - started:.0f} s)")
    if a.search:
        nps = {"before": [], "after": []}
        for _ in range(a.rounds):
            nps["before"].append(search_nps(a.before) / 1e6)
            nps["after"].append(search_nps(a.after) / 1e6)
        print(f"search, chess start, go depth 8, M nodes/s: before "
              f"{spread(nps['before'])}, after {spread(nps['after'])}")


if __name__ == "__main__":
    main()
