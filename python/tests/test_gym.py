"""hooke.gym: the walker as a Gymnasium env and vector env, on both backends. gymnasium's own
checker, spaces, a random policy, bit-identical reruns, one robot reset without touching the
others, the sign of the reward, and termination on blow-ups and falls."""

from __future__ import annotations

import os
from typing import Any

import gymnasium as gym
import numpy as np
import numpy.typing as npt
import pytest
from gymnasium.utils.env_checker import check_env
from gymnasium.vector import AutoresetMode

import hooke
from conftest import world_on
from hooke._hooke import robot_herd
from hooke.gym import WalkerEnv, WalkerVectorEnv

BACKENDS = ["cpu", "gpu"]


def vector_env(backend: str, num_envs: int, **kwargs: Any) -> WalkerVectorEnv:
    """The vector env on `backend`; HOOKE_SKIP_GPU_TESTS=1 skips the GPU explicitly, and without
    it a missing adapter fails the test (hooke.NoAdapterError names the adapters seen)."""
    if backend == "gpu" and os.environ.get("HOOKE_SKIP_GPU_TESTS") == "1":
        pytest.skip("HOOKE_SKIP_GPU_TESTS=1")
    return WalkerVectorEnv(num_envs, backend=backend, **kwargs)


def policy(space: gym.Space[Any], seed: int) -> gym.Space[Any]:
    space.seed(seed)
    return space


def test_gymnasium_check_env_passes_on_the_single_env() -> None:
    env = WalkerEnv(max_episode_steps=5)
    check_env(env, skip_render_check=True)
    assert isinstance(env.observation_space, gym.spaces.Box)
    assert env.observation_space.dtype == np.float32


def test_vector_env_spaces_and_shapes_follow_num_envs() -> None:
    env = vector_env("cpu", 3)
    single_obs, single_act = env.single_observation_space, env.single_action_space
    assert isinstance(single_obs, gym.spaces.Box) and isinstance(single_act, gym.spaces.Box)
    # The default walker: 56 masses, 16 of them feet, and 64 commanded leg springs of
    # amplitude 0.3 (lift + stride).
    assert single_act.shape == (64,)
    assert single_obs.shape == (16 + 16 + 64,)
    np.testing.assert_array_equal(single_act.high, np.float32(0.3))
    np.testing.assert_array_equal(single_act.low, np.float32(-0.3))
    assert env.observation_space.shape == (3, 96)
    assert env.action_space.shape == (3, 64)
    assert env.world.mass_count == 3 * 56
    assert env.metadata["autoreset_mode"] == AutoresetMode.NEXT_STEP
    obs, info = env.reset(seed=0)
    assert obs.shape == (3, 96) and obs.dtype == np.float32
    assert obs in env.observation_space
    # Every robot starts from the same built state: upright (orientation the identity), at
    # rest, muscles at their rest lengths.
    np.testing.assert_array_equal(obs[0], obs[2])
    np.testing.assert_array_equal(obs[:, 4:13], np.tile(np.eye(3, dtype=np.float32).ravel(), (3, 1)))
    np.testing.assert_array_equal(obs[:, 1:4], 0.0)


@pytest.mark.parametrize("backend", BACKENDS)
def test_a_random_policy_runs_an_episode_and_autoresets(backend: str) -> None:
    env = vector_env(backend, 4, max_episode_steps=6)
    obs, _ = env.reset(seed=1)
    initial = obs[0].copy()
    actions = policy(env.action_space, 1)
    done = np.zeros(4, dtype=np.bool_)
    for t in range(6):
        obs, reward, terminated, truncated, info = env.step(actions.sample())
        assert obs.shape == (4, 96) and np.isfinite(obs).all()
        assert reward.shape == (4,) and np.isfinite(reward).all()
        assert not info["blow_up"].any()
        done |= terminated | truncated
    # Within 6 steps a robot either fell or ran out of time: every episode ended.
    assert done.all() and truncated[~terminated].all()
    obs, reward, terminated, truncated, _ = env.step(actions.sample())
    # NEXT_STEP autoreset: the step after an episode ends returns the initial observation.
    np.testing.assert_array_equal(obs, np.tile(initial, (4, 1)))
    np.testing.assert_array_equal(reward, 0.0)
    assert not (terminated | truncated).any()


