"""Environment steps per second of hooke.gym's walker: N robots in one world
(``WalkerVectorEnv``) against one env per Python process (gymnasium's ``AsyncVectorEnv`` of
single ``WalkerEnv``s, the way EvoGym runs its environments), under a random policy.

One environment step is one control period (100 physics steps, 0.01 s). Steps per second
count robot-steps: ``num_envs * vector steps / seconds``.

    python python/benchmarks/env_steps.py [cpu|gpu|async] [N ...]

``cpu`` and ``gpu`` time the vector env (default N: 1 64 1024), ``async`` one process per env
on the CPU backend (default N: 1 2 8; each process builds its own world, one CPU thread each).
"""

from __future__ import annotations

import sys
import time
from typing import Any, Callable

import gymnasium as gym

from hooke.gym import WalkerEnv, WalkerVectorEnv

#: Seconds of stepping each measurement aims at (after one warm-up step).
BUDGET = 5.0


def rate(step: Callable[[], None], envs: int) -> tuple[float, int]:
    """Robot-steps per second of ``step`` (one vector step of ``envs`` robots), and the vector
    steps timed."""
    step()
    count, start = 0, time.perf_counter()
    while time.perf_counter() - start < BUDGET:
        step()
        count += 1
    return envs * count / (time.perf_counter() - start), count


def vector(backend: str, n: int) -> tuple[float, int]:
    env = WalkerVectorEnv(n, backend=backend, max_episode_steps=10**9)
    env.reset(seed=0)
    env.action_space.seed(0)

    def step() -> None:
        env.step(env.action_space.sample())

    return rate(step, n)


def make_single() -> gym.Env[Any, Any]:
    return WalkerEnv(threads=1, max_episode_steps=10**9)


def processes(n: int) -> tuple[float, int]:
    env = gym.vector.AsyncVectorEnv([make_single] * n)
    env.reset(seed=0)
    env.action_space.seed(0)

    def step() -> None:
        env.step(env.action_space.sample())

    try:
        return rate(step, n)
    finally:
        env.close()


def main() -> None:
    mode = sys.argv[1] if len(sys.argv) > 1 else "cpu"
    default = [1, 2, 8] if mode == "async" else [1, 64, 1024]
    counts = [int(a) for a in sys.argv[2:]] or default
    for n in counts:
        per_second, steps = processes(n) if mode == "async" else vector(mode, n)
        print(f"{mode:5} {n:5} envs: {per_second:10.1f} env steps/s ({steps} vector steps)", flush=True)


if __name__ == "__main__":
    main()
