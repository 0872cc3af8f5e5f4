#!/usr/bin/env python3
"""Evaluates a population file over a running Ray cluster, one Ray task per share.

    RAY_ADDRESS=HOST:PORT python scripts/slurm/ray_driver.py POPULATION.json SHARES \\
        [--nodes N] [--out RESULTS.json] [--expect RESULTS.json]

The robots are cut into SHARES contiguous shares exactly as `hooke eval --split K/SHARES`
cuts them; each share is one Ray task that calls `hooke.evaluate` on the CPU reference, share
k asked for on node k mod the node count, and the results come back in input order. `--nodes`
checks that the cluster has N nodes and that the tasks ran on min(N, SHARES) of them. `--out`
writes them in the form of `hooke eval`'s results.json (index, id, fitness, failure);
`--expect` compares them with a results.json of `hooke eval` over the whole population, robot
by robot: the same ids in the same order and the same fitness bits, or exit status 1. scripts/slurm/ray.sbatch runs it inside a Slurm
allocation; the Slurm test (scripts/slurm/test_local_cluster.sh) runs it on a two-node cluster
on one host.
"""

import argparse
import json
import os
import sys

import ray
from ray.util.scheduling_strategies import NodeAffinitySchedulingStrategy

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from same_results import differences  # noqa: E402 (the folder is on the path only now)


@ray.remote(num_cpus=1)
def evaluate_share(population, begin, end):
    """Robots begin..end of `population` (a population file's object) evaluated with
    `hooke.evaluate` on one CPU thread: (results rows, the Ray node that ran them)."""
    import hooke

    share = dict(population, robots=population["robots"][begin:end])
    results = hooke.evaluate(share, backend="cpu", threads=1)
    rows = [
        {
            "index": begin + i,
            "id": results.ids[i],
            "fitness": None if results.failed[i] else float(results.fitness[i]),
            "failure": results.messages[i],
        }
        for i in range(len(results))
    ]
    return rows, ray.get_runtime_context().get_node_id()


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("population", help="a population file (hooke eval's POPULATION.json)")
    parser.add_argument("shares", type=int, help="Ray tasks, one per contiguous share")
    parser.add_argument("--nodes", type=int, help="the Ray nodes the cluster must have")
    parser.add_argument("--out", help="write the results here (results.json form)")
    parser.add_argument("--expect", help="a results.json of hooke eval to compare bits with")
    args = parser.parse_args()
    with open(args.population, encoding="utf-8") as f:
        population = json.load(f)
    n, total = args.shares, len(population["robots"])
    if n < 1:
        sys.exit(f"SHARES must be at least 1, not {n}")

    ray.init()  # RAY_ADDRESS, set by ray.sbatch
    nodes = [node["NodeID"] for node in ray.nodes() if node["Alive"]]
    print(f"ray_driver: {len(nodes)} Ray node(s)")
    if args.nodes is not None and len(nodes) != args.nodes:
        sys.exit(f"ray_driver: {len(nodes)} Ray nodes, expected {args.nodes}")
    ref = ray.put(population)
    # Share k is [k total / n, (k + 1) total / n), as `hooke eval --split k/n`, asked for on
    # node k mod the node count (soft: another node takes it if that one cannot).
    tasks = [
        evaluate_share.options(
            scheduling_strategy=NodeAffinitySchedulingStrategy(nodes[k % len(nodes)], soft=True)
        ).remote(ref, k * total // n, (k + 1) * total // n)
        for k in range(n)
    ]
    done = ray.get(tasks, timeout=600)
    ray.shutdown()
    rows = [row for share, _ in done for row in share]
    used = {node for _, node in done}
    print(f"ray_driver: {total} robots in {n} shares on {len(used)} Ray node(s)")
    if args.nodes is not None and len(used) != min(args.nodes, n):
        sys.exit(f"ray_driver: the shares ran on {len(used)} nodes, not {min(args.nodes, n)}")
    results = {"backend": "cpu", "results": rows}
    if args.out:
        with open(args.out, "w", encoding="utf-8") as f:
            json.dump(results, f, indent=2)
    if args.expect:
        with open(args.expect, encoding="utf-8") as f:
            found = differences(json.load(f), results)
        if found:
            sys.exit("ray_driver: differs from " + args.expect + ":\n  " + "\n  ".join(found))
        print(f"ray_driver: the same ids, order and fitness bits as {args.expect}")


if __name__ == "__main__":
    main()
