"""Pictures through hooke's renderer."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

import hooke
from conftest import cube_model


@pytest.mark.parametrize("backend", ["cpu", "gpu"])
def test_record_writes_a_gif_and_the_energy_plot(tmp_path: Path, backend: str) -> None:
    if os.environ.get("HOOKE_SKIP_GPU_TESTS") == "1":
        pytest.skip("HOOKE_SKIP_GPU_TESTS=1: the renderer needs an adapter")
    model = cube_model(height=0.3)
    world: hooke.Simulation = hooke.CpuWorld(model) if backend == "cpu" else hooke.World(model)
    gif, plot = hooke.record(world, tmp_path / "drop.gif", seconds=0.2, size=(96, 72))
    assert gif == tmp_path / "drop.gif" and plot == tmp_path / "drop_energy.png"
    data = gif.read_bytes()
    assert data[:6] == b"GIF89a"
    width, height = int.from_bytes(data[6:8], "little"), int.from_bytes(data[8:10], "little")
    assert (width, height) == (96, 72)
    assert plot.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    assert world.steps == 2000  # the world is left at the end of the run


def test_record_wants_a_gif_path(tmp_path: Path) -> None:
    with pytest.raises(hooke.ArgumentError, match=r"must name a \.gif file"):
        hooke.record(hooke.CpuWorld(cube_model()), tmp_path / "drop.png")
