"""hooke.frames: a run's frames as PNG files through hooke's renderer."""

from __future__ import annotations

import struct
import zlib
from pathlib import Path

import pytest

import hooke
from cli import ROOT, skip_without_gpu
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


def unfiltered_rgba(size: tuple[int, int], data: bytes) -> list[tuple[int, int, int, int]]:
    """The pixels of 8-bit RGBA PNG image data (each row a filter byte, then the filtered row),
    with the PNG filters (none, sub, up, average, Paeth) undone."""
    width, height = size
    stride = 4 * width
    rows: list[bytearray] = []
    previous = bytearray(stride)
    for y in range(height):
        kind = data[y * (stride + 1)]
        row = bytearray(data[y * (stride + 1) + 1 : (y + 1) * (stride + 1)])
        for i in range(stride):
            a = row[i - 4] if i >= 4 else 0
            b = previous[i]
            c = previous[i - 4] if i >= 4 else 0
            if kind == 1:
                row[i] = (row[i] + a) & 0xFF
            elif kind == 2:
                row[i] = (row[i] + b) & 0xFF
            elif kind == 3:
                row[i] = (row[i] + (a + b) // 2) & 0xFF
            elif kind == 4:
                p = a + b - c
                pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
                row[i] = (row[i] + (a if pa <= pb and pa <= pc else b if pb <= pc else c)) & 0xFF
        rows.append(row)
        previous = row
    return [(r[i], r[i + 1], r[i + 2], r[i + 3]) for r in rows for i in range(0, stride, 4)]


def test_a_mesh_scene_is_drawn_with_its_meshs_own_surface(tmp_path: Path) -> None:
    skip_without_gpu()  # the renderer needs an adapter (lavapipe is enough)
    scene = hooke.Scene.load(ROOT / "scenes" / "mesh_bunny.json")
    world = hooke.CpuWorld(scene.to_model())
    (path,) = hooke.frames(world, tmp_path, seconds=0.001, size=(320, 240))
    size, data = png_size_and_pixels(path)
    # The face colour (232, 196, 150) lit at 40 % to 100 %: warm pixels, which nothing else in
    # the scene has (springs grey, blue or red; the ground and sky grey-blue). Some hundreds of
    # them show between the springs drawn over it; without the surface there are none.
    warm = [p for p in unfiltered_rgba(size, data) if p[0] > p[1] + 15 and p[1] > p[2] + 15]
    assert len(warm) > 100, f"{len(warm)} pixels of the face colour"


def test_a_tet_mesh_body_is_drawn_with_its_boundary(tmp_path: Path) -> None:
    skip_without_gpu()
    from test_scene import TWO_TETS_MSH

    path = tmp_path / "two.msh"
    path.write_text(TWO_TETS_MSH)
    model = hooke.Model()
    material = {"young_modulus": 1.0e5, "density": 1000.0}
    # Two tetrahedra 5 cm across, their boundary six triangles, drawn in the face colour.
    model.add("tets", hooke.TetMeshBody(path=path, material=material, scale=0.05), position=(0, 0, 0.1))
    (frame,) = hooke.frames(hooke.CpuWorld(model), tmp_path, seconds=0.001, size=(320, 240))
    size, data = png_size_and_pixels(frame)
    warm = [p for p in unfiltered_rgba(size, data) if p[0] > p[1] + 15 and p[1] > p[2] + 15]
    assert len(warm) > 100, f"{len(warm)} pixels of the face colour"
