"""Robot evaluations per second of hooke.ray against the number of workers, and its overheads:
actor start, one share's round trip (serialisation, scheduling, results back) and one
generation's, on a two-node Ray cluster started on this machine (a head and a second node on
127.0.0.1, one CPU each, as the tests start it).

    python python/benchmarks/ray_scaling.py [ROBOTS]

The batch: ROBOTS (default 48) random 4 x 4 x 3 voxel genomes, evaluated as a generation of
``hooke.evolve`` with its default evaluation (2 s at dt = 2e-4 s on the robots' ground: 10 000
steps), the CPU reference with one thread per worker. Rates count robot evaluations / wall s.
"""

from __future__ import annotations

import os
import sys
import time
from typing import Any, Callable

# The cluster's addresses on loopback (see python/tests/test_ray.py); read when Ray is imported.
os.environ["RAY_ENABLE_WINDOWS_OR_OSX_CLUSTER"] = "0"

import numpy as np  # noqa: E402
import ray  # noqa: E402
from ray.cluster_utils import Cluster  # noqa: E402

import hooke  # noqa: E402
import hooke.ray  # noqa: E402


def timed(work: Callable[[], Any], repeat: int = 3) -> float:
    """The shortest wall time of ``repeat`` runs of ``work``, s."""
    best = float("inf")
    for _ in range(repeat):
        start = time.perf_counter()
        work()
        best = min(best, time.perf_counter() - start)
    return best


def main() -> None:
    robots = int(sys.argv[1]) if len(sys.argv) > 1 else 48
    evolution: dict[str, Any] = {"population": robots, "size": [4, 4, 3]}
    evaluation = None  # hooke.evolve's default
    batch = np.random.default_rng(0).integers(0, 7, size=(robots, 4, 4, 3))
    tiny_eval = {"duration": 2e-4, "params": {"dt": 2e-4}}  # one step

    one = hooke.Evaluator("cpu", threads=1)
    local = timed(lambda: one.evaluate_genomes(batch, evolution, evaluation))
    print(f"one process, 1 thread: {robots / local:.1f} robot evaluations/s ({local:.2f} s a batch)")
    tiny = np.repeat(batch[:1], robots, axis=0)

    node: dict[str, Any] = {"num_cpus": 1, "object_store_memory": 80 * 1024**2, "node_ip_address": "127.0.0.1"}
    cluster = Cluster(initialize_head=True, head_node_args={**node, "include_dashboard": False})
    cluster.add_node(**node)
    cluster.wait_for_nodes(timeout=120)
    ray.init(address=cluster.address, log_to_driver=False)
    try:
        for workers in (1, 2):
            start = time.perf_counter()
            pool = hooke.ray.Pool(workers, timeout=600)
            started = time.perf_counter() - start
            wall = timed(lambda: pool.evaluate_genomes(batch, evolution, evaluation))
            trip = timed(lambda: pool.evaluate_genomes(tiny[:1], evolution, tiny_eval, shares=1), 10)
            overhead = timed(lambda: pool.evaluate_genomes(tiny, evolution, tiny_eval), 10)
            print(
                f"{workers} worker(s): {robots / wall:.1f} robot evaluations/s ({wall:.2f} s a batch, "
                f"speed-up {local / wall:.2f}); actor start {started:.2f} s; one share's round trip "
                f"(1 robot, 1 step) {trip * 1e3:.1f} ms; a generation of {robots} one-step robots "
                f"in {workers} shares {overhead * 1e3:.1f} ms"
            )
            pool.close()
        rows, size = hooke._population.genome_rows(batch)
        put = timed(lambda: ray.put(rows), 5)
        print(f"ray.put of the batch's genomes ({rows.nbytes} bytes): {put * 1e3:.2f} ms")
    finally:
        ray.shutdown()
        cluster.shutdown()  # type: ignore[no-untyped-call]


if __name__ == "__main__":
    main()
