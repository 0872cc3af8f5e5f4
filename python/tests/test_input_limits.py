"""Inputs that cannot exhaust memory or run forever, from Python: the files the package reads
itself (population and settings files) go through hooke's input-file limit
(``HOOKE_MAX_INPUT_BYTES``, 64 MiB by default), an image body's picture is refused from its
header when it claims too many pixels, and a duration of more than 2^32 steps is refused before
anything runs."""

from __future__ import annotations

import struct
import zlib
from pathlib import Path

import pytest

import hooke
from conftest import cube_model

HUNDREDS_OF_MB = 300 << 20


def sparse(path: Path, size: int) -> Path:
    """A sparse file of `size` bytes (no disk space, no time)."""
    with open(path, "wb") as f:
        f.truncate(size)
    return path


def png_claiming(width: int, height: int) -> bytes:
    """A 65-byte PNG whose header claims a `width x height` 8-bit grey picture, with no pixels."""

    def chunk(kind: bytes, data: bytes) -> bytes:
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))

    ihdr = struct.pack(">IIBBBBB", width, height, 8, 0, 0, 0, 0)
    return b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", ihdr) + chunk(b"IDAT", zlib.compress(b"")) + chunk(b"IEND", b"")


def test_population_and_settings_files_of_hundreds_of_mb_are_refused(tmp_path: Path) -> None:
    population = sparse(tmp_path / "huge_population.json", HUNDREDS_OF_MB)
    with pytest.raises(hooke.InputTooLargeError, match="huge_population.json") as e:
        hooke.evaluate(population)
    assert "314572800 bytes" in str(e.value) and "HOOKE_MAX_INPUT_BYTES" in str(e.value)
    settings = sparse(tmp_path / "huge_settings.json", HUNDREDS_OF_MB)
    with pytest.raises(hooke.InputTooLargeError, match="huge_settings.json"):
        hooke.evolve(settings)
    # An InputTooLargeError is an OSError too, as a failed read would be.
    assert issubclass(hooke.InputTooLargeError, OSError)


def test_the_limit_is_hookes_and_the_environment_sets_it(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("HOOKE_MAX_INPUT_BYTES", raising=False)
    assert hooke.max_input_bytes() == 64 << 20
    path = tmp_path / "population.json"
    one_cell = '{"id": "one", "genome": {"size": [1, 1, 1], "cells": ["soft"]}}'
    path.write_text('{"version": 1, "evaluation": {"duration": 0.01}, "robots": [' + one_cell + "]}")
    monkeypatch.setenv("HOOKE_MAX_INPUT_BYTES", "10")
    assert hooke.max_input_bytes() == 10
    with pytest.raises(hooke.InputTooLargeError, match="above the limit of 10 bytes"):
        hooke.evaluate(path)
    monkeypatch.setenv("HOOKE_MAX_INPUT_BYTES", "lots")
    with pytest.raises(hooke.InvalidParameterError, match="HOOKE_MAX_INPUT_BYTES"):
        hooke.evaluate(path)
    monkeypatch.setenv("HOOKE_MAX_INPUT_BYTES", "1000")
    assert hooke.evaluate(path).fitness.shape == (1,)


def test_a_missing_file_is_an_oserror_naming_it(tmp_path: Path) -> None:
    with pytest.raises(OSError, match="absent.json"):
        hooke.evaluate(tmp_path / "absent.json")


def test_an_image_header_claiming_a_huge_picture_is_refused_before_decoding(tmp_path: Path) -> None:
    picture = tmp_path / "claims_huge.png"
    picture.write_bytes(png_claiming(100_000, 100_000))
    model = hooke.Model()
    with pytest.raises(hooke.ImageTooLargeError, match="claims_huge.png") as e:
        model.add("picture", hooke.ImageBody(path=str(picture)))
    assert "100000 x 100000" in str(e.value)
    scene = hooke.Scene()
    scene.add("picture", hooke.ImageBody(path=str(picture)))
    with pytest.raises(hooke.ImageTooLargeError):
        scene.to_model()
    huge_file = sparse(tmp_path / "huge_picture.png", HUNDREDS_OF_MB)
    with pytest.raises(hooke.InputTooLargeError, match="huge_picture.png"):
        hooke.Model().add("picture", hooke.ImageBody(path=str(huge_file)))


def test_durations_beyond_two_to_the_32_steps_are_refused_before_running() -> None:
    world = hooke.CpuWorld(cube_model())
    with pytest.raises(hooke.InvalidParameterError, match=r"duration.*2\^32"):
        world.step_for(1e9)  # 1e13 steps of 1e-4 s
    assert world.steps == 0
    # An evaluation's settings are refused as a whole, the duration named in the message.
    with pytest.raises(hooke.InvalidInputError, match=r"duration.*2\^32"):
        hooke.evaluate([[[[1]]]], {"duration": 1e9})
