#!/usr/bin/env python3
"""Move quality: a quick proxy of playing strength, for comparing builds in minutes.

Samples positions from games (a PGN file in varsand's move text, such as one written
by `varsand match --pgn` of Fairy-Stockfish against itself), lets each engine choose a
move at a node limit, and scores every chosen move with Fairy-Stockfish at a higher
node limit restricted to that move (`go nodes N searchmoves MOVE`). A move's loss is
the reference's score of its best known move less the chosen move's (capped at 500
centipawns); the engine's mark is its average loss. Reference scores are cached in a
JSON file, so a second engine costs only its own searches and its new moves.

    reference/move_quality.py GAME PGN FSF ENGINE [ENGINE ...]
        [--positions 1000] [--nodes 20000] [--ref-nodes 200000] [--cache FILE]

GAME    the UCI_Variant name (also the rule file variants/GAME.var for varsand)
FSF     the reference engine (fairy-stockfish-large for boards past 8x8)
ENGINE  `NAME=COMMAND`, e.g. `new=target/release/varsand uci variants/chess.var`;
        a Fairy-Stockfish command gets `UCI_Variant` set. Give `NAME=COMMAND@NODES`
        for a node limit of its own.

Prints each engine's average loss and, against the last engine, the mean paired
difference with its standard error (positions where the two chose alike count 0).

Calibration (chess, 992 positions from 1,000 games of Fairy-Stockfish at 3,000 nodes,
reference 200,000 nodes): varsand at 20,000 nodes 47.1, at 40,000 nodes 43.0
(-4.1 +- 1.8 paired); Fairy-Stockfish at 5,000 nodes 46.6, at 20,000 nodes 30.4. In
games varsand at 20,000 nodes plays level with Fairy-Stockfish at 5,000, as here; the
reference judging its own kind's choices flatters Fairy-Stockfish's doublings (8
centipawns each against varsand's 4). With a standard error of about 2 a comparison
resolves half of varsand's doubling: a screen before a match, not a substitute for one.
"""

import argparse
import json
import math
import os
import random
import re
import subprocess


def games_of(pgn):
    games = []
    for block in re.split(r'\n(?=\[Event )', open(pgn).read()):
        body = re.sub(r'\[[^\]]*\]', '', block)
        body = re.sub(r'\{[^}]*\}', '', body)
        toks = [t for t in body.split()
                if not re.match(r'^\d+\.+$', t) and t not in ('1-0', '0-1', '1/2-1/2', '*')]
        if len(toks) > 30:
            games.append(toks)
    return games


def sample(games, n, seed=5):
    rng = random.Random(seed)
    spots = []
    for gi in rng.sample(range(len(games)), min(n, len(games))):
        toks = games[gi]
        ply = rng.randrange(8, min(len(toks) - 4, 120))
        spots.append(tuple(toks[:ply]))
    return spots


class Engine:
    def __init__(self, cmd, variant=None):
        self.p = subprocess.Popen(cmd, shell=True, stdin=subprocess.PIPE,
                                  stdout=subprocess.PIPE, text=True, bufsize=1)
        self.send('uci')
        self.wait('uciok')
        if variant:
            self.send(f'setoption name UCI_Variant value {variant}')
        self.send('setoption name Hash value 32')
        self.send('isready')
        self.wait('readyok')

    def send(self, s):
        self.p.stdin.write(s + '\n')
        self.p.stdin.flush()

    def wait(self, tok):
        while True:
            line = self.p.stdout.readline()
            if not line:
                raise SystemExit('engine ended')
            if line.startswith(tok):
                return line

    def go(self, moves, nodes, only=None):
        """The best move and its score (centipawns; a mate as +-3000)."""
        self.send('ucinewgame')
        self.send('position startpos' + (' moves ' + ' '.join(moves) if moves else ''))
        self.send(f'go nodes {nodes}' + (f' searchmoves {only}' if only else ''))
        score = None
        while True:
            line = self.p.stdout.readline()
            m = re.search(r'score (cp|mate) (-?\d+)', line)
            if m and ' bound' not in line:
                v = int(m.group(2))
                score = v if m.group(1) == 'cp' else (3000 if v > 0 else -3000)
            if line.startswith('bestmove'):
                return line.split()[1], score

    def close(self):
        self.send('quit')
        self.p.wait()


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument('game')
    ap.add_argument('pgn')
    ap.add_argument('fsf')
    ap.add_argument('engines', nargs='+')
    ap.add_argument('--positions', type=int, default=1000)
    ap.add_argument('--nodes', type=int, default=20000)
    ap.add_argument('--ref-nodes', type=int, default=200000)
    ap.add_argument('--cache')
    a = ap.parse_args()
    cache_file = a.cache or f'/tmp/move-quality-{a.game}-{a.ref_nodes}.json'
    cache = json.load(open(cache_file)) if os.path.exists(cache_file) else {}
    spots = sample(games_of(a.pgn), a.positions)
    ref = Engine(a.fsf, a.game)
    chosen = {}
    for spec in a.engines:
        name, cmd = spec.split('=', 1)
        nodes = a.nodes
        if re.search(r'@\d+$', cmd):
            cmd, n = cmd.rsplit('@', 1)
            nodes = int(n)
        eng = Engine(cmd, a.game if 'stockfish' in cmd else None)
        picks = []
        for moves in spots:
            mv, _ = eng.go(list(moves), nodes)
            c = cache.setdefault(' '.join(moves), {})
            if not c:
                best, s = ref.go(list(moves), a.ref_nodes)
                c[best] = s
            if mv not in c:
                c[mv] = ref.go(list(moves), a.ref_nodes, mv)[1]
            picks.append(mv)
        eng.close()
        chosen[name] = picks
        json.dump(cache, open(cache_file, 'w'))
    ref.close()

    def loss(moves, mv):
        c = {k: v for k, v in cache[' '.join(moves)].items() if v is not None}
        return max(0, min(500, max(c.values()) - c[mv])) if mv in c else 0

    losses = {n: [loss(m, p) for m, p in zip(spots, ps)] for n, ps in chosen.items()}
    last = list(losses)[-1]
    for name, ls in losses.items():
        d = [x - y for x, y in zip(ls, losses[last])]
        mean = sum(d) / len(d)
        sd = math.sqrt(sum((x - mean) ** 2 for x in d) / max(1, len(d) - 1))
        print(f'{name}: average loss {sum(ls) / len(ls):.1f} on {len(ls)} positions; '
              f'against {last}: {mean:+.1f} +- {sd / math.sqrt(len(d)):.1f}')


if __name__ == '__main__':
    main()
