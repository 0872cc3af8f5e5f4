"""hooke.ray on a real two-node Ray cluster (a head and a second node on 127.0.0.1, started by
Ray's own `ray.cluster_utils.Cluster`, one logical CPU and a small object store each): actors
on both nodes, the bits of one process and of `hooke eval --split`, the same evolution on 1, 2
and 3 workers and with shuffled shares, lost workers replaced and their shares rerun, a driver
resumed from its checkpoint."""

from __future__ import annotations

import json
import os
import random
import signal
import threading
import time
from pathlib import Path
from typing import Any, Iterator

import numpy as np
import pytest

import hooke
from cli import run_cli
from test_evaluator import four_generations, history_text, interrupt_after_generation_1
from test_population import UNSTABLE, bits, population_file

# Every address of the test cluster on loopback: by default Ray advertises the machine's outward
# address even for a head started on 127.0.0.1 (`resolve_ip_for_localhost`); with its
# single-machine setting it keeps 127.0.0.1. Read when Ray is imported.
os.environ["RAY_ENABLE_WINDOWS_OR_OSX_CLUSTER"] = "0"

if os.environ.get("CI"):  # CI installs Ray: there its absence is a failure, not a skip
    import ray
else:
    ray = pytest.importorskip("ray")
import hooke.ray  # noqa: E402 (after the check above)
from ray.cluster_utils import Cluster  # noqa: E402

# Every wait of these tests is bounded by this, s (a loaded 2-core machine starts a Ray node in
# a few seconds; nothing here should take a tenth of it).
TIMEOUT = 120.0

# The evolution of the determinism tests: 9 robots of 2 x 2 x 2 voxels, 3 generations of
# 0.1 s at dt = 1 ms.
EVOLUTION: dict[str, Any] = {
    "version": 1,
    "evolution": {"population": 9, "generations": 3, "size": [2, 2, 2], "seed": 11, "elites": 1},
    "evaluation": {"duration": 0.1, "params": {"dt": 0.001, "friction": {"static_coefficient": 1.0, "kinetic_coefficient": 0.8}}},
}


@pytest.fixture(scope="module")
def cluster() -> Iterator[Cluster]:
    """A head node and a second node, both on this machine's loopback, each with one logical
    CPU and a 80 MiB object store; the driver connected to the head. Stopped at the end."""
    small: dict[str, Any] = {"num_cpus": 1, "object_store_memory": 80 * 1024**2, "node_ip_address": "127.0.0.1"}
    c = Cluster(initialize_head=True, head_node_args={**small, "include_dashboard": False})
    try:
        c.add_node(**small)
        c.wait_for_nodes(timeout=TIMEOUT)
        ray.init(address=c.address, log_to_driver=False)
        yield c
    finally:
        ray.shutdown()
        c.shutdown()  # type: ignore[no-untyped-call]


# Each actor asks Ray for a quarter of a logical CPU, so the pools of these tests fit on the two
# one-CPU nodes together (at most six actors at once); each runs one CPU thread.
SMALL = {"num_cpus": 0.25}


@pytest.fixture(scope="module")
def pool(cluster: Cluster) -> Iterator[hooke.ray.Pool]:
    """Two actors, spread over the two nodes."""
    with hooke.ray.Pool(2, timeout=TIMEOUT, actor_options=SMALL) as p:
        yield p


def alive_nodes() -> set[str]:
    return {n["NodeID"] for n in ray.nodes() if n["Alive"]}  # type: ignore[no-untyped-call]


def test_actors_are_placed_on_both_nodes(pool: hooke.ray.Pool) -> None:
    placed = pool.placements()
    nodes = alive_nodes()
    assert len(nodes) == 2
    assert {p.node_id for p in placed} == nodes
    assert len({p.pid for p in placed}) == 2 and all(p.backend == "cpu" for p in placed)


def test_shares_are_those_of_hooke_eval_split(tmp_path: Path) -> None:
    path = population_file(tmp_path)
    for n in (2, 3):
        for k, (a, b) in enumerate(hooke.ray.shares(8, n)):
            out = tmp_path / f"share_{k}_{n}.json"
            run_cli("eval", str(path), "--split", f"{k}/{n}", "--backend", "cpu", "--out", str(out))
            assert json.loads(out.read_text())["share"] == [a, b]


def test_each_robot_has_the_bits_of_one_process_and_of_hooke_eval(tmp_path: Path, pool: hooke.ray.Pool) -> None:
    path = population_file(tmp_path)  # with a robot that builds nothing and one that blows up
    outs = []
    for k in range(3):
        outs.append(str(tmp_path / f"share_{k}.json"))
        run_cli("eval", str(path), "--split", f"{k}/3", "--backend", "cpu", "--out", outs[-1])
    run_cli("merge", *outs, "--out", str(tmp_path / "merged.json"))
    cli = json.loads((tmp_path / "merged.json").read_text())["results"]
    one = hooke.evaluate(path, backend="cpu")
    got = pool.evaluate(path, shares=3)
    assert got.ids == one.ids == [r["id"] for r in cli]
    assert bits(got.fitness) == bits(one.fitness)
    assert bits(got.fitness) == bits(np.array([np.nan if r["fitness"] is None else r["fitness"] for r in cli]))
    assert list(got.failure) == list(one.failure) and got.messages == [r["failure"] for r in cli]
    assert got.failure[2] == "no_robot" and got.failure[7] in ("blow_up", "non_finite")  # rows, not lost shares
    assert bits(got.end.ravel()) == bits(one.end.ravel())


