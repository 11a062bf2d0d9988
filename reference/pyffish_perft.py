#!/usr/bin/env python3
"""Reference perft counts from Fairy-Stockfish's move generator (pyffish).

Not part of the test run: it needs `pip install pyffish`. Its output is committed as
`tests/perft/*.perft` files, which the tests compare varsand against.

    python3 reference/pyffish_perft.py VARIANT DEPTH [--fen FEN] [--moves "m1 m2"]
        [--no-drop-mate P]     # leave out drops of piece P that give checkmate

Prints `perft D N` for every depth from 1 to DEPTH, and the position string reached.
`--no-drop-mate P` counts as varsand does under `mate-by-drop Piece illegal`:
Fairy-Stockfish's move generator still produces such drops (its search loses them).
"""

import argparse
import sys

import pyffish as sf


def legal(variant, fen, drop_mate):
    """The legal moves from `fen`, without the drops of `drop_mate` that mate."""
    out = []
    for m in sf.legal_moves(variant, fen, []):
        if drop_mate and m.startswith(drop_mate + "@") and sf.gives_check(variant, fen, [m]):
            if not sf.legal_moves(variant, sf.get_fen(variant, fen, [m]), []):
                continue
        out.append(m)
    return out


def children(variant, fen, drop_mate):
    """The legal moves from `fen`, and the position string after each."""
    return [(m, sf.get_fen(variant, fen, [m])) for m in legal(variant, fen, drop_mate)]


def perft(variant, fen, depth, drop_mate):
    if depth == 0:
        return 1
    if depth == 1:
        return len(legal(variant, fen, drop_mate))
    return sum(perft(variant, after, depth - 1, drop_mate)
               for _, after in children(variant, fen, drop_mate))


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("variant")
    ap.add_argument("depth", type=int)
    ap.add_argument("--fen")
    ap.add_argument("--moves", default="")
    ap.add_argument("--no-drop-mate", default=None)
    ap.add_argument("--divide", action="store_true", help="counts per first move at DEPTH")
    a = ap.parse_args()
    fen = a.fen or sf.start_fen(a.variant)
    moves = a.moves.split()
    for i, m in enumerate(moves):
        legal = sf.legal_moves(a.variant, fen, [])
        if m not in legal:
            sys.exit(f"move {i + 1} ({m}) is not legal in {fen}")
        fen = sf.get_fen(a.variant, fen, [m])
    print(f"# reached: {fen}")
    if a.divide:
        for m, after in children(a.variant, fen, a.no_drop_mate):
            print(f"{m}: {perft(a.variant, after, a.depth - 1, a.no_drop_mate)}")
        return
    for d in range(1, a.depth + 1):
        print(f"perft {d} {perft(a.variant, fen, d, a.no_drop_mate)}", flush=True)


if __name__ == "__main__":
    main()
