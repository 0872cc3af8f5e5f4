"""The `hooke` command line for the tests that compare Python with it."""

from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


def hooke_cli() -> Path:
    """The `hooke` binary: $HOOKE_CLI (CI sets it; the test fails if it is missing there), else
    the newest of target/{release,debug}/hooke, else `hooke` on PATH. Skips the test, saying
    how to build it, only when there is none at all."""
    named = os.environ.get("HOOKE_CLI")
    if named:
        assert Path(named).is_file(), f"HOOKE_CLI={named} does not exist"
        return Path(named)
    built = [p for p in (ROOT / "target" / "release" / "hooke", ROOT / "target" / "debug" / "hooke") if p.is_file()]
    if built:
        return max(built, key=lambda p: p.stat().st_mtime)
    found = shutil.which("hooke")
    if found:
        return Path(found)
    pytest.skip("no hooke binary: build it with `cargo build --features cli --bin hooke` (or set HOOKE_CLI)")


def run_cli(*args: str) -> subprocess.CompletedProcess[str]:
    """`hooke ARGS`, its exit status checked (the message is its standard error)."""
    done = subprocess.run([str(hooke_cli()), *args], capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, f"hooke {' '.join(args)} failed:\n{done.stderr}"
    return done


def skip_without_gpu() -> None:
    """HOOKE_SKIP_GPU_TESTS=1 skips the GPU tests explicitly; without it a missing adapter
    fails the test."""
    if os.environ.get("HOOKE_SKIP_GPU_TESTS") == "1":
        pytest.skip("HOOKE_SKIP_GPU_TESTS=1")
