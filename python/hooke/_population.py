"""Populations of robots from Python: :func:`evaluate` (fitness and failures as numpy arrays,
the same bits as ``hooke eval`` on the same input) and :func:`evolve` (the crate's genetic
algorithm, the same champion as ``hooke evolve`` with the same settings, progress by a
callback or tqdm).

Genomes as arrays: an integer array of shape ``(x, y, z)`` indexed ``genome[x, y, z]``, one
code per cell: 0 empty, 1 soft, 2 stiff, ``3 + p`` a muscle of phase ``p`` (below the
evaluation's ``genome.phases``, 4 by default). A batch of genomes of one size is an array of
shape ``(n, x, y, z)``. Settings use the names of the population and settings files
(``hooke eval --help``, ``hooke evolve --help``). SI units: fitness in m for the default
distance fitness, durations and times in s.
"""

from __future__ import annotations

import importlib
import json
import os
import sys
from dataclasses import dataclass, fields
from pathlib import Path
from typing import Any, Callable, Iterable, Mapping, Optional, Sequence, TypeVar, Union

import numpy as np
import numpy.typing as npt

from . import _hooke
from ._errors import ArgumentError

__all__ = [
    "evaluate",
    "evolve",
    "Evaluator",
    "split_share",
    "EvaluationResults",
    "Evolved",
    "Champion",
    "History",
    "GenerationStats",
    "genome_cells",
    "genome_array",
]

FloatArray = npt.NDArray[np.float64]
IntArray = npt.NDArray[np.int64]
GenomeArray = npt.NDArray[np.uint16]
PathLike = Union[str, "os.PathLike[str]"]

#: The evolution settings ``hooke evolve`` reads (its settings file's ``"evolution"`` object).
EVOLUTION_FIELDS = (
    "population",
    "generations",
    "size",
    "seed",
    "tournament",
    "elites",
    "fill",
    "mutation_rate",
    "crossover_rate",
)


def _json(value: Any) -> str:
    """``value`` as JSON text (numpy scalars and arrays as numbers and lists; no NaN)."""

    def plain(o: Any) -> Any:
        if isinstance(o, (np.generic, np.ndarray)):
            return o.tolist()
        if isinstance(o, os.PathLike):
            return os.fspath(o)
        raise TypeError(f"{type(o).__name__} is not a setting value (numbers, strings, lists, dicts)")

    try:
        return json.dumps(value, allow_nan=False, default=plain)
    except (TypeError, ValueError) as e:
        raise ArgumentError(f"settings: {e}") from e


def genome_cells(genome: Any, *, name: str = "genome") -> dict[str, Any]:
    """The genome array ``genome`` (integer codes, shape ``(x, y, z)``; see the module) as the
    population file's genome object ``{"size": [x, y, z], "cells": [...]}``, cells x fastest.
    Errors name ``name`` and the bad cell."""
    array = np.asarray(genome)
    if array.ndim != 3 or 0 in array.shape:
        raise ArgumentError(f"{name}: a genome is an array of shape (x, y, z), each >= 1; got shape {array.shape}")
    if not np.issubdtype(array.dtype, np.integer):
        raise ArgumentError(f"{name}: a genome holds integer codes (0 empty, 1 soft, 2 stiff, 3 + p muscle); got dtype {array.dtype}")
    flat = array.ravel(order="F").astype(np.int64)
    bad = np.flatnonzero((flat < 0) | (flat > 258))
    if bad.size:
        x, y, z = np.unravel_index(int(bad[0]), array.shape, order="F")
        raise ArgumentError(f"{name}[{x}, {y}, {z}] = {flat[bad[0]]}: not a cell code (0 empty, 1 soft, 2 stiff, 3 + p a muscle of phase p < 256)")
    names: list[Any] = ["empty", "soft", "stiff"]
    cells = [names[c] if c < 3 else {"muscle": {"phase": c - 3}} for c in flat.tolist()]
    return {"size": [int(s) for s in array.shape], "cells": cells}


def genome_array(codes: Any, size: Sequence[int]) -> GenomeArray:
    """Cell codes in file order (x fastest) as the ``(x, y, z)`` genome array."""
    flat = np.asarray(codes, dtype=np.uint16)
    return np.ascontiguousarray(flat.reshape(tuple(size), order="F"))


