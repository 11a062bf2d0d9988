"""Speed from Python against the command line (the README's figures):

- perft through the package (`Position.perft`) against `varsand perft`, the same
  count at the same depth, the best of `--repeat` runs each;
- random games played move by move from Python (`legal_count`, `random.randrange`,
  `push_index`, `is_over` at every ply; and the same with move texts: `legal_moves`,
  `random.choice`, `push`) against the command line's random playouts
  (`varsand analyze --random --threads 1`), in plies per second.

    python3 python/bench/speed.py [--bin target/release/varsand] [--repeat 3]
"""

import argparse
import json
import random
import re
import subprocess
import time
from pathlib import Path

import varsand

REPO = Path(__file__).resolve().parents[2]


def cli_perft_seconds(binary, path, depth):
    out = subprocess.run([binary, "perft", str(path), str(depth)], capture_output=True, text=True, check=True)
    nodes = int(re.search(r"Nodes searched: (\d+)", out.stdout).group(1))
    return nodes, float(re.search(r"time ([\d.]+) s", out.stderr).group(1))


def package_perft_seconds(path, depth):
    pos = varsand.load(str(path)).start()
    t = time.perf_counter()
    nodes = pos.perft(depth)
    return nodes, time.perf_counter() - t


def cli_playouts(binary, path, games, seed):
    out = subprocess.run([binary, "analyze", str(path), "--random", "--threads", "1", "--games", str(games),
                          "--seed", str(seed), "--json"], capture_output=True, text=True, check=True)
    return json.loads(out.stdout)["timing"]["plies_per_second"]


def python_playouts(path, games, seed, texts):
    game = varsand.load(str(path))
    rng = random.Random(seed)
    plies = 0
    t = time.perf_counter()
    for _ in range(games):
        pos = game.start()
        n = 0
        while n < 1000 and not pos.is_over():
            if texts:
                pos.push(rng.choice(pos.legal_moves()))
            else:
                pos.push_index(rng.randrange(pos.legal_count()))
            n += 1
        plies += n
    return plies / (time.perf_counter() - t)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--bin", default=str(REPO / "target" / "release" / "varsand"))
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--games", type=int, default=300)
    args = ap.parse_args()
    for name, depth in [("chess", 5), ("shogi", 4), ("xiangqi", 4)]:
        path = REPO / "variants" / f"{name}.var"
        # Interleaved, the best of each: the machine's other load falls on both alike.
        runs = [(cli_perft_seconds(args.bin, path, depth), package_perft_seconds(path, depth))
                for _ in range(args.repeat)]
        cli = min((r[0] for r in runs), key=lambda r: r[1])
        ours = min((r[1] for r in runs), key=lambda r: r[1])
        assert cli[0] == ours[0]
        print(f"perft {name} {depth}: {cli[0]} nodes, command line {cli[1]:.3f} s, "
              f"package {ours[1]:.3f} s ({ours[1] / cli[1]:.2f}x)")
    chess = REPO / "variants" / "chess.var"
    cli = max(cli_playouts(args.bin, chess, args.games, 1) for _ in range(args.repeat))
    fast = max(python_playouts(chess, args.games, 1, False) for _ in range(args.repeat))
    texts = max(python_playouts(chess, args.games // 3, 1, True) for _ in range(args.repeat))
    print(f"random chess plies/s: command line {cli:,.0f}; Python by index {fast:,.0f} "
          f"({cli / fast:.2f}x slower); Python by move text {texts:,.0f} ({cli / texts:.2f}x slower)")


if __name__ == "__main__":
    main()
