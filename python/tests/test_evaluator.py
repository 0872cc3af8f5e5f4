"""hooke.Evaluator (a backend opened once for many batches), hooke.evolve's `evaluate` hook and
its checkpoints: the bits of hooke.evaluate and hooke.evolve in one process, shares as
`hooke eval --split` cuts them."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import numpy as np
import pytest

import hooke
from cli import skip_without_gpu
from test_evolution import SETTINGS
from test_population import EVALUATION, bits, genomes, population_file


def history_text(evolved: hooke.Evolved) -> str:
    """Everything an evolution's history holds but its wall times, bit for bit (floats in hex),
    and its champion: equal texts are equal runs."""
    h = evolved.history
    rows = [
        f"{g},{float(b).hex()},{float(m).hex()},{f},{e},{'' if genome is None else genome.tobytes().hex()}"
        for g, b, m, f, e, genome in zip(h.generation, h.best, h.mean, h.failures, h.empty, h.best_genomes)
    ]
    c = evolved.champion
    rows.append("none" if c is None else f"champion,{c.fitness.hex()},{c.generation},{c.genome.tobytes().hex()}")
    return "\n".join(rows) + "\n"


@pytest.mark.parametrize("backend", ["cpu", "gpu"])
def test_an_evaluator_gives_the_bits_of_evaluate_on_every_call_and_share(tmp_path: Path, backend: str) -> None:
    if backend == "gpu":
        skip_without_gpu()
    path = population_file(tmp_path)
    whole = hooke.evaluate(path, backend=backend)
    evaluator = hooke.Evaluator(backend)  # the device opened once, here
    assert evaluator.backend == backend and (evaluator.adapter is None) == (backend == "cpu")
    for _ in range(2):  # the same open backend, twice
        again = evaluator.evaluate(path)
        assert bits(again.fitness) == bits(whole.fitness) and list(again.failure) == list(whole.failure)
    cut = [hooke.split_share(len(whole), k, 3) for k in range(3)]
    assert cut == [(0, 2), (2, 5), (5, 8)]  # 8 robots: [k 8 / 3, (k + 1) 8 / 3)
    parts = [evaluator.evaluate(path, start=a, end=b) for a, b in cut]
    assert sum((p.ids for p in parts), []) == whole.ids
    assert bits(np.concatenate([p.fitness for p in parts])) == bits(whole.fitness)


def test_evaluate_genomes_gives_the_bits_of_an_evolution_generation() -> None:
    batch = genomes(5).astype(np.uint16)
    batch[3] = 0  # no filled cell: a "no_robot" row, as in a population file
    evaluator = hooke.Evaluator("cpu", threads=1)
    got = evaluator.evaluate_genomes(batch, SETTINGS["evolution"], SETTINGS["evaluation"])
    assert got.ids == [f"robot {i}" for i in range(5)] and got.failure[3] == "no_robot"
    as_file = hooke.evaluate(list(batch), SETTINGS["evaluation"])
    assert bits(got.fitness) == bits(as_file.fitness)


def test_an_evaluate_hook_gives_the_history_and_champion_of_one_process() -> None:
    seen: list[int] = []

    def hook(batch: Any, evolution: Any, evaluation: Any) -> hooke.EvaluationResults:
        seen.append(len(batch))
        return hooke.Evaluator("cpu", threads=1).evaluate_genomes(batch, evolution, evaluation)

    plain = hooke.evolve(SETTINGS)
    hooked = hooke.evolve(SETTINGS, evaluate=hook)
    assert len(seen) == 3 and all(0 < n <= 6 for n in seen)
    assert history_text(hooked) == history_text(plain)
    assert hooked.backend == "cpu"


def test_an_evaluate_hook_that_raises_stops_the_run_with_its_exception() -> None:
    def hook(batch: Any, evolution: Any, evaluation: Any) -> Any:
        raise KeyError("the cluster is gone")

    with pytest.raises(KeyError, match="the cluster is gone"):
        hooke.evolve(SETTINGS, evaluate=hook)
    with pytest.raises(hooke.ArgumentError, match="fitness values for"):
        hooke.evolve(SETTINGS, evaluate=lambda batch, *_: np.zeros(len(batch) + 1))


def four_generations(settings: dict[str, Any]) -> dict[str, Any]:
    """A copy of `settings` with four generations."""
    longer: dict[str, Any] = json.loads(json.dumps(settings))
    longer["evolution"]["generations"] = 4
    return longer


def interrupt_after_generation_1(generation: int, stats: hooke.GenerationStats) -> None:
    """A callback that stops the run as Ctrl-C would, between generations 1 and 2 (after the
    checkpoint of generation 1 was written)."""
    if generation == 1:
        raise KeyboardInterrupt


def test_a_run_stopped_between_generations_resumes_from_its_checkpoint(tmp_path: Path) -> None:
    settings = four_generations(SETTINGS)
    checkpoint = tmp_path / "run.ckpt"
    undisturbed = hooke.evolve(settings)
    with pytest.raises(KeyboardInterrupt):
        hooke.evolve(settings, checkpoint=checkpoint, callback=interrupt_after_generation_1)
    saved = json.loads(checkpoint.read_text())
    assert saved["state"]["generation"] == 2 and saved["backend"] == "cpu"
    resumed = hooke.evolve(settings, checkpoint=checkpoint, resume=True)
    assert history_text(resumed) == history_text(undisturbed)
    other = json.loads(json.dumps(settings))
    other["evolution"]["seed"] = 6
    with pytest.raises(hooke.ArgumentError, match="not those the checkpoint was made with"):
        hooke.evolve(other, checkpoint=checkpoint, resume=True)


def test_hooke_imports_without_ray_and_hooke_ray_names_the_install() -> None:
    # `ray` made unimportable in a fresh interpreter, installed or not.
    code = (
        "import sys; sys.modules['ray'] = None\n"
        "import hooke\n"
        "try:\n"
        "    import hooke.ray\n"
        "except ImportError as e:\n"
        "    print('ImportError:', e)\n"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    assert "ImportError: hooke.ray needs Ray" in done.stdout and "pip install ray" in done.stdout


def test_bad_shares_and_ranges_are_errors_naming_them(tmp_path: Path) -> None:
    path = population_file(tmp_path)
    with pytest.raises(hooke.ArgumentError, match=r"robots 3\.\.9: not a range of the batch's 8 robots"):
        hooke.Evaluator().evaluate(path, start=3, end=9)
    with pytest.raises(hooke.ArgumentError, match="share 3 of 3"):
        hooke.split_share(8, 3, 3)
    with pytest.raises(hooke.ArgumentError, match=r"genomes\[0\], cell 1: code 9"):
        hooke.Evaluator().evaluate_genomes(np.array([[[[1, 9]]]]), SETTINGS["evolution"], EVALUATION)