@dataclass(frozen=True)
class EvaluationResults:
    """What :func:`evaluate` gives: one row per robot, in input order.

    ``fitness`` is NaN exactly where ``failed`` is true; ``failure`` names what happened
    (``"blow_up"``, ``"non_finite"``, ``"fixed_point_overflow"``, ``"fitness"``, or
    ``"no_robot"`` for a genome with no filled cell) and ``messages`` says it as ``hooke eval``'s
    results.json does."""

    ids: list[str]
    """The robots' ids (given, or ``"robot i"``)."""
    fitness: FloatArray
    """Fitness, ``(n,)`` float64 (m for the distance fitness); NaN for a failed robot."""
    failed: npt.NDArray[np.bool_]
    """Whether each robot failed, ``(n,)`` bool."""
    failure: npt.NDArray[np.str_]
    """The failure's kind, ``(n,)`` str; ``""`` where none."""
    messages: list[Optional[str]]
    """The failure as a sentence, or ``None``."""
    failure_step: IntArray
    """The step (from 1) after which the failure was seen, ``(n,)`` int64; -1 where none."""
    failure_time: FloatArray
    """Simulated time of the failure, s, ``(n,)``; NaN where none."""
    failure_mass: IntArray
    """The failing mass in the robot's own numbering, ``(n,)`` int64; -1 where none."""
    start: FloatArray
    """Each robot's centre of mass at the start, ``(n, 3)``, m (NaN for ``"no_robot"``)."""
    end: FloatArray
    """Its centre of mass at the end, ``(n, 3)``, m; NaN for a failed robot."""
    backend: str
    """``"cpu"`` or ``"gpu"``: what ran."""
    adapter: Optional[str]
    """The GPU adapter that ran, or ``None`` on the CPU."""

    def __len__(self) -> int:
        return len(self.ids)


_T = TypeVar("_T")


def _of_raw(cls: type[_T], raw: Mapping[str, Any], **given: Any) -> _T:
    """The dataclass ``cls`` of the compiled module's dict ``raw``: each field its entry of
    ``raw`` unless ``given``."""
    names = [f.name for f in fields(cls)]  # type: ignore[arg-type]
    return cls(**{name: given[name] if name in given else raw[name] for name in names})


def _robot_entry(i: int, robot: Any) -> dict[str, Any]:
    """Robot ``i`` of a list as a population file's robot object."""
    if isinstance(robot, Mapping):
        entry = dict(robot)
        if "cells" in entry and "size" in entry:  # a genome object on its own
            entry = {"genome": entry}
        entry.setdefault("id", f"robot {i}")
        if isinstance(entry.get("genome"), np.ndarray):
            entry["genome"] = genome_cells(entry["genome"], name=f"robots[{i}].genome")
        if hasattr(entry.get("scene"), "to_json"):
            entry["scene"] = json.loads(entry["scene"].to_json())
        return entry
    if isinstance(robot, _hooke.Scene):
        return {"id": f"robot {i}", "scene": json.loads(robot.to_json())}
    if isinstance(robot, (str, os.PathLike)):
        return {"id": f"robot {i}", "scene": os.fspath(robot)}
    return {"id": f"robot {i}", "genome": genome_cells(robot, name=f"robots[{i}]")}


def _population(robots: Any) -> tuple[dict[str, Any], Path]:
    """``robots`` as a population file's object and the folder its scene paths are relative
    to."""
    if isinstance(robots, (str, os.PathLike)):
        path = Path(robots)
        text = _hooke.read_input_text(path)  # within HOOKE_MAX_INPUT_BYTES, as hooke eval reads
        try:
            return json.loads(text), path.parent
        except json.JSONDecodeError as e:
            raise ArgumentError(f"{path}: not JSON: {e}") from e
    if isinstance(robots, Mapping) and "robots" in robots:
        return dict(robots), Path.cwd()
    if isinstance(robots, np.ndarray) and robots.ndim == 4:
        robots = list(robots)
    if isinstance(robots, (Mapping, np.ndarray)) or not isinstance(robots, Iterable):
        raise ArgumentError(
            "robots: a population file (path or dict with 'robots'), an (n, x, y, z) genome array, "
            f"or a list of genomes, robot dicts or scenes; got {type(robots).__name__}"
        )
    entries = [_robot_entry(i, r) for i, r in enumerate(robots)]
    return {"version": 1, "robots": entries}, Path.cwd()


