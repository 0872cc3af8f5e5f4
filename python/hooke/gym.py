"""Gymnasium environments of hooke's voxel walking robot: :class:`WalkerEnv` (one robot, a
``gymnasium.Env``) and :class:`WalkerVectorEnv` (``num_envs`` robots in ONE hooke world, a
``gymnasium.vector.VectorEnv``), on the CPU reference (``backend="cpu"``, f64) or the GPU World
(``backend="gpu"``, ``precision="f32"`` or ``"f64"``). Needs gymnasium (``pip install
hooke[gym]``).

The robot is :class:`hooke.CommandedWalker` by default (its own time step, ground and friction),
any builder whose body has commanded muscles (``robot=``), or a voxel genome (``genome={"size":
[x, y, z], "cells": [...]}``, the population's encoding, its muscles commanded,
``genome_settings=`` the population's ``GenomeSettings`` fields). The robots of a vector env are
laid out as a population lays out its robots: all at the same place, none acting on another
(no shared spring, robot-robot collisions masked out), so each runs exactly as it would alone.

One environment step is ``control_steps`` physics steps (default 100, 0.01 s at the walker's
``dt`` of 1e-4 s) with the action held.

- **Action**: the robot's muscle commands, ``Box(-a, a, (M,), float32)`` with ``a`` each
  muscle's amplitude (0.3 for the walker): the relative rest-length change of each muscle
  spring, ``L = L_base (1 + command)``.
- **Observation** (``Box(-inf, inf, (D,), float32)``, the readings rounded to float32): the
  robot's centre-of-mass height (m), mean velocity (3, m/s), orientation (the 3 x 3 rotation
  from its initial shape, rows, 9), angular velocity (3, rad/s), each foot mass touching the
  ground (F, 0 or 1) and each muscle spring's strain (M, length / rest length - 1). ``D = 16 + F
  + M`` (F = 16 and M = 64 for the default walker: D = 96).
- **Reward**: forward progress, the change of the robot's centre of mass along +x over the
  step, in metres (an episode's return is the distance walked).
- **Termination**: a *blow-up* (a mass of the robot that stops the world, passing its blow-up
  bound or turning non-finite; a non-finite observation; or any mass of the robot faster than
  ``max_speed``, default 100 m/s: an energy explosion, several times what the walker's masses
  reach under random full-range commands, 20 to 40 m/s) or a
  *fall* (the robot's up axis tilted more than ``max_tilt`` from vertical, default 60 degrees).
  ``info["blow_up"]`` and ``info["fallen"]`` say which. A blown-up robot's final observation has
  its non-finite entries replaced by 0.
- **Truncation**: after ``max_episode_steps`` environment steps (default 500, 5 s).

Seeding: the physics has no randomness; every episode starts from the robot's built state, so
``reset(seed=...)`` gives the same observations bit for bit on reruns whatever the seed. The
seed seeds ``np_random`` only (gymnasium's generator, for the user's own draws); the action
space is seeded apart (``action_space.seed``).

The vector env autoresets in gymnasium's ``NEXT_STEP`` mode (``metadata["autoreset_mode"]``):
the step after a robot's episode ends ignores its action and returns its initial observation
with reward 0; only that robot's masses are put back (``Simulation.reset_bodies``), every other
robot runs on bit for bit as if nothing happened. ``reset(options={"reset_mask": mask})``
resets only the robots of ``mask``.
"""

from __future__ import annotations

import math
from typing import Any, Optional

import gymnasium as gym
import numpy as np
import numpy.typing as npt
from gymnasium.vector import AutoresetMode, VectorEnv
from gymnasium.vector.utils import batch_space

from . import _errors
from ._builders import Builder
from ._hooke import CpuWorld, Readings, Simulation, World, robot_herd

_F32 = npt.NDArray[np.float32]
_F64 = npt.NDArray[np.float64]
_Bool = npt.NDArray[np.bool_]

__all__ = ["WalkerEnv", "WalkerVectorEnv"]


