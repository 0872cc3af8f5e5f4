"""Physics through the Python API: free fall against the closed form, the GPU against the CPU
reference, reruns bit for bit."""

from __future__ import annotations

import numpy as np
import pytest

import hooke
from conftest import cube_arrays, cube_model, gpu_world

G = 9.81


def drop(dt: float, n: int) -> float:
    """Semi-implicit Euler drops a free body by exactly g dt^2 n (n + 1) / 2 in n steps."""
    return G * dt * dt * n * (n + 1) / 2


def test_free_fall_matches_the_closed_form_on_the_cpu(cube: hooke.Model) -> None:
    world = hooke.CpuWorld(cube)
    n = world.step_for(0.2)
    assert n == 2000
    z = world.positions()[:, 2]
    start = cube.positions()[:, 2]
    # f64 rounding over 2000 steps stays below 1e-12 m; the springs stay at rest.
    np.testing.assert_allclose(z, start - drop(world.dt, n), rtol=0, atol=1e-9)
    vz = world.velocities()[:, 2]
    np.testing.assert_allclose(vz, -G * world.dt * n, rtol=0, atol=1e-9)


def test_a_thrown_cube_keeps_its_horizontal_velocity() -> None:
    positions, masses, springs = cube_arrays()
    velocities = np.tile([1.0, 0.0, 0.0], (8, 1))
    model = hooke.Model.from_arrays(positions, masses, springs, 1e4, 0.0, velocities=velocities)
    world = hooke.CpuWorld(model)
    world.step_for(0.2)
    com = world.bodies()["centre_of_mass"][0]
    assert abs(com[0] - (0.05 + 0.2)) < 1e-9
    assert abs(com[1] - 0.05) < 1e-12


def test_positions_are_float64_arrays_of_n_rows(cube: hooke.Model) -> None:
    world = hooke.CpuWorld(cube)
    for array in (world.positions(), world.velocities(), world.spring_forces()):
        assert array.dtype == np.float64
        assert array.shape == (8, 3)
        assert array.flags["C_CONTIGUOUS"]
    assert world.rest_lengths().shape == (28,)


def test_the_gpu_f32_world_follows_the_cpu_reference(cube: hooke.Model) -> None:
    gpu = gpu_world(cube)
    cpu = hooke.CpuWorld(cube)
    gpu.step_for(0.2)
    cpu.step_for(0.2)
    # f32 positions (about 1 m) round by at most half an ulp (6e-8 m) per step, velocities by
    # 6e-8 m/s: 2000 steps stay within 1.3e-4 m of the f64 reference.
    gap = np.abs(gpu.positions() - cpu.positions()).max()
    assert gap < 2e-4
    assert gap > 0.0  # f32 does round: the two are different computations


def test_the_gpu_f64_world_matches_the_cpu_reference_to_1e_12(cube: hooke.Model) -> None:
    gpu = gpu_world(cube, precision="f64")
    cpu = hooke.CpuWorld(cube)
    gpu.step_for(0.05)
    cpu.step_for(0.05)
    # In f64 the World stays within about 1e-13 m of the reference (the fixed-point force
    # quantum is about F / 2^48).
    assert np.abs(gpu.positions() - cpu.positions()).max() < 1e-12


def test_free_fall_energy_drifts_by_the_closed_form(cube: hooke.Model) -> None:
    world = hooke.CpuWorld(cube)
    e0 = world.energy()
    n = world.step_for(0.2)
    e1 = world.energy()
    # Semi-implicit Euler in free fall: kinetic m (g n dt)^2 / 2 against a potential drop of
    # m g * g dt^2 n (n + 1) / 2, so the mechanical energy changes by exactly -m g^2 dt^2 n / 2.
    expected = -0.5 * 0.8 * G * G * world.dt**2 * n
    assert abs((e1["total"] - e0["total"]) - expected) < 1e-9
    assert e1["elastic"] == pytest.approx(0.0, abs=1e-12)
    assert e1["balance"] == pytest.approx(e1["total"] + e1["dissipated"] - e1["injected"], abs=1e-15)
    assert set(e1) == {"kinetic", "gravity", "elastic", "ground", "dissipated", "injected", "total", "balance"}


@pytest.mark.parametrize("backend", ["cpu", "gpu"])
def test_reruns_are_bit_identical(backend: str) -> None:
    def run() -> bytes:
        model = cube_model(height=0.15)
        world = hooke.CpuWorld(model) if backend == "cpu" else gpu_world(model)
        world.step(1500)
        return world.positions().tobytes() + world.velocities().tobytes()

    assert run() == run()


@pytest.mark.parametrize("backend", ["cpu", "gpu"])
def test_reset_returns_to_the_first_run_bit_for_bit(backend: str) -> None:
    model = cube_model(height=0.15)
    world = hooke.CpuWorld(model) if backend == "cpu" else gpu_world(model)
    world.step(800)
    first = world.positions().tobytes()
    world.reset()
    assert world.time == 0.0 and world.steps == 0
    start = model.positions()
    if backend == "gpu":  # the f32 World stores the start rounded to f32
        start = start.astype(np.float32).astype(np.float64)
    np.testing.assert_array_equal(world.positions(), start)
    world.step(800)
    assert world.positions().tobytes() == first


def test_threads_do_not_change_the_bits() -> None:
    model = hooke.Model()
    model.add("lattice", hooke.Lattice(n=12))
    one = hooke.CpuWorld(model, threads=1)
    two = hooke.CpuWorld(model, threads=2)
    one.step(20)
    two.step(20)
    assert one.positions().tobytes() == two.positions().tobytes()


def test_bodies_report_the_mass_weighted_centre(cube: hooke.Model) -> None:
    world = hooke.CpuWorld(cube)
    world.step(100)
    bodies = world.bodies()
    assert bodies["mass"].tolist() == pytest.approx([0.8])
    np.testing.assert_allclose(bodies["centre_of_mass"][0], world.positions().mean(axis=0), atol=1e-12)
    np.testing.assert_allclose(bodies["mean_velocity"][0], world.velocities().mean(axis=0), atol=1e-12)
