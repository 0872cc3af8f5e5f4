"""hooke.evolve: the crate's genetic algorithm from Python, the same champion bits as
`hooke evolve`, progress by callback or tqdm (optional)."""

from __future__ import annotations

import json
import sys
import types
from pathlib import Path
from typing import Any

import numpy as np
import pytest

import hooke
from cli import run_cli, skip_without_gpu

# Six robots of 2 x 2 x 2 voxels, three generations of 0.1 s at dt = 1 ms: small enough for a
# debug build of the CLI.
SETTINGS: dict[str, Any] = {
    "version": 1,
    "evolution": {"population": 6, "generations": 3, "size": [2, 2, 2], "seed": 5, "elites": 1},
    "evaluation": {"duration": 0.1, "params": {"dt": 0.001}},
}


def f64_bits(x: float) -> int:
    return int(np.float64(x).view(np.uint64))


def test_evolve_gives_the_champion_and_history_of_hooke_evolve(tmp_path: Path) -> None:
    # `hooke evolve` also records the champion's GIF, which needs the renderer's adapter.
    skip_without_gpu()
    settings = tmp_path / "settings.json"
    settings.write_text(json.dumps(SETTINGS))
    run_cli("evolve", str(settings), "--out", str(tmp_path / "out"), "--backend", "cpu", "--gif-size", "32x24")
    evolved_cli = json.loads((tmp_path / "out" / "checkpoint.json").read_text())["checkpoint"]["state"]["evolved"]
    evolved = hooke.evolve(settings, backend="cpu")
    champion = evolved.champion
    assert champion is not None and evolved_cli["champion"] is not None
    assert f64_bits(champion.fitness) == f64_bits(evolved_cli["champion"]["fitness"])
    assert champion.generation == evolved_cli["champion"]["generation"]
    assert hooke.genome_cells(champion.genome) == evolved_cli["champion"]["genome"]
    cli_best = [np.nan if s["best"] is None else s["best"] for s in evolved_cli["history"]]
    assert [f64_bits(b) for b in evolved.history.best] == [f64_bits(b) for b in cli_best]
    assert list(evolved.history.failures) == [s["failures"] for s in evolved_cli["history"]]


def test_the_best_never_drops_and_the_champion_is_the_best_of_all() -> None:
    # Elites are copied unchanged and score the same bits in their new batch.
    evolved = hooke.evolve(SETTINGS)
    best = evolved.history.best
    assert len(best) == 3 and not np.isnan(best).any()
    assert (np.diff(best) >= 0).all()
    assert evolved.champion is not None
    assert evolved.champion.fitness == best.max()
    assert evolved.champion.genome.shape == (2, 2, 2)
    # The champion scores its own fitness again, evaluated alone with the same settings.
    again = hooke.evaluate([evolved.champion.genome], SETTINGS["evaluation"])
    assert f64_bits(again.fitness[0]) == f64_bits(evolved.champion.fitness)


def test_the_callback_sees_every_generation_in_order() -> None:
    seen: list[tuple[int, hooke.GenerationStats]] = []
    evolved = hooke.evolve(SETTINGS, callback=lambda g, s: seen.append((g, s)), generations=2)
    assert [g for g, _ in seen] == [0, 1] == [s.generation for _, s in seen]
    assert [s.best for _, s in seen] == list(evolved.history.best)
    best_genome = seen[1][1].best_genome
    assert best_genome is not None and (best_genome == evolved.history.best_genomes[1]).all()


class Stop(Exception):
    pass


def test_an_exception_in_the_callback_stops_the_run_and_propagates() -> None:
    calls: list[int] = []

    def stop_at_one(generation: int, stats: hooke.GenerationStats) -> None:
        calls.append(generation)
        if generation == 1:
            raise Stop("enough")

    with pytest.raises(Stop, match="enough"):
        hooke.evolve(SETTINGS, callback=stop_at_one, generations=5)
    assert calls == [0, 1]


