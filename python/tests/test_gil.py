"""The GIL is released while a world steps: Python threads stepping their own worlds run at the
same time, and the interpreter stays free meanwhile."""

from __future__ import annotations

import threading

import hooke
from conftest import ticks_while

STEPS = 3000


def lattice_world() -> hooke.CpuWorld:
    # 9^3 masses, 7448 springs: 3000 steps take about half a second, on the caller's thread.
    model = hooke.Model()
    model.add("lattice", hooke.Lattice(n=9))
    assert model.spring_count < 10_000
    return hooke.CpuWorld(model, threads=1)


def test_a_second_world_steps_while_the_first_is_stepping() -> None:
    # World a takes STEPS steps on its own thread; once it has begun, this thread steps world b
    # a tenth as far. With the GIL released, b's short run ends while a's long one is still going,
    # however loaded the machine (both slow down alike); with the GIL held through a's step, this
    # thread could not even start b until a had finished. No timing enters the assertion.
    a, b = lattice_world(), lattice_world()
    begun = threading.Event()

    def long_run() -> None:
        begun.set()
        a.step(STEPS)

    thread = threading.Thread(target=long_run)
    thread.start()
    begun.wait()
    b.step(STEPS // 10)
    a_still_running = thread.is_alive()
    thread.join()
    assert a_still_running, "world b could only step once world a had finished"
    assert (a.steps, b.steps) == (STEPS, STEPS // 10)


def test_the_interpreter_runs_while_a_world_steps() -> None:
    world = lattice_world()
    ticks = ticks_while(lambda: world.step(STEPS))
    # The step takes about half a second: with the GIL held for the whole call the loop would
    # run once or twice; released, it ticks every millisecond or so.
    assert ticks > 50
