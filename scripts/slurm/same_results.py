#!/usr/bin/env python3
"""Checks that two results.json files (`hooke eval` / `hooke merge`) agree bit for bit.

    python3 scripts/slurm/same_results.py EXPECTED.json ACTUAL.json

Compares, robot by robot in order, the id, the fitness as its 64 bits (JSON holds the
shortest decimal that reads back as the same double, so parsing it gives the exact bits) and
the failure; the backend too. Wall times differ from run to run and are not compared. Exits 1
naming the first robot that differs. Standard library only.
"""

import json
import sys


def fitness_bits(fitness):
    """The fitness as its IEEE 754 bits in hex (`None` for a failed robot)."""
    return None if fitness is None else float(fitness).hex()


def rows(results):
    """(id, fitness bits, failure) of every robot of a results.json object, in order."""
    return [(r["id"], fitness_bits(r["fitness"]), r["failure"]) for r in results["results"]]


def differences(expected, actual):
    """Sentences naming what differs between two results objects; empty when they agree."""
    found = []
    if expected.get("backend") != actual.get("backend"):
        found.append(f"backend {actual.get('backend')} != {expected.get('backend')}")
    want, got = rows(expected), rows(actual)
    if len(want) != len(got):
        found.append(f"{len(got)} robots, expected {len(want)}")
    for i, (w, g) in enumerate(zip(want, got)):
        if w != g:
            found.append(f"robot {i}: (id, fitness bits, failure) {g} != expected {w}")
    return found


def main():
    if len(sys.argv) != 3:
        sys.exit(__doc__.strip().split("\n")[2].strip())
    with open(sys.argv[1], encoding="utf-8") as f:
        expected = json.load(f)
    with open(sys.argv[2], encoding="utf-8") as f:
        actual = json.load(f)
    found = differences(expected, actual)
    if found:
        sys.exit(f"{sys.argv[2]} differs from {sys.argv[1]}:\n  " + "\n  ".join(found))
    print(f"{sys.argv[2]}: {len(rows(actual))} robots, the same ids, order and fitness bits "
          f"as {sys.argv[1]}")


if __name__ == "__main__":
    main()
