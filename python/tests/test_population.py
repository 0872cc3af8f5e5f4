"""hooke.evaluate: a population in one world, fitness and failures as arrays, the same bits as
`hooke eval` on the same input."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt
import pytest

import hooke
from cli import run_cli, skip_without_gpu
from conftest import ticks_while

# 0.1 s at dt = 1 ms (100 steps): short enough for a debug build of the CLI, long enough for
# the muscles (2 Hz) to move the robots.
EVALUATION: dict[str, Any] = {
    "duration": 0.1,
    "params": {"dt": 0.001, "friction": {"static_coefficient": 1.0, "kinetic_coefficient": 0.8}},
}

# A cube of 1e9 N/m springs and 10 g corners: its highest frequency, about sqrt(4 k / m) = 6e5
# rad/s, is far beyond the 2 / dt = 2e3 rad/s semi-implicit Euler keeps stable at dt = 1 ms,
# so it leaves every bound within a few steps.
UNSTABLE = {"bodies": [{"body": {"type": "cube", "stiffness": 1e9, "corner_mass": 0.01}}]}


def genomes(n: int, seed: int = 7) -> npt.NDArray[np.int64]:
    """`n` random 3 x 2 x 2 genomes (codes 0..6: empty, soft, stiff, muscles of phases 0..3)."""
    return np.random.default_rng(seed).integers(0, 7, size=(n, 3, 2, 2))


def population_file(tmp_path: Path) -> Path:
    """Six genome robots, an empty genome (no robot) and the unstable cube, as a file."""
    robots: list[dict[str, Any]] = [{"id": f"g{i}", "genome": hooke.genome_cells(g)} for i, g in enumerate(genomes(6))]
    robots.insert(2, {"id": "nothing", "genome": hooke.genome_cells(np.zeros((2, 1, 1), dtype=np.int64))})
    robots.append({"id": "unstable", "scene": UNSTABLE})
    path = tmp_path / "population.json"
    path.write_text(json.dumps({"version": 1, "evaluation": EVALUATION, "robots": robots}))
    return path


def bits(values: npt.NDArray[np.float64]) -> list[int]:
    """The f64 bit patterns (NaN included, so a failure must be a failure on both sides)."""
    return [int(b) for b in np.asarray(values, dtype=np.float64).view(np.uint64)]


def cli_results(path: Path, backend: str) -> list[dict[str, Any]]:
    out = path.parent / f"results_{backend}.json"
    run_cli("eval", str(path), "--out", str(out), "--backend", backend)
    results: list[dict[str, Any]] = json.loads(out.read_text())["results"]
    return results


@pytest.mark.parametrize("backend", ["cpu", "gpu"])
def test_evaluate_gives_the_bits_and_failures_of_hooke_eval(tmp_path: Path, backend: str) -> None:
    if backend == "gpu":
        skip_without_gpu()
    path = population_file(tmp_path)
    expected = cli_results(path, backend)
    got = hooke.evaluate(path, backend=backend)
    assert got.backend == backend and len(got) == len(expected) == 8
    assert got.ids == [r["id"] for r in expected]
    # Python's json reads the shortest round-trip strings serde_json writes back exactly.
    cli_fitness = np.array([np.nan if r["fitness"] is None else r["fitness"] for r in expected])
    assert bits(got.fitness) == bits(cli_fitness)
    assert got.messages == [r["failure"] for r in expected]
    assert got.failure[2] == "no_robot" and got.failure[7] in ("blow_up", "non_finite", "fixed_point_overflow")
    assert not got.failed[[0, 1, 3, 4, 5, 6]].any()


def test_genome_arrays_give_the_bits_of_the_file(tmp_path: Path) -> None:
    from_file = hooke.evaluate(population_file(tmp_path))
    batch = genomes(6)
    from_arrays = hooke.evaluate(batch, EVALUATION)
    assert from_arrays.ids == [f"robot {i}" for i in range(6)]
    assert bits(from_arrays.fitness) == bits(from_file.fitness[[0, 1, 3, 4, 5, 6]])
    # Keywords set single fields of the evaluation; a list of arrays is the same batch.
    keywords = hooke.evaluate(list(batch), duration=0.1, params=EVALUATION["params"], threads=1)
    assert bits(keywords.fitness) == bits(from_arrays.fitness)


def test_a_scene_robot_gives_the_same_bits_as_object_dict_or_file(tmp_path: Path) -> None:
    cube = {"version": 1, "bodies": [{"body": {"type": "cube"}, "placement": {"position": [0.0, 0.0, 0.05]}}]}
    (tmp_path / "cube.json").write_text(json.dumps(cube))
    scene = hooke.Scene.from_json(json.dumps(cube))
    r = hooke.evaluate([scene, {"id": "dict", "scene": cube}, tmp_path / "cube.json"], EVALUATION)
    assert r.ids == ["robot 0", "dict", "robot 2"] and not r.failed.any()
    assert bits(r.fitness[:1]) * 3 == bits(r.fitness)
    # A passive cube dropped 5 cm lands and settles: its centre ends lower than it started.
    assert (r.end[:, 2] < r.start[:, 2]).all()


def test_a_robots_bits_do_not_depend_on_the_batch() -> None:
    batch = genomes(6, seed=3)
    together = hooke.evaluate(batch, EVALUATION)
    alone = hooke.evaluate(batch[4:5], EVALUATION, threads=1)
    assert bits(alone.fitness) == bits(together.fitness[4:5])


def test_fitness_is_the_distance_the_centre_of_mass_moved_along_x() -> None:
    r = hooke.evaluate(genomes(4, seed=11), EVALUATION)
    assert not r.failed.any()
    # (end - start) . (1, 0, 0): the x difference exactly (adding 0 * dy and 0 * dz is exact).
    assert bits(r.fitness) == bits(r.end[:, 0] - r.start[:, 0])
    # Robots start on the ground: the lowest voxels at z = 0, the centre above it.
    assert (r.start[:, 2] > 0).all()


def test_a_failure_is_a_row_with_its_step_time_and_mass() -> None:
    r = hooke.evaluate([genomes(1)[0], {"id": "unstable", "scene": UNSTABLE}], EVALUATION)
    assert list(r.failed) == [False, True]
    assert r.failure[1] in ("blow_up", "non_finite") and np.isnan(r.fitness[1]) and np.isnan(r.end[1]).all()
    step, time, mass = int(r.failure_step[1]), float(r.failure_time[1]), int(r.failure_mass[1])
    assert step >= 1 and time == pytest.approx(step * 0.001, rel=1e-12)  # the end of that step
    assert 0 <= mass < 8  # a corner of the cube, in its own numbering
    message = r.messages[1]
    assert message is not None and f"step {step}" in message
    assert (r.failure_step[0], r.failure_mass[0], r.messages[0]) == (-1, -1, None)


def test_the_interpreter_runs_while_a_population_is_evaluated() -> None:
    # 8 robots for 10 000 steps on one thread: about 0.3 s here.
    batch = genomes(8, seed=1)
    ticks = ticks_while(lambda: hooke.evaluate(batch, duration=1.0, params={"dt": 1e-4}, threads=1))
    # With the GIL held for the whole call the loop would run once or twice (before and after);
    # released, it ticks every millisecond or so.
    assert ticks > 5


@pytest.mark.parametrize(
    ("robots", "settings", "error", "words"),
    [
        ([np.full((2, 1, 1), 9)], {}, hooke.InvalidBuilderError, ["robots[0]", "phase 6", "phases is 4"]),
        ([np.ones((2, 1, 1), dtype=int), np.full((1, 1, 2), -1)], {}, hooke.ArgumentError, ["robots[1][0, 0, 0] = -1"]),
        ([np.ones((2, 1, 1), dtype=np.float64)], {}, hooke.ArgumentError, ["robots[0]", "integer"]),
        ([{"id": "a", "genome": np.ones((1, 1, 1), dtype=int)}] * 2, {}, hooke.InvalidBuilderError, ["robots[1]", "unique"]),
        ([{"id": "b"}], {}, hooke.InvalidBuilderError, ["robots[0]", "\"b\"", "neither"]),
        ([np.ones((1, 1, 1), dtype=int)], {"duration": -1.0}, hooke.InvalidBuilderError, ["evaluation.duration"]),
        ([np.ones((1, 1, 1), dtype=int)], {"durations": 1.0}, hooke.InvalidBuilderError, ["evaluation", "durations"]),
        ([np.ones((1, 1, 1), dtype=int)], {"backend": "tpu"}, hooke.ArgumentError, ["backend", "tpu"]),
        ([np.ones((1, 1, 1), dtype=int)], {"threads": 0}, hooke.ArgumentError, ["threads"]),
        ({"a": 1}, {}, hooke.ArgumentError, ["robots", "dict"]),
    ],
)
def test_bad_input_names_the_robot_or_the_field(robots: Any, settings: dict[str, Any], error: type[Exception], words: list[str]) -> None:
    evaluation = {"duration": 0.01, **{k: v for k, v in settings.items() if k not in ("backend", "threads")}}
    with pytest.raises(error) as raised:
        hooke.evaluate(robots, evaluation, backend=settings.get("backend"), threads=settings.get("threads"))
    for word in words:
        assert word in str(raised.value), f"{word!r} not in {raised.value}"
    assert isinstance(raised.value, ValueError)


def test_an_evaluation_that_sets_only_its_duration_lets_a_walker_walk() -> None:
    # The defaults are the robots preset's ground: with Params' frictionless default, no
    # horizontal force acts and the centre of mass stays within rounding (~1e-16 m) of its
    # start; the walker covers centimetres in 2 s. 1 mm lies between the two.
    walker = {"id": "walker", "scene": {"bodies": [{"body": {"type": "walking_robot"}}]}}
    r = hooke.evaluate([walker], {"duration": 2})
    assert not r.failed[0] and abs(r.fitness[0]) > 1e-3