def evaluate(
    robots: Any,
    evaluation: Optional[Mapping[str, Any]] = None,
    *,
    backend: Optional[str] = None,
    threads: Optional[int] = None,
    **settings: Any,
) -> EvaluationResults:
    """Evaluates a population of robots in one world, as ``hooke eval`` does (the same robots,
    the same fitness bits on the same backend), the GIL released while it runs.

    ``robots``: a population file (its path, or the same object as a dict), an ``(n, x, y, z)``
    integer array of genomes, or a list whose items are each a genome array, a genome object
    (``{"size": ..., "cells": ...}``), a robot object of the file (``{"id": ..., "genome": ...}``
    or ``{"id": ..., "scene": ...}``), a :class:`Scene` or a scene file's path. Robots without
    an id are named ``"robot i"``.

    ``evaluation``: the file's ``"evaluation"`` object (``duration`` in s, ``params``,
    ``fitness``, ``obstacles``, ``terrain``, ``genome``, ...); keyword arguments set single
    fields of it (``duration=0.5``). A field ``params`` leaves out is that of the ``"robots"``
    preset (damped contact, Coulomb friction 1.0 / 0.8), the ground walking robots need. With
    a population file, both override the file's own.

    ``backend``: ``"cpu"`` (the f64 reference), ``"gpu"`` (the f32 GPU World on any adapter) or
    ``"auto"``; by default the file's ``evaluation.backend``, else ``"cpu"``. ``threads``: CPU
    threads (all cores when ``None``; results do not depend on it). Scene paths are relative to
    the population file's folder (the current folder for the other forms).

    Raises :class:`InvalidBuilderError` (a ``ValueError``) naming the robot (``robots[3] (id
    "a")``) and the field for bad input; a robot that fails while running is a row of the
    results, not an exception."""
    text, base_dir, _ = population_text(robots, evaluation, settings)
    return results_of(_hooke.evaluate_population(text, base_dir, backend, threads))


def population_text(robots: Any, evaluation: Optional[Mapping[str, Any]], settings: Mapping[str, Any]) -> tuple[str, str, int]:
    """``robots`` with ``evaluation`` and ``settings`` (as :func:`evaluate` takes them) as a
    population file's text, the folder its scene paths are relative to, and the robot count."""
    population, base_dir = _population(robots)
    spec = dict(population.get("evaluation") or {})
    spec.update(evaluation or {})
    spec.update(settings)
    population["evaluation"] = spec
    population.setdefault("version", 1)
    robots_in = population.get("robots")
    return _json(population), os.fspath(base_dir), len(robots_in) if isinstance(robots_in, list) else 0


def results_of(raw: Mapping[str, Any]) -> EvaluationResults:
    """The compiled module's results dict as :class:`EvaluationResults`."""
    failure = np.array([k or "" for k in raw["failure"]], dtype=str)
    return _of_raw(EvaluationResults, raw, failure=failure, failed=failure != "")


def split_share(total: int, k: int, n: int) -> tuple[int, int]:
    """The positions ``(start, end)`` of share ``k`` of ``n`` of a batch of ``total`` robots:
    what ``hooke eval --split k/n`` evaluates (``[k total / n, (k + 1) total / n)``; the
    shares are contiguous, cover every robot once and differ in size by at most one)."""
    return _hooke.split_share_range(total, k, n)


def genome_rows(genomes: Any) -> tuple[npt.NDArray[np.uint16], tuple[int, int, int]]:
    """An ``(n, x, y, z)`` batch of genome arrays as ``(n, x*y*z)`` cell codes, x fastest
    (the compiled module's layout), and the size ``(x, y, z)``."""
    array = np.asarray(genomes)
    if array.ndim != 4 or 0 in array.shape[1:]:
        raise ArgumentError(f"genomes: a batch of genomes is an array of shape (n, x, y, z); got shape {array.shape}")
    if not np.issubdtype(array.dtype, np.integer) or (array.size and (array.min() < 0 or array.max() > 258)):
        raise ArgumentError("genomes: cell codes are integers 0 to 258 (0 empty, 1 soft, 2 stiff, 3 + p a muscle of phase p)")
    n, x, y, z = array.shape
    rows = np.ascontiguousarray(array.transpose(0, 3, 2, 1).reshape(n, x * y * z), dtype=np.uint16)
    return rows, (int(x), int(y), int(z))


def genome_batch(rows: npt.NDArray[np.uint16], size: Sequence[int]) -> GenomeArray:
    """``(n, x*y*z)`` cell codes, x fastest, as the ``(n, x, y, z)`` batch of genome arrays."""
    x, y, z = (int(s) for s in size)
    return np.ascontiguousarray(rows.reshape(len(rows), z, y, x).transpose(0, 3, 2, 1))