def rollout(env: WalkerVectorEnv, seed: int, steps: int) -> list[npt.NDArray[np.float32]]:
    obs, _ = env.reset(seed=seed)
    actions = policy(env.action_space, seed)
    out = [obs]
    for _ in range(steps):
        out.append(env.step(actions.sample())[0])
    return out


@pytest.mark.parametrize("backend", BACKENDS)
def test_seeded_reruns_are_bit_identical(backend: str) -> None:
    first = rollout(vector_env(backend, 2), 7, 4)
    again = rollout(vector_env(backend, 2), 7, 4)
    env = vector_env(backend, 2)
    same_env = rollout(env, 7, 4)
    # The same env reset and rerun, and a reset with another seed (the seed randomises nothing
    # in the physics).
    rerun = rollout(env, 7, 4)
    other_seed_start = env.reset(seed=8)[0]
    for a, b, c, d in zip(first, again, same_env, rerun):
        assert a.tobytes() == b.tobytes() == c.tobytes() == d.tobytes()
    assert other_seed_start.tobytes() == first[0].tobytes()
    # The robots moved: the comparison is not of constant arrays.
    assert first[-1].tobytes() != first[0].tobytes()


@pytest.mark.parametrize("backend", BACKENDS)
def test_resetting_one_robot_leaves_the_others_bits_unchanged(backend: str) -> None:
    plain, reset = vector_env(backend, 3), vector_env(backend, 3)
    fresh = vector_env(backend, 3)
    rng = np.random.default_rng(5)
    acts = [rng.uniform(-0.3, 0.3, (3, 64)).astype(np.float32) for _ in range(6)]
    for env in (plain, reset, fresh):
        env.reset(seed=0)
    for a in acts[:3]:
        plain.step(a)
        reset.step(a)
    mask = np.array([False, True, False])
    obs, _ = reset.reset(options={"reset_mask": mask})
    np.testing.assert_array_equal(obs[1], fresh.reset()[0][1])
    for k, a in enumerate(acts[3:]):
        # Robot 1 starts afresh: it gets the actions a fresh env's robot gets from the start.
        again = a.copy()
        again[1] = acts[k][1]
        p_obs = plain.step(a)[0]
        r_obs = reset.step(again)[0]
        f_obs = fresh.step(acts[k])[0]
        assert r_obs[[0, 2]].tobytes() == p_obs[[0, 2]].tobytes()
        assert r_obs[1].tobytes() == f_obs[1].tobytes()
    x_plain, x_reset = plain.world.positions(), reset.world.positions()
    for robot in (0, 2):
        masses = slice(robot * 56, (robot + 1) * 56)
        assert x_reset[masses].tobytes() == x_plain[masses].tobytes()
    assert x_reset[56:112].tobytes() != x_plain[56:112].tobytes()


@pytest.mark.parametrize("backend", BACKENDS)
def test_a_robot_pushed_forward_gets_positive_reward(backend: str) -> None:
    env = vector_env(backend, 2)
    env.reset()
    # 2 N along +x on each of robot 0's masses for 0.01 s: its centre of mass gains
    # F t^2 / (2 m) = 2 * 1e-4 / (2 * 0.1) = 1 mm over its neighbour (walker masses are
    # 0.1 kg), far above what its still muscles do.
    masses = np.arange(56)
    env.world.set_external_forces(masses, np.tile([2.0, 0.0, 0.0], (56, 1)))
    _, reward, terminated, _, _ = env.step(np.zeros((2, 64), dtype=np.float32))
    assert not terminated.any()
    assert reward[0] > 0.0
    assert reward[0] - reward[1] > 0.5e-3