class _Walkers:
    """``count`` robots in one world, and what the environments read of them."""

    def __init__(
        self,
        count: int,
        *,
        backend: str = "cpu",
        precision: str = "f32",
        threads: Optional[int] = None,
        robot: Optional[Builder] = None,
        genome: Optional[dict[str, Any]] = None,
        genome_settings: Optional[dict[str, Any]] = None,
        params: Optional[dict[str, Any]] = None,
        control_steps: int = 100,
        max_episode_steps: int = 500,
        max_tilt: float = math.radians(60.0),
        max_speed: float = 100.0,
    ) -> None:
        if control_steps < 1 or max_episode_steps < 1:
            raise _errors.ArgumentError(
                f"control_steps ({control_steps}) and max_episode_steps ({max_episode_steps}) must be at least 1"
            )
        if not (0.0 < max_tilt <= math.pi and max_speed > 0.0):
            raise _errors.ArgumentError(
                f"max_tilt ({max_tilt} rad) must lie in (0, pi] and max_speed ({max_speed} m/s) be > 0"
            )
        model, layout = robot_herd(
            count, robot=robot, genome=genome, genome_settings=genome_settings, params=params or {}
        )
        self.world: Simulation
        if backend == "cpu":
            self.world = CpuWorld(model, threads=threads)
        elif backend == "gpu":
            self.world = World(model, precision=precision)  # type: ignore[arg-type]
        else:
            raise _errors.ArgumentError(f'backend {backend!r}: expected "cpu" or "gpu"')
        self.count = count
        self.control_steps = control_steps
        self.max_episode_steps = max_episode_steps
        self.min_up = math.cos(max_tilt)
        self.max_speed = max_speed
        self.amplitudes: _F64 = layout["amplitudes"]
        bodies = model.bodies()
        self.starts = np.array([r.start for _, r, _ in bodies], dtype=np.int64)
        first_mass = self.starts[:, None]
        first_spring = np.array([s.start for _, _, s in bodies], dtype=np.int64)[:, None]
        self.feet = int(layout["feet"].size)
        self.muscles = int(layout["muscles"].size)
        self.spec: dict[str, Any] = {
            "bodies": np.arange(count, dtype=np.int64),
            "orientation": True,
            "contacts": (first_mass + layout["feet"][None, :]).ravel(),
            "springs": (first_spring + layout["muscles"][None, :]).ravel(),
        }
        self.obs_dim = 16 + self.feet + self.muscles
        self.initial_obs, self.initial_x = self.restart()
        self.x = np.repeat(self.initial_x, count)
        self.elapsed = np.zeros(count, dtype=np.int64)

    def spaces(self) -> tuple[gym.spaces.Box, gym.spaces.Box]:
        """One robot's observation and action spaces."""
        amp = self.amplitudes.astype(np.float32)
        observation = gym.spaces.Box(-np.inf, np.inf, (self.obs_dim,), np.float32)
        return observation, gym.spaces.Box(-amp, amp, dtype=np.float32)

    def restart(self) -> tuple[_F32, float]:
        """The whole world back to its initial state; robot 0's observation and x (m)."""
        self.world.reset()
        readings = self.world.sense(**self.spec)
        return self.observe(readings)[0], float(readings.centre_of_mass[0, 0])

    def observe(self, r: Readings) -> _F32:
        """The observations of every robot, ``(count, D)`` float32."""
        n = self.count
        assert r.orientation is not None and r.angular_velocity is not None
        parts = [
            r.centre_of_mass[:, 2:3],
            r.mean_velocity,
            r.orientation.reshape(n, 9),
            r.angular_velocity,
            r.touching.reshape(n, self.feet).astype(np.float64),
            r.strain.reshape(n, self.muscles),
        ]
        return np.concatenate(parts, axis=1).astype(np.float32)

    def put_back(self, robots: _Bool) -> None:
        """Puts the robots of ``robots`` back to their initial state (episode counters too)."""
        if robots.any():
            self.world.reset_bodies(np.flatnonzero(robots))
            self.x[robots] = self.initial_x
            self.elapsed[robots] = 0

    def blown(self, max_speed: float) -> _Bool:
        """Robots with a non-finite mass or one faster than ``max_speed`` (m/s)."""
        x, v = self.world.positions(), self.world.velocities()
        bad = ~(np.isfinite(x).all(axis=1) & np.isfinite(v).all(axis=1))
        with np.errstate(invalid="ignore", over="ignore"):
            bad |= ~(np.einsum("ij,ij->i", v, v) <= max_speed * max_speed)
        return np.logical_or.reduceat(bad, self.starts)

    def advance(self) -> _Bool:
        """Runs one control period. A robot whose mass stops the world (its blow-up bound
        passed, or a non-finite state) is put back at once and the period finished; returns the
        robots that did."""
        world = self.world
        target = world.steps + self.control_steps
        stopped = np.zeros(self.count, dtype=np.bool_)
        while world.steps < target:
            try:
                world.step(target - world.steps)
            except (_errors.BlowUpError, _errors.NonFiniteError) as e:
                robot = int(np.searchsorted(self.starts, e.mass, side="right")) - 1
                world.reset_bodies([robot])
                stopped[robot] = True
        return stopped

    def step(self, actions: npt.ArrayLike, idle: _Bool) -> tuple[_F32, _F64, _Bool, _Bool, dict[str, Any]]:
        """One environment step of every robot under ``actions`` ``(count, M)``; the robots of
        ``idle`` (about to be put back) get commands 0. Returns observations, rewards,
        terminations, truncations and the info of blow-ups and falls."""
        commands = np.array(actions, dtype=np.float64).reshape(self.count, self.muscles)
        commands[idle] = 0.0
        self.world.set_commands(commands.ravel())
        stopped = self.advance()
        readings = self.world.sense(**self.spec)
        obs = self.observe(readings)
        x = readings.centre_of_mass[:, 0].copy()
        reward = x - self.x
        self.x = x
        self.elapsed += 1
        blown = stopped | self.blown(self.max_speed) | ~np.isfinite(obs).all(axis=1)
        with np.errstate(invalid="ignore"):
            fallen = ~blown & ~(obs[:, 12] >= self.min_up)
        terminated = blown | fallen
        truncated = ~terminated & (self.elapsed >= self.max_episode_steps)
        reward[blown] = 0.0
        obs[blown] = np.nan_to_num(obs[blown], nan=0.0, posinf=0.0, neginf=0.0)
        return obs, reward, terminated, truncated, {"blow_up": blown, "fallen": fallen}


