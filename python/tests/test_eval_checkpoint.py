"""Checkpoints of ``hooke.evaluate``: resumed from its checkpoint, an evaluation returns the
bits of one that never stopped; a foreign or damaged checkpoint raises, naming the file."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import numpy as np
import pytest

import hooke
from test_population import UNSTABLE, bits, genomes

# 5 s at dt = 1 ms: 5 control periods of 1000 steps (the population file's period).
EVALUATION: dict[str, Any] = {
    "duration": 5.0,
    "params": {"dt": 0.001, "friction": {"static_coefficient": 1.0, "kinetic_coefficient": 0.8}},
}


def robots() -> list[Any]:
    """Four genome robots and the unstable cube, which fails in the first control period."""
    rows: list[Any] = [{"id": f"g{i}", "genome": hooke.genome_cells(g)} for i, g in enumerate(genomes(4))]
    rows.insert(1, {"id": "unstable", "scene": UNSTABLE})
    return rows


def same(a: hooke.EvaluationResults, b: hooke.EvaluationResults) -> None:
    assert bits(a.fitness) == bits(b.fitness)
    assert list(a.failure) == list(b.failure)
    assert list(a.failure_step) == list(b.failure_step) and list(a.failure_mass) == list(b.failure_mass)
    assert bits(a.failure_time) == bits(b.failure_time)
    assert bits(a.start.ravel()) == bits(b.start.ravel()) and bits(a.end.ravel()) == bits(b.end.ravel())


def test_resumed_from_either_checkpoint_gives_the_undisturbed_bits(tmp_path: Path) -> None:
    straight = hooke.evaluate(robots(), EVALUATION)
    assert list(straight.failed) == [False, True, False, False, False]
    path = tmp_path / "eval.ckpt"
    checkpointed = hooke.evaluate(robots(), EVALUATION, checkpoint=path, checkpoint_every=2)
    same(checkpointed, straight)
    previous = tmp_path / "eval.previous.ckpt"
    assert path.is_file() and previous.is_file()  # after periods 4 and 2 of the second run
    same(hooke.evaluate(robots(), EVALUATION, checkpoint=path, resume=True), straight)
    # A latest checkpoint cut short: the one before it is taken.
    path.write_bytes(path.read_bytes()[:100])
    same(hooke.evaluate(robots(), EVALUATION, checkpoint=path, resume=True), straight)


def test_a_foreign_or_damaged_checkpoint_raises_naming_the_file(tmp_path: Path) -> None:
    path = tmp_path / "eval.ckpt"
    hooke.evaluate(robots(), EVALUATION, checkpoint=path, checkpoint_every="1")
    before = path.read_bytes()
    longer = dict(EVALUATION, duration=6.0)
    with pytest.raises(hooke.SnapshotError, match="another evaluation") as e:
        hooke.evaluate(robots(), longer, checkpoint=path, resume=True)
    assert str(path) in str(e.value)
    with pytest.raises(hooke.SnapshotError, match="population of 5 robots; this one has 4"):
        hooke.evaluate(robots()[:4], EVALUATION, checkpoint=path, resume=True)
    assert path.read_bytes() == before
    for damaged in (path, tmp_path / "eval.previous.ckpt"):
        data = bytearray(damaged.read_bytes())
        data[len(data) // 2] ^= 1
        damaged.write_bytes(bytes(data))
    with pytest.raises(hooke.SnapshotError, match="no checkpoint reads.*corrupted"):
        hooke.evaluate(robots(), EVALUATION, checkpoint=path, resume=True)
    with pytest.raises(ValueError, match="resume=True needs checkpoint"):
        hooke.evaluate(robots(), EVALUATION, resume=True)
    with pytest.raises(ValueError, match="checkpoint_every"):
        hooke.evaluate(robots(), EVALUATION, checkpoint=path, checkpoint_every="soon")
    assert np.isfinite(hooke.evaluate(robots(), EVALUATION, checkpoint=path).fitness[0])
