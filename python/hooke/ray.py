"""Populations on a Ray cluster: :class:`Pool` keeps one evaluation actor per worker process
(or per GPU) with its backend opened once, cuts each batch into contiguous shares exactly as
``hooke eval --split K/N`` does, and returns the results in input order, each robot's fitness
the same bits as :func:`hooke.evaluate` in one process on the same backend and adapter.
:func:`evolve` is :func:`hooke.evolve` with only the evaluation on the cluster: the genetic
algorithm and its random draws stay on the driver, so the champion and history do not depend
on the number of workers.

A worker lost mid-batch (its actor killed, its process or node gone) is replaced and its
share run again; a robot that blows up is a row of the results with its failure, never a lost
share. Needs Ray (``pip install ray``); ``import hooke`` works without it.

    import ray, hooke, hooke.ray
    ray.init()                                   # or ray.init(address="auto") on a cluster
    with hooke.ray.Pool(workers=8) as pool:
        r = pool.evaluate("population.json")     # hooke.EvaluationResults, input order
        evolved = hooke.ray.evolve("settings.json", pool=pool, checkpoint="run.ckpt")
"""

from __future__ import annotations

import collections
import os
from dataclasses import dataclass
from typing import Any, Callable, Mapping, Optional, Sequence

import numpy as np
import numpy.typing as npt

from ._errors import ArgumentError
from ._population import (
    EvaluationResults,
    Evaluator,
    Evolved,
    GenerationStats,
    PathLike,
    evolve as _evolve,
    genome_rows,
    population_text,
    settings_texts,
    split_share,
)

try:
    import ray
    from ray.exceptions import GetTimeoutError, NodeDiedError, ObjectLostError, RayActorError, WorkerCrashedError
except ImportError as _missing:  # pragma: no cover - what a user without Ray sees
    raise ImportError("hooke.ray needs Ray, which is not installed: pip install ray (or pip install 'hooke[ray]')") from _missing

__all__ = ["Pool", "Placement", "evolve", "shares"]

#: What a lost worker raises on the driver: its actor died (killed, its process or node gone),
#: or its node died and took the share's result with it.
_LOST = (RayActorError, WorkerCrashedError, NodeDiedError, ObjectLostError)


def shares(total: int, n: int) -> list[tuple[int, int]]:
    """The ``n`` contiguous shares of a batch of ``total`` robots as ``(start, end)`` position
    ranges: share ``k`` is what ``hooke eval --split k/n`` evaluates (the crate's
    ``split_share``; sizes differ by at most one, a share may be empty)."""
    if n < 1:
        raise ArgumentError(f"shares: {n} shares; at least 1")
    return [split_share(total, k, n) for k in range(n)]


@dataclass(frozen=True)
class Placement:
    """Where one actor of a :class:`Pool` runs."""

    node_id: str
    """The Ray node it was placed on (``ray.get_runtime_context().get_node_id()``)."""
    pid: int
    """Its worker process."""
    backend: str
    """``"cpu"`` or ``"gpu"``: what it runs."""
    adapter: Optional[str]
    """Its GPU adapter, or ``None`` on the CPU."""


class _EvaluationActor:
    """One worker: a :class:`hooke.Evaluator` opened when the actor starts and kept for every
    call (on the GPU its device)."""

    def __init__(self, backend: Optional[str], threads: Optional[int]) -> None:
        self._evaluator = Evaluator(backend, threads)

    def placement(self) -> Placement:
        node = ray.get_runtime_context().get_node_id()
        return Placement(node, os.getpid(), self._evaluator.backend, self._evaluator.adapter)

    def evaluate_text(self, text: str, base_dir: str, start: int, end: int) -> EvaluationResults:
        return self._evaluator.evaluate_text(text, base_dir, start, end)

    def evaluate_rows(self, rows: npt.NDArray[np.uint16], size: Sequence[int], evolution: str, evaluation: Optional[str]) -> EvaluationResults:
        return self._evaluator.evaluate_rows(rows, size, evolution, evaluation)