class _OnWalkers:
    """What both environments share: the robots and their world."""

    walkers: _Walkers

    @property
    def world(self) -> Simulation:
        """The hooke world the robots run in (robot ``i`` is body ``i``)."""
        return self.walkers.world


def _check_actions(actions: npt.ArrayLike, shape: tuple[int, ...]) -> _F64:
    """The actions as float64 of ``shape``; an ArgumentError naming the shape otherwise."""
    a = np.asarray(actions, dtype=np.float64)
    if a.shape != shape:
        raise _errors.ArgumentError(f"actions: expected shape {shape}, got {a.shape}")
    return a


class WalkerVectorEnv(_OnWalkers, VectorEnv[_F32, _F32, npt.NDArray[Any]]):
    """``num_envs`` walking robots in one hooke world, autoreset ``NEXT_STEP`` (see the module
    docstring for observation, action, reward, termination and seeding).

    Keyword arguments: ``backend`` ``"cpu"`` (``threads`` of the CPU reference, default
    all cores) or ``"gpu"`` (``precision`` ``"f32"`` or ``"f64"``); ``robot`` a builder with
    commanded muscles (default :class:`hooke.CommandedWalker`) or ``genome`` (with
    ``genome_settings``); ``params`` fields overriding the robot's parameters;
    ``control_steps`` physics steps per environment step; ``max_episode_steps``; ``max_tilt``
    (rad) and ``max_speed`` (m/s), the fall and blow-up thresholds.
    """

    metadata: dict[str, Any] = {"autoreset_mode": AutoresetMode.NEXT_STEP, "render_modes": []}

    def __init__(self, num_envs: int = 1, **options: Any) -> None:
        self.walkers = _Walkers(num_envs, **options)
        self.num_envs = num_envs
        self.single_observation_space, self.single_action_space = self.walkers.spaces()
        self.observation_space = batch_space(self.single_observation_space, num_envs)
        self.action_space = batch_space(self.single_action_space, num_envs)
        self._autoreset = np.zeros(num_envs, dtype=np.bool_)

    def reset(
        self, *, seed: Optional[int] = None, options: Optional[dict[str, Any]] = None
    ) -> tuple[_F32, dict[str, Any]]:
        """Every robot (or those of ``options["reset_mask"]``, a ``(num_envs,)`` bool array)
        back to its initial state; the initial observations ``(num_envs, D)``."""
        super().reset(seed=seed)
        w = self.walkers
        mask = (options or {}).get("reset_mask")
        if mask is None:
            w.initial_obs, w.initial_x = w.restart()
            w.put_back(np.ones(self.num_envs, dtype=np.bool_))
            self._autoreset[:] = False
            return np.tile(w.initial_obs, (self.num_envs, 1)), {}
        mask = np.asarray(mask)
        if mask.shape != (self.num_envs,) or mask.dtype != np.bool_:
            raise _errors.ArgumentError(
                f"reset_mask: expected a ({self.num_envs},) bool array, got {mask.dtype} {mask.shape}"
            )
        w.put_back(mask)
        self._autoreset[mask] = False
        obs = w.observe(w.world.sense(**w.spec))
        obs[mask] = w.initial_obs
        return obs, {}

    def step(
        self, actions: npt.ArrayLike
    ) -> tuple[_F32, _F64, _Bool, _Bool, dict[str, Any]]:
        """Every robot's muscles held at ``actions`` ``(num_envs, M)`` for one control period;
        robots whose episode ended at the previous step are put back instead (action ignored,
        initial observation, reward 0)."""
        w = self.walkers
        a = _check_actions(actions, (self.num_envs, w.muscles))
        again = self._autoreset
        w.put_back(again)
        obs, reward, terminated, truncated, info = w.step(a, again)
        w.put_back(again)
        obs[again] = w.initial_obs
        reward[again] = 0.0
        terminated[again] = False
        truncated[again] = False
        info["blow_up"][again] = False
        info["fallen"][again] = False
        self._autoreset = terminated | truncated
        info["_blow_up"] = info["_fallen"] = np.ones(self.num_envs, dtype=np.bool_)
        return obs, reward, terminated, truncated, info