def settings_texts(evolution: Mapping[str, Any], evaluation: Optional[Mapping[str, Any]]) -> tuple[str, Optional[str]]:
    """The evolution and evaluation settings as the JSON texts :func:`evolve` parses (the same
    text gives the same parse, so every evaluator of a generation builds the same robots)."""
    return _json(dict(evolution)), None if evaluation is None else _json(dict(evaluation))


class Evaluator(_hooke.Evaluator):
    """A backend opened once for many evaluations: the CPU reference with its threads, or the
    GPU World's device (opened once, not per call). Each call gives the same bits as
    :func:`evaluate` (or a generation of :func:`evolve`) on that backend; a long-lived worker
    (a Ray actor of :mod:`hooke.ray`) keeps one.

    ``Evaluator(backend=None, threads=None)``: ``backend`` ``"cpu"`` (default), ``"gpu"`` or
    ``"auto"``; ``threads`` CPU threads (all cores when ``None``; results do not depend on
    it). ``backend`` and ``adapter`` say what runs."""

    def evaluate(
        self,
        robots: Any,
        evaluation: Optional[Mapping[str, Any]] = None,
        *,
        start: Optional[int] = None,
        end: Optional[int] = None,
        **settings: Any,
    ) -> EvaluationResults:
        """:func:`evaluate` on this evaluator's backend (a population file's
        ``evaluation.backend`` is not read), for the robots at positions ``start`` to ``end``
        (default all) as ``hooke eval --range start..end`` takes them."""
        text, base_dir, _ = population_text(robots, evaluation, settings)
        return self.evaluate_text(text, base_dir, start, end)

    def evaluate_text(self, text: str, base_dir: str, start: Optional[int] = None, end: Optional[int] = None) -> EvaluationResults:
        """The robots ``start..end`` of a population file's ``text`` (scene paths relative to
        ``base_dir``)."""
        return results_of(self.population_share(text, base_dir, start, end))

    def evaluate_genomes(
        self,
        genomes: Any,
        evolution: Optional[Mapping[str, Any]] = None,
        evaluation: Optional[Mapping[str, Any]] = None,
    ) -> EvaluationResults:
        """Evaluates an ``(n, x, y, z)`` batch of genome arrays as a generation of
        :func:`evolve` with the ``evolution`` and ``evaluation`` settings (dicts as
        :func:`evolve` resolves them; ``evaluation`` ``None``: its default) would: the same
        bits. Robots are named ``"robot i"``; a genome with no filled cell is a
        ``"no_robot"`` failure. Its signature is that of :func:`evolve`'s ``evaluate`` hook."""
        rows, size = genome_rows(genomes)
        search, spec = settings_texts(evolution or {}, evaluation)
        return self.evaluate_rows(rows, size, search, spec)

    def evaluate_rows(self, rows: npt.NDArray[np.uint16], size: Sequence[int], evolution: str, evaluation: Optional[str]) -> EvaluationResults:
        """:meth:`evaluate_genomes` on cell codes (``(n, x*y*z)`` uint16, x fastest) and the
        settings as JSON texts."""
        return results_of(self.genome_rows(rows, list(size), evolution, evaluation))


@dataclass(frozen=True)
class GenerationStats:
    """One generation of an evolution, as the callback of :func:`evolve` gets it."""

    generation: int
    """The generation, from 0."""
    best: Optional[float]
    """The best fitness (m for the distance fitness); ``None`` when every robot failed."""
    mean: Optional[float]
    """The mean fitness of the robots that did not fail; ``None`` when all failed."""
    failures: int
    """Robots whose evaluation failed."""
    empty: int
    """Genomes with no filled cell (no robot to evaluate)."""
    wall_time: float
    """Wall time of the generation (evaluation and breeding), s."""
    best_genome: Optional[GenomeArray]
    """The genome array of the best robot; ``None`` when every robot failed."""


@dataclass(frozen=True)
class Champion:
    """The best robot of a whole evolution."""

    genome: GenomeArray
    """Its genome array, ``(x, y, z)`` cell codes."""
    fitness: float
    """Its fitness (m for the distance fitness)."""
    generation: int
    """The first generation it was evaluated in."""


@dataclass(frozen=True)
class History:
    """An evolution's generations as arrays, one row per generation (NaN where every robot of a
    generation failed)."""

    generation: IntArray
    best: FloatArray
    """Best fitness per generation (m for the distance fitness)."""
    mean: FloatArray
    """Mean fitness of the robots that did not fail."""
    failures: IntArray
    empty: IntArray
    wall_time: FloatArray
    """Wall time per generation, s."""
    best_genomes: list[Optional[GenomeArray]]