def test_progress_without_tqdm_prints_a_line_per_generation(monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setitem(sys.modules, "tqdm", None)  # `import tqdm` now raises ImportError
    monkeypatch.setitem(sys.modules, "tqdm.auto", None)
    evolved = hooke.evolve(SETTINGS, progress=True, generations=2)
    lines = capsys.readouterr().err.splitlines()
    assert [line.split(":")[0] for line in lines] == ["generation 0", "generation 1"]
    assert f"best {evolved.history.best[1]:.4f}" in lines[1]


def test_progress_with_tqdm_drives_its_bar(monkeypatch: pytest.MonkeyPatch) -> None:
    bars: list[Any] = []

    class Bar:
        def __init__(self, total: int, unit: str) -> None:
            self.total, self.done, self.closed = total, 0, False
            bars.append(self)

        def update(self, n: int) -> None:
            self.done += n

        def set_postfix(self, **values: Any) -> None:
            self.postfix = values

        def close(self) -> None:
            self.closed = True

    auto = types.ModuleType("tqdm.auto")
    auto.tqdm = Bar  # type: ignore[attr-defined]
    monkeypatch.setitem(sys.modules, "tqdm", types.ModuleType("tqdm"))
    monkeypatch.setitem(sys.modules, "tqdm.auto", auto)
    hooke.evolve(SETTINGS, progress=True, generations=2)
    assert len(bars) == 1 and (bars[0].total, bars[0].done, bars[0].closed) == (2, 2, True)


@pytest.mark.parametrize(
    ("kwargs", "error", "words"),
    [
        ({"popsize": 4}, hooke.ArgumentError, ["popsize"]),
        ({"population": 1}, hooke.InvalidParameterError, ["evolution.population"]),
        ({"elites": 6}, hooke.InvalidParameterError, ["evolution.elites"]),
        ({"size": [0, 2, 2]}, hooke.ArgumentError, ["evolution.size"]),
        ({"evaluation": {"duration": -1}}, hooke.InvalidBuilderError, ["evaluation.duration"]),
        ({"evaluation": {"duration": 1, "x": 0}}, hooke.ArgumentError, ["evaluation", "`x`"]),
        ({"settings": {**SETTINGS, "evolutoin": {}}}, hooke.ArgumentError, ["'evolutoin'"]),
        ({"settings": {**SETTINGS, "version": 2}}, hooke.ArgumentError, ["version 2"]),
    ],
)
def test_bad_settings_name_the_field(kwargs: dict[str, Any], error: type[Exception], words: list[str]) -> None:
    kwargs = dict(kwargs)
    settings = kwargs.pop("settings", SETTINGS)
    with pytest.raises(error) as raised:
        hooke.evolve(settings, **kwargs)
    for word in words:
        assert word in str(raised.value), f"{word!r} not in {raised.value}"


def test_gpu_evolution_runs_on_the_gpu_and_reruns_to_the_same_bits() -> None:
    skip_without_gpu()
    first = hooke.evolve(SETTINGS, backend="gpu", generations=2)
    second = hooke.evolve(SETTINGS, backend="gpu", generations=2)
    assert first.backend == "gpu" and first.adapter
    assert [f64_bits(b) for b in first.history.best] == [f64_bits(b) for b in second.history.best]


def test_a_resumed_run_gives_the_champion_and_history_of_an_undisturbed_one(tmp_path: Path) -> None:
    straight = hooke.evolve(SETTINGS, checkpoint=tmp_path / "straight.json")
    # Stopped by an exception from the callback after generation 1, then resumed.
    path = tmp_path / "stopped.json"

    class Stop(Exception):
        pass

    def stop(generation: int, stats: hooke.GenerationStats) -> None:
        if generation == 1:
            raise Stop

    with pytest.raises(Stop):
        hooke.evolve(SETTINGS, checkpoint=path, callback=stop)
    saved = json.loads(path.read_text())
    assert (saved["format"], saved["version"]) == ("hooke evolution checkpoint", 2)
    assert saved["checkpoint"]["state"]["generation"] == 2
    resumed = hooke.evolve(SETTINGS, checkpoint=path, resume=True)
    assert resumed.champion is not None and straight.champion is not None
    assert f64_bits(resumed.champion.fitness) == f64_bits(straight.champion.fitness)
    assert np.array_equal(resumed.champion.genome, straight.champion.genome)
    assert [f64_bits(b) for b in resumed.history.best] == [f64_bits(b) for b in straight.history.best]
    assert list(resumed.history.failures) == list(straight.history.failures)


def test_a_damaged_checkpoint_falls_back_to_the_one_before_or_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "checkpoint.json"
    straight = hooke.evolve(SETTINGS, checkpoint=path)
    previous = tmp_path / "checkpoint.previous.json"
    assert json.loads(previous.read_text())["checkpoint"]["state"]["generation"] == 2
    text = path.read_text()
    path.write_text(text[: len(text) // 2])
    with pytest.warns(RuntimeWarning, match="truncated"):
        again = hooke.evolve(SETTINGS, checkpoint=path, resume=True)
    assert [f64_bits(b) for b in again.history.best] == [f64_bits(b) for b in straight.history.best]
    path.write_text(text.replace('"version":2', '"version":7', 1))
    previous.write_text("{")
    with pytest.raises(hooke.SnapshotError, match="checkpoint version 7; this hooke reads version 2"):
        hooke.evolve(SETTINGS, checkpoint=path, resume=True)
    with pytest.raises(hooke.ArgumentError, match="checkpoint"):
        hooke.evolve(SETTINGS, resume=True)