class WalkerEnv(_OnWalkers, gym.Env[_F32, _F32]):
    """One walking robot (a ``gymnasium.Env``); the keyword arguments of
    :class:`WalkerVectorEnv`. ``reset`` puts the whole world back."""

    metadata: dict[str, Any] = {"render_modes": []}

    def __init__(self, **options: Any) -> None:
        self.walkers = _Walkers(1, **options)
        spaces = self.walkers.spaces()
        self.observation_space, self.action_space = spaces  # type: ignore[assignment]

    def reset(
        self, *, seed: Optional[int] = None, options: Optional[dict[str, Any]] = None
    ) -> tuple[_F32, dict[str, Any]]:
        """The robot back to its built state; its initial observation."""
        super().reset(seed=seed)
        w = self.walkers
        w.initial_obs, w.initial_x = w.restart()
        w.x[:] = w.initial_x
        w.elapsed[:] = 0
        return w.initial_obs.copy(), {}

    def step(self, action: npt.ArrayLike) -> tuple[_F32, float, bool, bool, dict[str, Any]]:
        """The muscles held at ``action`` ``(M,)`` for one control period."""
        w = self.walkers
        a = _check_actions(action, (w.muscles,))
        obs, reward, terminated, truncated, info = w.step(a[None, :], np.zeros(1, dtype=np.bool_))
        return (
            obs[0],
            float(reward[0]),
            bool(terminated[0]),
            bool(truncated[0]),
            {"blow_up": bool(info["blow_up"][0]), "fallen": bool(info["fallen"][0])},
        )