@dataclass(frozen=True)
class Evolved:
    """What :func:`evolve` gives."""

    champion: Optional[Champion]
    """The fittest robot of every generation (the earliest of equals); ``None`` if all failed."""
    history: History
    backend: str
    """``"cpu"`` or ``"gpu"``: what ran."""
    adapter: Optional[str]
    """The GPU adapter, or ``None`` on the CPU."""


def _stats(raw: Mapping[str, Any]) -> GenerationStats:
    best = raw["best_genome"]
    return _of_raw(GenerationStats, raw, best_genome=None if best is None else genome_array(*best))


def _history(stats: Sequence[GenerationStats]) -> History:
    nan = float("nan")
    return History(
        generation=np.array([s.generation for s in stats], dtype=np.int64),
        best=np.array([nan if s.best is None else s.best for s in stats], dtype=np.float64),
        mean=np.array([nan if s.mean is None else s.mean for s in stats], dtype=np.float64),
        failures=np.array([s.failures for s in stats], dtype=np.int64),
        empty=np.array([s.empty for s in stats], dtype=np.int64),
        wall_time=np.array([s.wall_time for s in stats], dtype=np.float64),
        best_genomes=[s.best_genome for s in stats],
    )


def _settings(settings: Any) -> dict[str, Any]:
    """A settings file (path or dict) as a dict."""
    if settings is None:
        return {}
    if isinstance(settings, (str, os.PathLike)):
        path = Path(settings)
        text = _hooke.read_input_text(path)  # within HOOKE_MAX_INPUT_BYTES, as hooke evolve reads
        try:
            file = dict(json.loads(text))
        except (json.JSONDecodeError, TypeError, ValueError) as e:
            raise ArgumentError(f"cannot read the settings file {path}: {e}") from e
    else:
        file = dict(settings)
    unknown = sorted(set(file) - {"version", "evolution", "evaluation"})
    if unknown:
        raise ArgumentError(f"settings: unknown field {', '.join(map(repr, unknown))} (expected version, evolution, evaluation)")
    if file.get("version", 1) != 1:
        raise ArgumentError(f"settings: version {file['version']!r} is not a settings format this hooke reads (it reads version 1)")
    return file


def _progress(callback: Optional[Callable[[int, GenerationStats], Any]], progress: bool, generations: Optional[int]) -> tuple[Callable[[int, Mapping[str, Any]], None], Callable[[], None]]:
    """The function the Rust loop calls after each generation, and the one closing the bar:
    the user's callback, and with ``progress`` a tqdm bar (a line on stderr per generation when
    tqdm is not installed)."""
    bar: Any = None
    if progress:
        try:  # optional, never a dependency
            bar = importlib.import_module("tqdm.auto").tqdm(total=generations, unit="generation")
        except ImportError:
            bar = None

    def each(generation: int, raw: Mapping[str, Any]) -> None:
        stats = _stats(raw)
        if bar is not None:
            bar.set_postfix(best=stats.best, failed=stats.failures)
            bar.update(1)
        elif progress:
            best = "none" if stats.best is None else f"{stats.best:.4f}"
            print(f"generation {generation}: best {best}, {stats.failures} failed, {stats.wall_time:.2f} s", file=sys.stderr)
        if callback is not None:
            callback(generation, stats)

    def close() -> None:
        if bar is not None:
            bar.close()

    return each, close


#: What :func:`evolve`'s ``evaluate`` hook is: ``evaluate(genomes, evolution, evaluation)``
#: with the generation's ``(n, x, y, z)`` genome arrays (those with a filled cell) and the
#: settings (dicts; ``evaluation`` ``None`` for the default), returning one fitness per genome
#: (NaN for a failed robot) or an :class:`EvaluationResults`.
EvaluateHook = Callable[[GenomeArray, Mapping[str, Any], Optional[Mapping[str, Any]]], Any]


