"""hooke.frames: a run's frames as PNG files through hooke's renderer."""

from __future__ import annotations

import struct
import zlib
from pathlib import Path

import pytest

import hooke
from cli import skip_without_gpu
from conftest import cube_model

PNG_SIGNATURE = b"\x89PNG\r\n\x1a\n"


def png_size_and_pixels(path: Path) -> tuple[tuple[int, int], bytes]:
    """Width and height from the IHDR chunk, and the decompressed image data (every chunk's
    CRC checked: a truncated or corrupt file fails here)."""
    data = path.read_bytes()
    assert data[:8] == PNG_SIGNATURE, f"{path} is not a PNG"
    offset, size, idat = 8, (0, 0), b""
    while offset < len(data):
        (length,) = struct.unpack(">I", data[offset : offset + 4])
        kind = data[offset + 4 : offset + 8]
        body = data[offset + 8 : offset + 8 + length]
        (crc,) = struct.unpack(">I", data[offset + 8 + length : offset + 12 + length])
        assert zlib.crc32(kind + body) == crc, f"{path}: bad CRC in {kind!r}"
        if kind == b"IHDR":
            size = struct.unpack(">II", body[:8])
        elif kind == b"IDAT":
            idat += body
        offset += 12 + length
    assert kind == b"IEND", f"{path} does not end with IEND"
    return size, zlib.decompress(idat)


@pytest.mark.parametrize("backend", ["cpu", "gpu"])
def test_frames_are_pngs_of_the_asked_size_one_per_frame_time(tmp_path: Path, backend: str) -> None:
    skip_without_gpu()  # the renderer needs an adapter (lavapipe is enough)
    model = cube_model(height=0.3)
    world: hooke.Simulation = hooke.CpuWorld(model) if backend == "cpu" else hooke.World(model)
    paths = hooke.frames(world, tmp_path / "frames", seconds=0.2, every=0.05, size=(64, 48))
    # floor(0.2 / 0.05) + 1 frames, frame 0 showing the start; named in order.
    assert paths == [tmp_path / "frames" / f"frame_{k:05}.png" for k in range(5)]
    assert sorted((tmp_path / "frames").glob("*.png")) == sorted([*paths, tmp_path / "frames" / "frame_energy.png"])
    images = [png_size_and_pixels(p) for p in paths]
    assert {size for size, _ in images} == {(64, 48)}
    # The cube falls 0.2 m in 0.2 s (g t^2 / 2): the last frame is not the first.
    assert images[0][1] != images[-1][1]
    assert world.steps == 2000


def test_frames_name_a_bad_stem_or_frame_time(tmp_path: Path) -> None:
    world = hooke.CpuWorld(cube_model())
    with pytest.raises(hooke.ArgumentError, match="stem"):
        hooke.frames(world, tmp_path, stem="a/b")
    with pytest.raises(hooke.InvalidParameterError, match="frame_time"):
        hooke.frames(world, tmp_path, seconds=0.1, every=1e-5)  # below dt
    assert world.steps == 0 and not list(tmp_path.glob("*.png"))
