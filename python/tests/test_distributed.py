"""Self-play on Ray: shards run as Ray tasks on a local cluster (two CPUs, started
once per session) merge into the report one process gives for the same seeds, the
command line's `varsand analyze --json` (and the same for a sweep)."""

import json

import pytest

pytest.importorskip("ray")
import varsand.distributed  # noqa: E402
from conftest import REPO, cli  # noqa: E402

BREAKTHROUGH = str(REPO / "variants" / "breakthrough.var")
HANDICAP = str(REPO / "tests" / "balance" / "handicap.var")


def without_timing(report):
    report.pop("timing", None)
    return report


def test_a_ray_run_merges_into_the_single_process_report(ray_cluster):
    merged = varsand.distributed.analyze(BREAKTHROUGH, games=9, shards=3, depth=1, seed=11)
    single = json.loads(cli("analyze", BREAKTHROUGH, "--games", "9", "--depth", "1",
                            "--seed", "11", "--json"))
    assert merged["games"] == 9
    assert without_timing(merged) == without_timing(single)


def test_a_ray_sweep_merges_into_the_single_process_sweep(ray_cluster):
    merged = varsand.distributed.sweep(HANDICAP, "handicap=-1..1", games=6, shards=2,
                                       random=True, seed=4)
    single = json.loads(cli("analyze", HANDICAP, "--sweep", "handicap=-1..1", "--games", "6",
                            "--random", "--seed", "4", "--json"))
    assert [p["games"] for p in merged["points"]] == [6, 6, 6]
    assert merged == single