def _hook(evaluate: EvaluateHook, search: Mapping[str, Any], spec: Optional[Mapping[str, Any]], ran: dict[str, Any]) -> Callable[[npt.NDArray[np.uint16], Sequence[int]], FloatArray]:
    """The function the Rust loop calls per generation: ``evaluate`` on the genome arrays,
    its fitness as float64 (the backend and adapter of its results kept in ``ran``)."""

    def call(rows: npt.NDArray[np.uint16], size: Sequence[int]) -> FloatArray:
        out = evaluate(genome_batch(rows, size), search, spec)
        if isinstance(out, EvaluationResults):
            ran["backend"], ran["adapter"] = out.backend, out.adapter
            out = out.fitness
        return np.ascontiguousarray(out, dtype=np.float64)

    return call


def evolve(
    settings: Any = None,
    *,
    evaluation: Optional[Mapping[str, Any]] = None,
    backend: Optional[str] = None,
    threads: Optional[int] = None,
    callback: Optional[Callable[[int, GenerationStats], Any]] = None,
    progress: bool = False,
    evaluate: Optional[EvaluateHook] = None,
    checkpoint: Optional[PathLike] = None,
    resume: bool = False,
    **evolution: Any,
) -> Evolved:
    """Evolves voxel robots with the crate's genetic algorithm, as ``hooke evolve`` does: the
    same settings give the same champion bits on the same backend. Each generation runs with
    the GIL released.

    ``settings``: ``hooke evolve``'s settings file (path or dict: ``{"version": 1, "evolution":
    {...}, "evaluation": {...}}``) or ``None``. Keyword arguments set single evolution fields
    (``population``, ``generations``, ``size``, ``seed``, ``tournament``, ``elites``, ``fill``,
    ``mutation_rate``, ``crossover_rate``); ``evaluation`` replaces the evaluation object
    (default: 2 s along +x at ``dt = 2e-4`` s on ``Params.robots()`` ground).

    ``callback(generation, stats)`` is called after every generation with a
    :class:`GenerationStats`; an exception it raises stops the run and propagates (so does
    Ctrl-C). ``progress=True`` shows a tqdm bar if tqdm is installed, else a line per generation
    on standard error. ``backend`` and ``threads`` as in :func:`evaluate`.

    ``evaluate``: a hook that evaluates each generation instead of this process (see
    :data:`EvaluateHook`; :meth:`Evaluator.evaluate_genomes` and
    :meth:`hooke.ray.Pool.evaluate_genomes` are such hooks). The genetic algorithm and every
    random draw stay here, so a hook that gives the same fitness bits gives the same history
    and champion. ``checkpoint``: a path where the run writes a checkpoint after every generation
    (``hooke evolve``'s format: version and checksum; flushed to the disk before it replaces the
    last one, which is kept as ``<name>.previous.json``; with ``evaluate`` it names this
    process's backend). ``resume=True`` continues from it (or, when it is damaged, from the one
    before it, with a ``RuntimeWarning``) and ends with the champion and history of a run that
    was never stopped, wall times aside; the settings must be the checkpoint's but for
    ``generations``, which may grow. A damaged checkpoint raises :class:`SnapshotError`."""
    file = _settings(settings)
    unknown = sorted(set(evolution) - set(EVOLUTION_FIELDS))
    if unknown:
        raise ArgumentError(f"{', '.join(unknown)}: not an evolution setting (expected one of {', '.join(EVOLUTION_FIELDS)})")
    search = dict(file.get("evolution") or {})
    search.update(evolution)
    spec = evaluation if evaluation is not None else file.get("evaluation")
    generations = search.get("generations", 10)  # checked by hooke; only the bar's length here
    each, close = _progress(callback, progress, generations if isinstance(generations, int) else None)
    ran: dict[str, Any] = {"backend": None, "adapter": None}
    hook = None if evaluate is None else _hook(evaluate, search, None if spec is None else dict(spec), ran)
    if resume and checkpoint is None:
        raise ArgumentError("resume=True needs the checkpoint file to resume from (checkpoint=...)")
    try:
        search_text, spec_text = settings_texts(search, spec)
        raw = _hooke.evolve_population(
            search_text,
            spec_text,
            backend if evaluate is None else "cpu",
            threads,
            each,
            hook,
            None if checkpoint is None else os.fspath(checkpoint),
            resume,
        )
    finally:
        close()
    stats = [_stats(s) for s in raw["history"]]
    c = raw["champion"]
    champion = None if c is None else Champion(genome_array(c["genome"], c["size"]), c["fitness"], c["generation"])
    backend_ran = raw["backend"] if evaluate is None else ran["backend"]
    adapter_ran = raw["adapter"] if evaluate is None else ran["adapter"]
    return Evolved(champion=champion, history=_history(stats), backend=backend_ran or "", adapter=adapter_ran)
