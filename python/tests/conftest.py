"""Shared models and worlds for the tests."""

from __future__ import annotations

import itertools
import os
import threading
import time
from typing import Any, Callable

import numpy as np
import numpy.typing as npt
import pytest

import hooke

# Lipson's cube: 0.1 m, eight 0.1 kg corners, every pair of corners joined (28 springs) at
# 10 000 N/m, no damping.
SIDE = 0.1
CORNER_MASS = 0.1
STIFFNESS = 10_000.0


def cube_arrays(height: float = 1.0) -> tuple[npt.NDArray[np.float64], npt.NDArray[np.float64], npt.NDArray[np.int64]]:
    """Positions (8, 3) of a cube whose lowest face is `height` m up, masses (8,), springs (28, 2)."""
    corners = np.array(list(itertools.product([0.0, SIDE], repeat=3)))
    corners[:, 2] += height
    masses = np.full(8, CORNER_MASS)
    springs = np.array(list(itertools.combinations(range(8), 2)), dtype=np.int64)
    return corners, masses, springs


def cube_model(height: float = 1.0, **params: Any) -> hooke.Model:
    """The cube as a model (no damping)."""
    positions, masses, springs = cube_arrays(height)
    return hooke.Model.from_arrays(positions, masses, springs, STIFFNESS, 0.0, **params)


@pytest.fixture
def cube() -> hooke.Model:
    return cube_model()


def gpu_world(model: hooke.Model, precision: str = "f32") -> hooke.World:
    """A GPU World (lavapipe on machines without a GPU). HOOKE_SKIP_GPU_TESTS=1 skips the GPU
    tests explicitly; without it a missing adapter fails the test."""
    if os.environ.get("HOOKE_SKIP_GPU_TESTS") == "1":
        pytest.skip("HOOKE_SKIP_GPU_TESTS=1")
    return hooke.World(model, precision=precision)  # type: ignore[arg-type]


def world_on(backend: str, model: hooke.Model) -> hooke.Simulation:
    """The model on the CPU reference or the GPU World."""
    return hooke.CpuWorld(model) if backend == "cpu" else gpu_world(model)


def ticks_while(work: Callable[[], object]) -> int:
    """Runs `work` in a thread and counts how often this thread wakes from 1 ms sleeps until it
    is done: once or twice if `work` holds the GIL throughout, about once a millisecond if it
    releases it."""
    done = threading.Event()

    def run() -> None:
        work()
        done.set()

    thread = threading.Thread(target=run)
    thread.start()
    ticks = 0
    while not done.is_set():
        ticks += 1
        time.sleep(0.001)
    thread.join()
    return ticks