def _merge(parts: Sequence[EvaluationResults], ids: Optional[list[str]] = None) -> EvaluationResults:
    """Results of consecutive shares as one, in order; every share from the same backend."""
    backends = sorted({p.backend for p in parts})
    if len(backends) > 1:
        raise RuntimeError(f"the shares ran on different backends ({', '.join(backends)}): their fitness bits are not one evaluation's; give the Pool one backend")
    adapters = list(dict.fromkeys(p.adapter for p in parts if p.adapter is not None))
    cat = np.concatenate
    return EvaluationResults(
        ids=ids if ids is not None else [i for p in parts for i in p.ids],
        fitness=cat([p.fitness for p in parts]),
        failed=cat([p.failed for p in parts]),
        failure=cat([p.failure for p in parts]),
        messages=[m for p in parts for m in p.messages],
        failure_step=cat([p.failure_step for p in parts]),
        failure_time=cat([p.failure_time for p in parts]),
        failure_mass=cat([p.failure_mass for p in parts]),
        start=cat([p.start.reshape(-1, 3) for p in parts]),
        end=cat([p.end.reshape(-1, 3) for p in parts]),
        backend=backends[0],
        adapter=" | ".join(adapters) if adapters else None,
    )


class Pool:
    """Evaluation actors on a Ray cluster, each with its backend opened once.

    ``workers``: actors (default: one per GPU of the cluster for ``backend="gpu"``, else one
    per ``threads`` CPUs); ``backend``: ``"cpu"`` (default), ``"gpu"`` (each actor asks Ray
    for ``num_gpus=1``) or ``"auto"``; ``threads``: CPU threads per actor (and the CPUs it
    asks Ray for; results do not depend on it). Actors are spread over the nodes
    (``scheduling_strategy="SPREAD"``). ``retries``: how often one share is run again after
    its worker was lost before the call fails; ``timeout``: the longest wait, s, for any one
    share (or actor start) before :class:`TimeoutError`. Needs ``ray.init()`` first (or Ray's
    automatic start).

    Fitness bits are those of one process on the same backend and adapter: on a cluster
    whose nodes have different GPUs (or some none), give one backend and one kind of adapter
    (``backend="cpu"`` is the same bits everywhere)."""

    def __init__(
        self,
        workers: Optional[int] = None,
        *,
        backend: str = "cpu",
        threads: int = 1,
        retries: int = 3,
        timeout: float = 600.0,
        actor_options: Optional[Mapping[str, Any]] = None,
    ) -> None:
        if threads < 1:
            raise ArgumentError(f"threads: {threads}; at least 1")
        if retries < 0 or not timeout > 0:
            raise ArgumentError(f"retries {retries} must be >= 0 and timeout {timeout} s > 0")
        self.backend, self.threads, self.retries, self.timeout = backend, threads, retries, timeout
        gpus = backend == "gpu"
        options: dict[str, Any] = {"num_cpus": threads, "num_gpus": 1 if gpus else 0, "max_restarts": 0, "scheduling_strategy": "SPREAD"}
        options.update(actor_options or {})
        self._remote = ray.remote(_EvaluationActor).options(**options)
        if workers is None:
            resources = ray.cluster_resources()  # type: ignore[no-untyped-call]
            workers = int(resources.get("GPU", 0)) if gpus else int(resources.get("CPU", 1) // threads)
        if workers < 1:
            raise ArgumentError(f"workers: {workers}; at least 1 (the cluster offers no room for an actor of {threads} CPUs{' and 1 GPU' if gpus else ''}?)")
        self.replaced = 0
        """How many actors were replaced after their worker was lost."""
        self._actors: list[Any] = [self._start() for _ in range(workers)]
        self._wait([a.placement.remote() for a in self._actors], "the actors to start")

    def _start(self) -> Any:
        return self._remote.remote(self.backend, self.threads)

    @property
    def workers(self) -> int:
        """The number of actors."""
        return len(self._actors)

    @property
    def actors(self) -> list[Any]:
        """The actor handles, in order (one may be replaced by a new one after a loss)."""
        return list(self._actors)

    def placements(self) -> list[Placement]:
        """Where each actor runs: node, process, backend, adapter."""
        return self._wait([a.placement.remote() for a in self._actors], "the actors' placements")

    def close(self) -> None:
        """Stops the actors."""
        for a in self._actors:
            ray.kill(a)
        self._actors = []

    def __enter__(self) -> Pool:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def _wait(self, refs: list[Any], what: str) -> list[Any]:
        try:
            return list(ray.get(refs, timeout=self.timeout))
        except GetTimeoutError as e:
            raise TimeoutError(f"waited {self.timeout} s for {what}") from e

    def evaluate(
        self,
        robots: Any,
        evaluation: Optional[Mapping[str, Any]] = None,
        *,
        shares: Optional[int] = None,
        **settings: Any,
    ) -> EvaluationResults:
        """:func:`hooke.evaluate` over the cluster: the robots (every form :func:`hooke.evaluate`
        takes) cut into ``shares`` contiguous shares (default: one per worker) as ``hooke
        eval --split`` cuts them, the population's text put in Ray's object store once,
        the results back in input order. Scene paths are read on the workers, relative to
        the population file's folder: on several machines they need a shared file system
        (or give the scenes inline)."""
        text, base_dir, total = population_text(robots, evaluation, settings)
        ref = ray.put(text)
        cut = self._cut(total, shares)
        parts = self._run(cut, lambda actor, a, b: actor.evaluate_text.remote(ref, base_dir, a, b))
        return _merge(parts)

    def evaluate_genomes(
        self,
        genomes: Any,
        evolution: Optional[Mapping[str, Any]] = None,
        evaluation: Optional[Mapping[str, Any]] = None,
        *,
        shares: Optional[int] = None,
    ) -> EvaluationResults:
        """:meth:`hooke.Evaluator.evaluate_genomes` over the cluster (the same bits): an
        ``(n, x, y, z)`` batch of genome arrays cut into contiguous shares. It is an
        ``evaluate`` hook of :func:`hooke.evolve`."""
        rows, size = genome_rows(genomes)
        search, spec = settings_texts(evolution or {}, evaluation)
        cut = self._cut(len(rows), shares)
        parts = self._run(cut, lambda actor, a, b: actor.evaluate_rows.remote(rows[a:b], size, search, spec))
        return _merge(parts, ids=[f"robot {i}" for i in range(len(rows))])

    def _cut(self, total: int, n: Optional[int]) -> list[tuple[int, int]]:
        if not self._actors:
            raise RuntimeError("the pool is closed")
        return shares(total, self.workers if n is None else n)

    def _order(self, n: int) -> list[int]:
        """The order shares are handed out in (results do not depend on it)."""
        return list(range(n))

    def _run(self, cut: list[tuple[int, int]], submit: Callable[[Any, int, int], Any]) -> list[EvaluationResults]:
        """Runs every share of ``cut`` (``submit(actor, start, end)`` starts one), each on the
        next free actor; a share whose actor was lost goes to a new actor."""
        out: list[Optional[EvaluationResults]] = [None] * len(cut)
        queue = collections.deque(self._order(len(cut)))
        free = collections.deque(range(len(self._actors)))
        pending: dict[Any, tuple[int, int]] = {}
        lost = [0] * len(cut)
        while queue or pending:
            while queue and free:
                k, a = queue.popleft(), free.popleft()
                pending[submit(self._actors[a], *cut[k])] = (k, a)
            ready, _ = ray.wait(list(pending), num_returns=1, timeout=self.timeout)
            if not ready:
                raise TimeoutError(f"no share of {len(cut)} finished within {self.timeout} s")
            k, a = pending.pop(ready[0])
            try:
                out[k] = ray.get(ready[0])
            except _LOST as e:
                lost[k] += 1
                if lost[k] > self.retries:
                    raise RuntimeError(f"share {k} of {len(cut)} lost its worker {lost[k]} times") from e
                self._replace(a)
                queue.appendleft(k)
            free.append(a)
        return [r for r in out if r is not None]

    def _replace(self, a: int) -> None:
        """A new actor in place of actor ``a``, whose worker was lost."""
        ray.kill(self._actors[a])
        self._actors[a] = self._start()
        self.replaced += 1


def evolve(
    settings: Any = None,
    *,
    pool: Pool,
    evaluation: Optional[Mapping[str, Any]] = None,
    callback: Optional[Callable[[int, GenerationStats], Any]] = None,
    progress: bool = False,
    checkpoint: Optional[PathLike] = None,
    resume: bool = False,
    shares: Optional[int] = None,
    **evolution: Any,
) -> Evolved:
    """:func:`hooke.evolve` with every generation evaluated on ``pool`` (in ``shares``
    contiguous shares, default one per worker): the genetic algorithm, its random draws and
    the checkpoint stay on the driver, so the same settings give the same champion and history
    on any number of workers, and as :func:`hooke.evolve` in one process on the pool's
    backend. ``checkpoint``/``resume`` as in :func:`hooke.evolve`: a driver stopped between
    generations continues from its last checkpoint with the same final champion."""

    def evaluate(genomes: Any, search: Mapping[str, Any], spec: Optional[Mapping[str, Any]]) -> EvaluationResults:
        return pool.evaluate_genomes(genomes, search, spec, shares=shares)

    return _evolve(settings, evaluation=evaluation, callback=callback, progress=progress, evaluate=evaluate, checkpoint=checkpoint, resume=resume, **evolution)