def history_file(evolved: hooke.Evolved, path: Path) -> bytes:
    path.write_text(history_text(evolved))
    return path.read_bytes()


def test_an_evolution_is_the_same_on_1_2_3_workers_and_shuffled_shares(tmp_path: Path, pool: hooke.ray.Pool, monkeypatch: pytest.MonkeyPatch) -> None:
    one = history_file(hooke.evolve(EVOLUTION), tmp_path / "one_process.txt")
    assert len(one.splitlines()) == 4
    runs = {"2 workers": history_file(hooke.ray.evolve(EVOLUTION, pool=pool), tmp_path / "two.txt")}
    with hooke.ray.Pool(1, timeout=TIMEOUT, actor_options=SMALL) as p1, hooke.ray.Pool(3, timeout=TIMEOUT, actor_options=SMALL) as p3:
        runs["1 worker"] = history_file(hooke.ray.evolve(EVOLUTION, pool=p1), tmp_path / "one.txt")
        runs["3 workers"] = history_file(hooke.ray.evolve(EVOLUTION, pool=p3), tmp_path / "three.txt")
        shuffled = random.Random(3)
        monkeypatch.setattr(p3, "_order", lambda n: shuffled.sample(range(n), n))
        runs["3 workers, 7 shuffled shares"] = history_file(hooke.ray.evolve(EVOLUTION, pool=p3, shares=7), tmp_path / "shuffled.txt")
    for name, text in runs.items():
        assert text == one, name


def slow_population(n: int = 8) -> dict[str, Any]:
    """`n` full 4 x 4 x 3 voxel robots for 16 s at dt = 0.25 ms (64 000 steps: about a second
    per robot on one thread of a loaded 2-core machine, so a worker can be killed while its
    share runs), and one that blows up."""
    rng = np.random.default_rng(4)
    robots: list[dict[str, Any]] = [{"id": f"r{i}", "genome": hooke.genome_cells(rng.integers(1, 7, size=(4, 4, 3)))} for i in range(n)]
    robots.insert(3, {"id": "unstable", "scene": UNSTABLE})
    evaluation = {"duration": 16.0, "params": {"dt": 0.00025, "friction": {"static_coefficient": 1.0, "kinetic_coefficient": 0.8}}}
    return {"version": 1, "evaluation": evaluation, "robots": robots}


@pytest.fixture(scope="module")
def undisturbed() -> hooke.EvaluationResults:
    """`slow_population` evaluated in this process."""
    return hooke.evaluate(slow_population(), backend="cpu")


@pytest.mark.parametrize("how", ["ray.kill", "SIGKILL"])
def test_a_worker_lost_mid_generation_is_replaced_and_its_share_rerun(cluster: Cluster, undisturbed: hooke.EvaluationResults, how: str) -> None:
    population = slow_population()
    with hooke.ray.Pool(2, timeout=TIMEOUT, actor_options=SMALL) as p:
        victim = p.actors[1]
        pid = p.placements()[1].pid
        result: dict[str, Any] = {}
        run = threading.Thread(target=lambda: result.update(r=p.evaluate(population)))
        run.start()
        time.sleep(0.5)  # both shares running (each takes seconds)
        if how == "ray.kill":
            ray.kill(victim)
        else:
            os.kill(pid, signal.SIGKILL)
        run.join(TIMEOUT)
        assert not run.is_alive(), f"no result within {TIMEOUT} s"
        assert p.replaced == 1 and p.actors[1] is not victim
        assert p.placements()[1].pid != pid
    got = result["r"]
    assert got.ids == undisturbed.ids and list(got.failure) == list(undisturbed.failure)
    assert bits(got.fitness) == bits(undisturbed.fitness)
    assert got.failure[3] in ("blow_up", "non_finite")


def test_a_driver_stopped_between_generations_resumes_with_the_same_champion(tmp_path: Path, pool: hooke.ray.Pool) -> None:
    settings = four_generations(EVOLUTION)
    checkpoint = tmp_path / "driver.ckpt"
    undisturbed = hooke.evolve(settings)
    with pytest.raises(KeyboardInterrupt):  # the driver's Ctrl-C, between generations
        hooke.ray.evolve(settings, pool=pool, checkpoint=checkpoint, callback=interrupt_after_generation_1)
    assert json.loads(checkpoint.read_text())["state"]["generation"] == 2
    resumed = hooke.ray.evolve(settings, pool=pool, checkpoint=checkpoint, resume=True)
    assert resumed.champion is not None and undisturbed.champion is not None
    assert history_text(resumed) == history_text(undisturbed)
