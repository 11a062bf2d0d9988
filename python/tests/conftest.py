"""Shared by the Python tests: the repository, the command line to compare with,
the shipped games, and one local Ray cluster for the whole session.

tests/python.rs runs these tests with VARSAND_BIN set to the binary `cargo test`
built, and the package built from the same tree on PYTHONPATH."""

import os
import subprocess
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]
GAMES = sorted((REPO / "variants").glob("*.var"))


def varsand_bin() -> str:
    """The command line: VARSAND_BIN, else a build in the repository's target."""
    if "VARSAND_BIN" in os.environ:
        return os.environ["VARSAND_BIN"]
    for profile in ("checked", "release", "debug"):
        path = REPO / "target" / profile / "varsand"
        if path.exists():
            return str(path)
    pytest.skip("no varsand binary: set VARSAND_BIN or build with cargo")


def cli(*args: str) -> str:
    """Runs the command line; its standard output (the test fails on an error)."""
    out = subprocess.run([varsand_bin(), *args], capture_output=True, text=True, timeout=300)
    assert out.returncode == 0, f"varsand {' '.join(args)}: {out.stderr}"
    return out.stdout


@pytest.fixture(scope="session")
def ray_cluster():
    """A local Ray cluster of two CPUs, started once per session."""
    ray = pytest.importorskip("ray")
    ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False,
             configure_logging=False)
    yield ray
    ray.shutdown()
