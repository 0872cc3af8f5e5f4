"""What a Python controller costs per control period: the commanded walking robot run for
SECONDS with a controller called every PERIOD steps, against the same steps with no controller.
The difference divided by the controller calls is the overhead of one period (sensing, the
Readings to numpy, the Python call, the commands back, taking and releasing the GIL).

    python python/benchmarks/control_overhead.py [cpu|gpu]
"""

from __future__ import annotations

import sys
import time

import numpy as np
import numpy.typing as npt

import hooke

SECONDS = 1.0
PERIODS = (1, 10, 100)


def world(backend: str) -> hooke.Simulation:
    model = hooke.Model("robots")
    model.add("walker", hooke.CommandedWalker())
    return hooke.CpuWorld(model, threads=1) if backend == "cpu" else hooke.World(model)


def main() -> None:
    backend = sys.argv[1] if len(sys.argv) > 1 else "cpu"
    plain = world(backend)
    start = time.perf_counter()
    steps = plain.step_for(SECONDS)
    plain.positions()
    base = time.perf_counter() - start
    print(f"{backend}: {steps} steps without a controller: {base:.3f} s")
    for period in PERIODS:
        looped = world(backend)
        count = looped.commanded_count

        def control(r: hooke.Readings) -> npt.NDArray[np.float64]:
            return np.full(count, 0.1 * np.sin(2 * np.pi * r.time))

        start = time.perf_counter()
        ticks, _ = looped.run_control(control, SECONDS, period=period, bodies=[0])
        looped.positions()
        spent = time.perf_counter() - start
        per = (spent - base) / ticks * 1e6
        print(f"  period {period:>3} steps: {ticks} calls, {spent:.3f} s, overhead {per:.1f} us per call")


if __name__ == "__main__":
    main()
