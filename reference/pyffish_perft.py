#!/usr/bin/env python3
"""Reference perft counts from Fairy-Stockfish's move generator (pyffish).

Not part of the test run: it needs `pip install pyffish`. Its output is committed as
`tests/perft/*.perft` files, which the tests compare varsand against.

    python3 reference/pyffish_perft.py VARIANT DEPTH [--fen FEN] [--moves "m1 m2"]
        [--no-drop-mate P]     # leave out drops of piece P that give checkmate
        [--history]            # keep the moves played (see below)

Prints `perft D N` for every depth from 1 to DEPTH, and the position string reached.
`--no-drop-mate P` counts as varsand does under `mate-by-drop Piece illegal`:
Fairy-Stockfish's move generator still produces such drops (its search loses them).
`--history` hands Fairy-Stockfish the moves played from the position instead of the
position string reached, so that game ends which depend on earlier moves (Janggi's two
passes in a row, a bikjang that stood after a pass) stop the count, as in
Fairy-Stockfish's own perft (tests/perft.sh) and in varsand.
"""

import argparse
import sys

import pyffish as sf


# A position is a position string, or with `--history` a (position string, moves) pair.
HISTORY = False


def at(pos):
    return pos if HISTORY else (pos, [])


def legal(variant, pos, drop_mate):
    """The legal moves from `pos`, without the drops of `drop_mate` that mate."""
    fen, moves = at(pos)
    out = []
    for m in sf.legal_moves(variant, fen, moves):
        if drop_mate and m.startswith(drop_mate + "@") and sf.gives_check(variant, fen, moves + [m]):
            if not sf.legal_moves(variant, fen, moves + [m]):
                continue
        out.append(m)
    return out


def children(variant, pos, drop_mate):
    """The legal moves from `pos`, and the position after each."""
    fen, moves = at(pos)
    if HISTORY:
        return [(m, (fen, moves + [m])) for m in legal(variant, pos, drop_mate)]
    return [(m, sf.get_fen(variant, fen, [m])) for m in legal(variant, pos, drop_mate)]


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
    ap.add_argument("--history", action="store_true", help="keep the moves played")
    a = ap.parse_args()
    global HISTORY
    HISTORY = a.history
    fen = a.fen or sf.start_fen(a.variant)
    moves = a.moves.split()
    for i, m in enumerate(moves):
        legal = sf.legal_moves(a.variant, fen, [])
        if m not in legal:
            sys.exit(f"move {i + 1} ({m}) is not legal in {fen}")
        fen = sf.get_fen(a.variant, fen, [m])
    print(f"# reached: {fen}")
    root = (a.fen or sf.start_fen(a.variant), moves) if HISTORY else fen
    if a.divide:
        for m, after in children(a.variant, root, a.no_drop_mate):
            print(f"{m}: {perft(a.variant, after, a.depth - 1, a.no_drop_mate)}")
        return
    for d in range(1, a.depth + 1):
        print(f"perft {d} {perft(a.variant, root, d, a.no_drop_mate)}", flush=True)


if __name__ == "__main__":
    main()