@pytest.mark.parametrize("backend", BACKENDS)
def test_an_injected_blow_up_terminates_only_that_robot(backend: str) -> None:
    env = vector_env(backend, 3)
    initial, _ = env.reset()
    # 10 kN on every mass of robot 2 (0.1 kg each): 1e5 m/s^2, past max_speed (100 m/s)
    # within 1 ms of the 10 ms step. (The world's own bound rises with the force it is told.)
    masses = np.arange(112, 168)
    env.world.set_external_forces(masses, np.tile([1e4, 0.0, 0.0], (56, 1)))
    obs, reward, terminated, _, info = env.step(np.zeros((3, 64), dtype=np.float32))
    np.testing.assert_array_equal(terminated, [False, False, True])
    np.testing.assert_array_equal(info["blow_up"], [False, False, True])
    assert reward[2] == 0.0 and np.isfinite(obs).all()
    env.world.set_external_forces(masses, np.zeros((56, 3)))
    obs, _, terminated, _, _ = env.step(np.zeros((3, 64), dtype=np.float32))
    np.testing.assert_array_equal(obs[2], initial[2])
    assert not terminated.any()


@pytest.mark.parametrize("backend", BACKENDS)
def test_a_world_that_stops_on_a_blow_up_terminates_and_runs_on(backend: str) -> None:
    # dt = 2e-3 s is three times the walker's stable time step (6.6e-4 s): the world itself
    # stops within one control period (100 steps), naming the mass; each robot is put back as
    # it fails, and every episode ends with a blow-up.
    model, _ = robot_herd(1, params={"dt": 2e-3})
    bare = world_on(backend, model)
    with pytest.raises(hooke.BlowUpError) as stop:
        bare.step(100)
    assert 0 <= stop.value.mass < 56
    env = vector_env(backend, 2, params={"dt": 2e-3})
    initial, _ = env.reset()
    _, _, terminated, _, info = env.step(np.zeros((2, 64), dtype=np.float32))
    assert terminated.all() and info["blow_up"].all()
    obs, *_ = env.step(np.zeros((2, 64), dtype=np.float32))
    np.testing.assert_array_equal(obs, initial)


def test_a_tilt_past_max_tilt_is_a_fall() -> None:
    # The walker tilts by a few degrees under random commands: with max_tilt 1e-6 rad that
    # is a fall; with the default 60 degrees it is not.
    strict, default = vector_env("cpu", 2, max_tilt=1e-6), vector_env("cpu", 2)
    strict.reset(), default.reset()
    a = np.random.default_rng(2).uniform(-0.3, 0.3, (2, 64)).astype(np.float32)
    _, _, terminated, _, info = strict.step(a)
    assert terminated.all() and info["fallen"].all() and not info["blow_up"].any()
    assert not default.step(a)[2].any()


def test_a_genome_robot_and_bad_input() -> None:
    genome = {"size": [2, 1, 1], "cells": [{"muscle": {"phase": 0}}, "soft"]}
    env = WalkerEnv(genome=genome)
    obs, _ = env.reset()
    # Two voxels: 12 masses, 4 of them feet at each end... all 6 bottom corners; the muscle
    # voxel's 18 springs commanded (amplitude 0.1 by default).
    assert isinstance(env.action_space, gym.spaces.Box)
    np.testing.assert_array_equal(env.action_space.high, np.float32(0.1))
    assert obs.shape == env.observation_space.shape
    env.step(env.action_space.sample())
    with pytest.raises(hooke.ArgumentError, match="actions: expected shape"):
        env.step(np.zeros(3))
    with pytest.raises(hooke.ArgumentError, match="no commanded muscle"):
        WalkerEnv(robot=hooke.Cube())
    with pytest.raises(hooke.ArgumentError, match="not both"):
        WalkerEnv(robot=hooke.CommandedWalker(), genome=genome)
    with pytest.raises(hooke.ArgumentError, match="backend"):
        WalkerVectorEnv(2, backend="tpu")
