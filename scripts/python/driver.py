#!/usr/bin/env python3
"""Drive `hooke eval` from Python: write POPULATION.json, run the evaluator, read results.json.

Standard library only. The pattern a search loop (a genetic algorithm, CMA-ES, novelty search)
written in Python uses to score robots with hooke:

    results = evaluate(robots, evaluation, workers=2)
    fitness = [r["fitness"] for r in results]   # None for a robot that failed

`robots` is a list of {"id": ..., "genome": {...}} (or {"id": ..., "scene": ...}) and
`evaluation` the settings object of POPULATION.json (`hooke eval --help` lists both formats).
With workers > 1 the batch is split into that many shares (`--split K/N`), evaluated by
parallel `hooke eval` processes, and merged back in input order: the fitness values are the
same bits as one process over the whole batch. On a cluster, the same shares become the tasks
of a Slurm job array (scripts/slurm/evaluate.sbatch) or of a Ray / Kubernetes job.

Run it as a script for a small demonstration: random voxel genomes, evaluated on the CPU:

    python3 scripts/python/driver.py --hooke target/release/hooke --robots 8 --workers 2
"""

import argparse
import json
import os
import random
import subprocess
import sys
import tempfile
from concurrent.futures import ThreadPoolExecutor


class EvalError(RuntimeError):
    """`hooke eval` refused the input (its message names the robot and the field)."""


def run_hooke(hooke, args):
    """Runs `hooke ARGS`; raises EvalError with hooke's message when it exits non-zero."""
    done = subprocess.run([hooke, *args], capture_output=True, text=True, check=False)
    if done.returncode != 0:
        raise EvalError(f"{hooke} {' '.join(args)} failed:\n{done.stderr.strip()}")
    return done


def evaluate(robots, evaluation, workers=1, hooke="hooke", backend="auto", folder=None):
    """Evaluates `robots` with `evaluation`; returns results.json's entries in input order.

    Each entry is a dict: index, id, fitness (float or None), failure (str or None),
    wall_time_s. A robot that blows up is an entry with a failure, not an exception; an
    EvalError means the input itself is wrong.
    """
    with tempfile.TemporaryDirectory(dir=folder) as tmp:
        population = os.path.join(tmp, "population.json")
        with open(population, "w", encoding="utf-8") as f:
            json.dump({"version": 1, "evaluation": evaluation, "robots": robots}, f)
        shares = max(1, min(workers, len(robots)))
        # The processes share the cores (results do not depend on the thread count).
        threads = max(1, (os.cpu_count() or 1) // shares)

        def share(k):
            out = os.path.join(tmp, f"share_{k}.json")
            run_hooke(hooke, ["eval", population, "--split", f"{k}/{shares}",
                              "--backend", backend, "--threads", str(threads), "--out", out])
            return out

        with ThreadPoolExecutor(max_workers=shares) as pool:
            outs = list(pool.map(share, range(shares)))
        merged = os.path.join(tmp, "results.json")
        run_hooke(hooke, ["merge", *outs, "--out", merged])
        with open(merged, encoding="utf-8") as f:
            return json.load(f)["results"]


def random_genome(rng, size=(3, 3, 2), fill=0.7, phases=4):
    """A random voxel genome as POPULATION.json holds it (`hooke::population::VoxelGenome`)."""
    cells = []
    for _ in range(size[0] * size[1] * size[2]):
        if rng.random() > fill:
            cells.append("empty")
        else:
            kind = rng.choice(["soft", "stiff", "muscle"])
            cells.append({"muscle": {"phase": rng.randrange(phases)}} if kind == "muscle" else kind)
    return {"size": list(size), "cells": cells}


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--hooke", default="hooke", help="the hooke binary")
    parser.add_argument("--robots", type=int, default=8, help="robots to evaluate")
    parser.add_argument("--workers", type=int, default=2, help="parallel hooke processes")
    parser.add_argument("--backend", default="cpu", choices=["auto", "gpu", "cpu"])
    parser.add_argument("--duration", type=float, default=2.0, help="simulated s per robot")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    rng = random.Random(args.seed)
    robots = [{"id": f"r{i}", "genome": random_genome(rng)} for i in range(args.robots)]
    evaluation = {
        "duration": args.duration,  # s
        # The robots preset's friction, also what an evaluation that leaves it out gets:
        # written out to show where ground settings go.
        "params": {"friction": {"static_coefficient": 1.0, "kinetic_coefficient": 0.8}},
        "fitness": {"distance": {"direction": [1, 0, 0]}},  # m along +x
    }
    try:
        results = evaluate(robots, evaluation, args.workers, args.hooke, args.backend)
    except EvalError as e:
        sys.exit(str(e))
    for r in results:
        shown = "-" if r["fitness"] is None else f"{r['fitness'] * 1000:+.2f} mm"
        print(f"{r['id']:>6} {shown:>12}  {r['failure'] or ''}")


if __name__ == "__main__":
    main()
