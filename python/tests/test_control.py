"""Sensors as arrays and a Python controller closing the loop, on both backends."""

from __future__ import annotations

from typing import Callable

import numpy as np
import numpy.typing as npt
import pytest

import hooke
from conftest import cube_model, world_on

PERIOD = 50


def walker(backend: str) -> hooke.Simulation:
    model = hooke.Model("robots")
    model.add("walker", hooke.CommandedWalker())
    return world_on(backend, model)


def gait(count: int) -> Callable[[hooke.Readings], npt.NDArray[np.float64]]:
    """A controller that answers the readings: commands from the body's sideways velocity and
    the time, so its output depends on what the world did."""

    def control(r: hooke.Readings) -> npt.NDArray[np.float64]:
        v = r.mean_velocity[0]
        phase = 2 * np.pi * 2.0 * r.time + np.arange(count)
        commands: npt.NDArray[np.float64] = np.clip(0.1 * np.sin(phase) + 0.5 * v[0], -0.2, 0.2)
        return commands

    return control


@pytest.mark.parametrize("backend", ["cpu", "gpu"])
def test_the_python_loop_equals_sensing_and_commanding_by_hand(backend: str) -> None:
    looped = walker(backend)
    count = looped.commanded_count
    assert count > 0
    control = gait(count)
    ticks, steps = looped.run_control(control, 0.3, period=PERIOD, bodies=[0])
    assert (ticks, steps) == (3000 // PERIOD, 3000)

    by_hand = walker(backend)
    for _ in range(ticks):
        by_hand.set_commands(control(by_hand.sense(bodies=[0])))
        by_hand.step(PERIOD)
    assert looped.positions().tobytes() == by_hand.positions().tobytes()

    idle = walker(backend)
    idle.step(3000)
    assert np.abs(idle.positions() - looped.positions()).max() > 1e-4  # the commands acted


def test_the_controller_is_called_every_period_with_the_time() -> None:
    world = walker("cpu")
    times: list[float] = []

    def record_time(r: hooke.Readings) -> npt.NDArray[np.float64]:
        times.append(r.time)
        return np.zeros(world_count)

    world_count = world.commanded_count
    world.run_control(record_time, 0.1, period=30)
    # 1000 steps in periods of 30: 34 calls, at 0, 30 dt, 60 dt, ...
    np.testing.assert_allclose(times, np.arange(34) * 30 * world.dt, atol=1e-12)


def test_a_controller_exception_stops_the_loop_and_comes_through() -> None:
    world = walker("cpu")
    count = world.commanded_count

    def failing(r: hooke.Readings) -> npt.NDArray[np.float64]:
        if r.time > 0.01:
            raise KeyError("controller gave up")
        return np.zeros(count)

    with pytest.raises(KeyError, match="controller gave up"):
        world.run_control(failing, 0.1, period=20)
    assert 0.01 < world.time < 0.02


def test_a_controller_touching_its_world_gets_an_error_not_a_race() -> None:
    world = walker("cpu")

    def peeking(r: hooke.Readings) -> npt.NDArray[np.float64]:
        return np.zeros(world.commanded_count)  # the world is busy running this loop

    with pytest.raises(RuntimeError, match="borrowed"):
        world.run_control(peeking, 0.01, period=10)


def test_wrong_command_length_is_named() -> None:
    world = walker("cpu")
    with pytest.raises(hooke.ArgumentError, match=r"commands: expected shape \(\d+,\), got \(1,\)"):
        world.run_control(lambda r: np.zeros(1), 0.01, period=10)


@pytest.mark.parametrize("backend", ["cpu", "gpu"])
def test_readings_are_arrays_of_the_sensed_rows(backend: str) -> None:
    # Damped contact and friction ("robots"): the cube settles on its lowest face.
    world = world_on(backend, cube_model(height=0.0, preset="robots"))
    world.sense(contacts=[0])  # the first call asking for contacts turns their recording on
    world.step(3000)
    # Masses 0, 2, 4 and 6 are the bottom face, 1 the top of the first edge.
    r = world.sense(bodies=[0], orientation=True, contacts=[0, 1, 4], springs=[0, 1])
    assert r.centre_of_mass.shape == (1, 3) and r.mean_velocity.shape == (1, 3)
    assert r.orientation is not None and r.orientation.shape == (1, 3, 3)
    # A rotation matrix: orthonormal.
    np.testing.assert_allclose(r.orientation[0] @ r.orientation[0].T, np.eye(3), atol=1e-6)
    assert r.touching.dtype == np.bool_ and r.touching.shape == (3,)
    assert r.touching.tolist() == [True, False, True]
    assert r.normal_force.shape == (3, 3)
    assert r.normal_force[0, 2] > 0 and r.normal_force[2, 2] > 0 and r.normal_force[1, 2] == 0
    assert r.spring_length.shape == (2,) and r.strain.shape == (2,)
    np.testing.assert_allclose(r.centre_of_mass[0], world.bodies()["centre_of_mass"][0], atol=1e-6)


def test_readings_without_orientation_have_none() -> None:
    world = hooke.CpuWorld(cube_model())
    r = world.sense(bodies=[0])
    assert r.orientation is None and r.angular_velocity is None
