"""World.snapshot / restore from Python: the Rust crate's bytes, restore then step gives the bits
of stepping straight through on both backends, and damaged or mismatched snapshots are refused
with SnapshotError naming what is wrong."""

from __future__ import annotations

from pathlib import Path
from typing import Callable

import numpy as np
import pytest

import hooke
from cli import skip_without_gpu

ROOT = Path(__file__).resolve().parents[2]


def walker() -> hooke.Model:
    return hooke.Scene.load(ROOT / "scenes" / "mixed.json").to_model()


Make = Callable[[hooke.Model], hooke.Simulation]


def cpu(model: hooke.Model) -> hooke.Simulation:
    return hooke.CpuWorld(model)


def gpu(model: hooke.Model) -> hooke.Simulation:
    skip_without_gpu()
    return hooke.World(model)


def gpu_f64(model: hooke.Model) -> hooke.Simulation:
    skip_without_gpu()
    return hooke.World(model, precision="f64")


@pytest.mark.parametrize("make", [cpu, gpu, gpu_f64])
def test_restore_then_step_gives_the_bits_of_stepping_straight_through(make: Make, tmp_path: Path) -> None:
    world = make(walker())
    world.step(150)
    data = world.snapshot()
    assert isinstance(data, bytes) and data[:8] == b"HOOKESNP"
    world.save_snapshot(tmp_path / "walker.snapshot")
    world.step(100)
    expected = (world.state_hash(), world.positions(), world.velocities(), world.energy())
    for restore in ("bytes", "file", "same world"):
        other = world if restore == "same world" else make(walker())
        other.step(7)
        if restore == "file":
            other.load_snapshot(tmp_path / "walker.snapshot")
        else:
            other.restore(data)
        assert other.steps == 150
        other.step(100)
        assert other.state_hash() == expected[0], restore
        assert np.array_equal(other.positions(), expected[1])
        assert np.array_equal(other.velocities(), expected[2])
        assert other.energy()["dissipated"] == expected[3]["dissipated"]


def test_damaged_bytes_are_refused_by_name() -> None:
    world = hooke.CpuWorld(walker())
    world.step(10)
    data = world.snapshot()
    with pytest.raises(hooke.SnapshotError, match="truncated"):
        world.restore(data[: len(data) - 1])
    flipped = bytearray(data)
    flipped[len(data) // 2] ^= 1
    with pytest.raises(hooke.SnapshotError, match="corrupted"):
        world.restore(bytes(flipped))
    with pytest.raises(hooke.SnapshotError, match="format version 3; this hooke reads version 1"):
        world.restore(data[:8] + (3).to_bytes(4, "little") + data[12:])
    with pytest.raises(hooke.SnapshotError, match="not a hooke snapshot"):
        world.restore(b"hello")


def test_a_snapshot_of_another_model_or_backend_is_refused_by_name() -> None:
    data = hooke.CpuWorld(walker()).snapshot()
    cube = hooke.CpuWorld(hooke.Scene.load(ROOT / "scenes" / "cube.json").to_model())
    with pytest.raises(hooke.SnapshotError, match="this world's model has"):
        cube.restore(data)
    skip_without_gpu()
    with pytest.raises(hooke.SnapshotError, match="it is of the CPU reference \\(f64\\); it cannot be restored into the GPU World in f32"):
        hooke.World(walker()).restore(data)
