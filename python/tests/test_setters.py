"""Setters taking arrays for many masses at once, on both backends."""

from __future__ import annotations

import numpy as np
import pytest

import hooke
from conftest import cube_model, world_on

G = 9.81


@pytest.mark.parametrize("backend", ["cpu", "gpu"])
def test_an_upward_force_of_m_g_on_every_mass_holds_the_cube(backend: str) -> None:
    world = world_on(backend, cube_model())
    start = world.positions()
    world.set_external_forces(np.arange(8), np.tile([0.0, 0.0, 0.1 * G], (8, 1)))
    world.step(1000)
    # F / m + g is zero up to one rounding per step (a free fall would drop 0.049 m). The f32
    # World also starts from positions rounded to f32 (ulp 1.2e-7 m at 1.1 m), so its springs
    # are off rest by up to an ulp and move the masses by a fraction of one.
    tolerance = 1e-9 if backend == "cpu" else 1.2e-7
    assert np.abs(world.positions() - start).max() < tolerance


@pytest.mark.parametrize("backend", ["cpu", "gpu"])
def test_fixed_masses_stay_put_and_freed_ones_fall(backend: str) -> None:
    world = world_on(backend, cube_model())
    start = world.positions()
    world.set_fixed(np.arange(8))
    world.step(200)
    np.testing.assert_array_equal(world.positions(), start)
    world.set_fixed([0, 1, 2, 3, 4, 5, 6, 7], fixed=np.zeros(8, dtype=bool))
    world.step(200)
    assert (world.positions()[:, 2] < start[:, 2]).all()


@pytest.mark.parametrize("backend", ["cpu", "gpu"])
def test_set_rest_lengths_changes_the_rest_lengths(backend: str) -> None:
    model = cube_model()
    world = world_on(backend, model)
    springs = np.array([0, 5, 27])
    world.set_rest_lengths(springs, [0.05, 0.2, 0.125])
    rest = world.rest_lengths()
    np.testing.assert_allclose(rest[springs], [0.05, 0.2, 0.125], rtol=1e-7)
    others = np.setdiff1d(np.arange(28), springs)
    np.testing.assert_allclose(rest[others], model.rest_lengths()[others], rtol=1e-7)


def test_set_external_forces_checks_one_row_per_mass() -> None:
    world = hooke.CpuWorld(cube_model())
    with pytest.raises(hooke.ArgumentError, match=r"forces: expected shape \(2, 3\), got \(3, 3\)"):
        world.set_external_forces([0, 1], np.zeros((3, 3)))


@pytest.mark.parametrize("backend", ["cpu", "gpu"])
def test_changed_actuator_amplitudes_change_the_motion(backend: str) -> None:
    def walker_after(amplitude: float | None) -> np.ndarray:
        model = hooke.Model("robots")
        model.add("walker", hooke.WalkingRobot())
        world = world_on(backend, model)
        if amplitude is not None:
            count = len(world.rest_lengths())  # any spring count; actuators are fewer
            assert count > 0
            world.set_actuators([0, 1], amplitude=[amplitude, amplitude])
        world.step(2000)
        return world.positions()

    base = walker_after(None)
    assert base.tobytes() == walker_after(None).tobytes()
    assert np.abs(walker_after(0.0) - base).max() > 1e-6


def test_an_actuator_past_the_end_is_refused() -> None:
    model = hooke.Model("robots")
    model.add("walker", hooke.WalkingRobot())
    world = hooke.CpuWorld(model)
    with pytest.raises(hooke.ArgumentError, match=r"actuators\[0\]: index 100000 is out of range"):
        world.set_actuators([100000], phase=[0.0])
