"""State hashes from Python: the Rust crate's bits, the golden hashes of the shipped scenes, and
the documented layout recomputed with numpy."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

import hooke

ROOT = Path(__file__).resolve().parents[2]


def golden_records(stem: str) -> list[dict[str, object]]:
    """The records (after the header) of scenes/hashes/<stem>.hashes."""
    lines = (ROOT / "scenes" / "hashes" / f"{stem}.hashes").read_text().splitlines()
    return [json.loads(line) for line in lines[1:]]


def test_a_scene_run_from_python_gives_the_golden_hashes() -> None:
    world = hooke.CpuWorld(hooke.Scene.load(ROOT / "scenes" / "mixed.json").to_model())
    for record in golden_records("mixed")[:4]:
        world.step(int(str(record["step"])) - world.steps)
        assert world.state_hash() == record["world"]
        assert world.body_hashes() == record["bodies"]


def test_the_hash_changes_with_the_state_and_comes_back_after_reset() -> None:
    world = hooke.CpuWorld(hooke.Scene.load(ROOT / "scenes" / "cube.json").to_model())
    start = world.state_hash()
    assert len(start) == 32 and int(start, 16) >= 0
    world.step(10)
    assert world.state_hash() != start
    world.reset()
    assert world.state_hash() == start


def test_the_documented_layout_recomputed_with_numpy() -> None:
    xxhash = pytest.importorskip("xxhash")
    world = hooke.CpuWorld(hooke.Scene.load(ROOT / "scenes" / "mixed.json").to_model())
    world.step(150)
    data = (
        np.uint64(world.steps).tobytes()
        + np.float64(world.time).tobytes()
        + np.asarray(world.positions(), dtype="<f8").tobytes()
        + np.asarray(world.velocities(), dtype="<f8").tobytes()
        + np.asarray(world.rest_lengths(), dtype="<f8").tobytes()
    )
    assert xxhash.xxh3_128(data).hexdigest() == world.state_hash()
