"""A random policy on hooke.gym's vector env: NUM_ENVS walking robots in one world, on the CPU
reference or the GPU, for one episode each; prints each robot's return (the distance its
centre of mass moved along +x, m) and how many episodes ended early.

    python python/examples/random_walkers.py [cpu|gpu] [num_envs]
"""

from __future__ import annotations

import sys

import numpy as np

from hooke.gym import WalkerVectorEnv


def main() -> None:
    backend = sys.argv[1] if len(sys.argv) > 1 else "cpu"
    num_envs = int(sys.argv[2]) if len(sys.argv) > 2 else 8
    env = WalkerVectorEnv(num_envs, backend=backend, max_episode_steps=100)  # 1 s episodes
    obs, _ = env.reset(seed=0)
    env.action_space.seed(0)
    returns = np.zeros(num_envs)
    ended = np.zeros(num_envs, dtype=np.bool_)
    early = 0
    while not ended.all():
        actions = env.action_space.sample()
        obs, reward, terminated, truncated, info = env.step(actions)
        returns[~ended] += reward[~ended]
        early += int((terminated & ~ended).sum())
        ended |= terminated | truncated
    print(f"{backend}: {num_envs} robots, observations {obs.shape[1]}, actions {env.single_action_space.shape}")
    print(f"returns (m): mean {returns.mean():+.4f}, best {returns.max():+.4f}; {early} ended early")


if __name__ == "__main__":
    main()
