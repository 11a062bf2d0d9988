"""Self-play analysis across many machines on Ray.

    import ray, varsand.distributed
    ray.init()                                   # or ray.init(address="auto")
    report = varsand.distributed.analyze("variants/chess.var", games=10_000, depth=4)

The games are split into shards, one Ray task each (`Game.analyze(shard=(k, n))`,
as `varsand analyze --shard K/N` plays them), and the shards' reports are merged
exactly (`varsand.merge`, as `varsand analyze merge`): every game keeps the seed the
whole run gives it, and a report is made of whole-number counts, so the merged report
is the one a single machine gives for the same seeds (but for its timing).

The tasks receive the rule file's text (and its values file's), not its path: the
workers need varsand installed (`pip install ./python` on each node, or a Ray
runtime environment), not the rule files.
"""

from __future__ import annotations

from typing import Any, Optional

from . import _native

_remote_shard: Any = None


def _run_shard(source: str, name: str, parameters: dict, values: Optional[str],
               games: int, shard: tuple, sweep: Optional[str], options: dict) -> dict:
    """One shard, on a Ray worker: the game loaded from its text, then analysed."""
    game = _native.Game.from_text(source, name=name, set=parameters, values=values)
    if sweep is None:
        return game.analyze(games, shard=shard, **options)
    return game.sweep(sweep, games, shard=shard, **options)


def _remote(cpus: int) -> Any:
    """The Ray task of one shard, made on first use (so that importing this module
    does not need ray)."""
    global _remote_shard
    import ray

    if _remote_shard is None:
        _remote_shard = ray.remote(_run_shard)
    return _remote_shard.options(num_cpus=cpus)


def _shards(shards: Optional[int], games: int) -> int:
    """The number of shards: as asked, else one per CPU of the cluster; never more
    than the games."""
    import ray

    if shards is None:
        shards = int(ray.cluster_resources().get("CPU", 1))
    return max(1, min(int(shards), games))


def _run(path: str, games: int, shards: Optional[int], set: Optional[dict],
         sweep: Optional[str], options: dict) -> dict:
    import ray

    if not ray.is_initialized():
        ray.init()
    # Loaded here first, so that a rule file with errors raises on the driver
    # (a VarsandError with its diagnostics), not in every task.
    game = _native.load(path, set=set)
    n = _shards(shards, games)
    threads = int(options.pop("threads", 1) or 1)
    task = _remote(threads)
    refs = [
        task.remote(game.source, game.path, dict(game.parameters), game.values, games,
                    (k + 1, n), sweep, dict(options, threads=threads))
        for k in range(n)
    ]
    return _native.merge(ray.get(refs))


def analyze(path: str, games: int = 100, *, shards: Optional[int] = None,
            set: Optional[dict] = None, **options: Any) -> dict:
    """`games` self-play games of the rule file at `path`, in `shards` Ray tasks (one
    per cluster CPU by default) on whatever cluster `ray.init()` connected to (a
    local one is started if none), merged into one report (a dict, as
    `Game.analyze` and `varsand analyze --json` give it). `set` gives parameters;
    `options` are those of `Game.analyze` (depth, movetime, random, vs_random, seed,
    opening_plies, max_plies; `threads`: threads and CPUs per task, 1 by default)."""
    return _run(path, games, shards, set, None, options)


def sweep(path: str, parameter: str, games: int = 100, *, shards: Optional[int] = None,
          set: Optional[dict] = None, **options: Any) -> dict:
    """A parameter swept (`"NAME=FROM..TO[:STEP]"`) as `analyze` runs one analysis:
    every task plays its shard of each value's games; the merged sweep is
    `varsand analyze --sweep`'s for the same seeds."""
    return _run(path, games, shards, set, parameter, options)
