"""The GIL is released while a world steps: Python threads stepping their own worlds run in
parallel, and the interpreter stays free meanwhile."""

from __future__ import annotations

import os
import threading
import time

import hooke

STEPS = 3000


def lattice_world() -> hooke.CpuWorld:
    # 9^3 masses, 7448 springs: 3000 steps take about half a second, on the caller's thread.
    model = hooke.Model()
    model.add("lattice", hooke.Lattice(n=9))
    assert model.spring_count < 10_000
    return hooke.CpuWorld(model, threads=1)


def timed(worlds: list[hooke.CpuWorld]) -> float:
    """Wall time for each world to take STEPS steps on its own Python thread, all at once."""
    threads = [threading.Thread(target=w.step, args=(STEPS,)) for w in worlds]
    start = time.perf_counter()
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    return time.perf_counter() - start


def test_two_threads_step_two_worlds_in_parallel() -> None:
    assert (os.cpu_count() or 1) >= 2
    a, b = lattice_world(), lattice_world()
    timed([a])  # warm up: page in the tables
    one = min(timed([a]) for _ in range(2))
    two = min(timed([a, b]) for _ in range(2))
    # Holding the GIL would serialise the two threads (two = 2 x one); released, they share two
    # cores. 1.5 leaves room for a busy machine yet fails if they take turns.
    assert two < 1.5 * one, f"one thread {one:.3f} s, two threads {two:.3f} s"
    assert a.steps == b.steps + 3 * STEPS  # a also took the warm-up and the two solo runs


def test_the_interpreter_runs_while_a_world_steps() -> None:
    world = lattice_world()
    done = threading.Event()
    ticks = 0

    def step() -> None:
        world.step(STEPS)
        done.set()

    thread = threading.Thread(target=step)
    thread.start()
    while not done.is_set():
        ticks += 1
        time.sleep(0.001)
    thread.join()
    # The step takes about half a second: with the GIL held for the whole call the loop would
    # run once or twice; released, it ticks every millisecond or so.
    assert ticks > 50
