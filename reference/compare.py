#!/usr/bin/env python3
"""Compares varsand's perft with Fairy-Stockfish's (pyffish) from random mid-game
positions, and prints the agreeing cases in the `tests/perft/*.perft` format.

Not part of the test run (it needs `pip install pyffish` and a built varsand):

    python3 reference/compare.py VARIANT VARFILE [--games N] [--plies A-B] [--depth D]
        [--seed S] [--no-drop-mate P] [--history]

Each game is played by random legal moves (Fairy-Stockfish's), preferring captures,
drops and promotions so that the positions reached have hands and promoted pieces.
"""

import argparse
import random
import subprocess
import sys

import pyffish as sf

sys.path.insert(0, __file__.rsplit("/", 1)[0])
import pyffish_perft  # noqa: E402
from pyffish_perft import perft  # noqa: E402


def random_line(variant, rng, plies):
    fen = sf.start_fen(variant)
    moves = []
    for _ in range(plies):
        legal = sf.legal_moves(variant, fen, moves)
        if not legal:
            break
        # Prefer moves that make hands and promotions: captures, drops, promotions.
        special = [m for m in legal if "@" in m or m.endswith("+") or sf.is_capture(variant, fen, moves, m)
                   or (len(m) == 5 and m[-1].isalpha())]
        pool = special if special and rng.random() < 0.6 else legal
        moves.append(rng.choice(pool))
    return fen, moves


def varsand_perft(binary, varfile, moves, depth):
    out = subprocess.run([binary, "perft", varfile, str(depth), "--moves", " ".join(moves)],
                         capture_output=True, text=True, check=True).stdout
    return int(out.strip().splitlines()[-1].split(":")[1])


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("variant")
    ap.add_argument("varfile")
    ap.add_argument("--games", type=int, default=5)
    ap.add_argument("--plies", default="20-40")
    ap.add_argument("--depth", type=int, default=3)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--no-drop-mate", default=None)
    ap.add_argument("--binary", default="target/release/varsand")
    ap.add_argument("--history", action="store_true",
                    help="hand Fairy-Stockfish the moves played (game ends read from them, such as passes)")
    a = ap.parse_args()
    pyffish_perft.HISTORY = a.history
    rng = random.Random(a.seed)
    lo, hi = map(int, a.plies.split("-"))
    bad = 0
    for g in range(a.games):
        fen, moves = random_line(a.variant, rng, rng.randint(lo, hi))
        reached = sf.get_fen(a.variant, fen, moves)
        print(f"id random{a.seed}-{g + 1}")
        print(f"# {reached}")
        print(f"moves {' '.join(moves)}")
        for d in range(1, a.depth + 1):
            root = (fen, moves) if a.history else reached
            ref = perft(a.variant, root, d, a.no_drop_mate)
            ours = varsand_perft(a.binary, a.varfile, moves, d)
            mark = "" if ref == ours else f"   # MISMATCH: varsand {ours}"
            bad += ref != ours
            print(f"perft {d} {ref}{mark}", flush=True)
        print()
    sys.exit(1 if bad else 0)


if __name__ == "__main__":
    main()
