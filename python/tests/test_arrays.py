"""numpy in: shapes, dtypes and finite values checked, the message naming the array and the
row; hooke's own checks raise their own classes."""

from __future__ import annotations

import numpy as np
import pytest

import hooke
from conftest import cube_arrays


def build(**change: object) -> hooke.Model:
    positions, masses, springs = cube_arrays()
    args: dict[str, object] = {
        "positions": positions,
        "masses": masses,
        "springs": springs,
        "stiffness": 1e4,
        "damping": 0.0,
    }
    args.update(change)
    return hooke.Model.from_arrays(**args)  # type: ignore[arg-type]


def test_a_non_finite_position_names_the_array_and_the_row() -> None:
    positions, _, _ = cube_arrays()
    positions[5, 1] = np.nan
    with pytest.raises(hooke.ArgumentError, match=r"^positions row 5: NaN is not finite$"):
        build(positions=positions)


def test_an_infinite_mass_names_its_index() -> None:
    masses = np.full(8, 0.1)
    masses[3] = np.inf
    with pytest.raises(hooke.ArgumentError, match=r"^masses\[3\]: inf is not finite$"):
        build(masses=masses)


def test_positions_of_the_wrong_shape_say_what_was_expected() -> None:
    with pytest.raises(hooke.ArgumentError, match=r"positions: expected shape \(N, 3\), got \(8, 2\)"):
        build(positions=np.zeros((8, 2)))


def test_masses_must_have_one_row_per_position() -> None:
    with pytest.raises(hooke.ArgumentError, match=r"masses: expected shape \(8,\), got \(7,\)"):
        build(masses=np.full(7, 0.1))


def test_a_string_array_is_refused_by_its_dtype() -> None:
    with pytest.raises(hooke.ArgumentError, match=r"masses: dtype <U3 is not a real number type"):
        build(masses=np.array(["0.1"] * 8))


def test_float_spring_indices_are_refused() -> None:
    _, _, springs = cube_arrays()
    with pytest.raises(hooke.ArgumentError, match=r"springs: dtype float64 is not an integer type"):
        build(springs=springs.astype(np.float64))


def test_a_spring_to_a_missing_mass_names_the_row() -> None:
    _, _, springs = cube_arrays()
    springs[11, 1] = 8
    with pytest.raises(hooke.ArgumentError, match=r"^springs row 11: index 8 is out of range \(positions has 8\)$"):
        build(springs=springs)


def test_a_negative_spring_index_names_the_row() -> None:
    _, _, springs = cube_arrays()
    springs[2, 0] = -1
    with pytest.raises(hooke.ArgumentError, match=r"^springs row 2: index -1 is negative$"):
        build(springs=springs)


def test_a_ragged_list_is_not_an_array() -> None:
    with pytest.raises(hooke.ArgumentError, match=r"^positions: not an array of numbers"):
        build(positions=[[0.0, 0.0, 0.0], [1.0, 2.0]])


def test_bad_input_is_also_a_value_error() -> None:
    with pytest.raises(ValueError):
        build(masses=np.full(8, np.nan))


def test_a_zero_mass_is_hookes_invalid_mass_error_with_its_message() -> None:
    masses = np.full(8, 0.1)
    masses[6] = 0.0
    with pytest.raises(hooke.InvalidMassError, match=r"^mass 6 has mass 0 kg; it must be finite and > 0$"):
        build(masses=masses)


def test_a_spring_joining_a_mass_to_itself_is_refused() -> None:
    _, _, springs = cube_arrays()
    springs[4] = [2, 2]
    with pytest.raises(hooke.SelfSpringError, match=r"spring 4 joins mass 2 to itself"):
        build(springs=springs)


def test_a_negative_stiffness_names_the_spring() -> None:
    stiffness = np.full(28, 1e4)
    stiffness[9] = -1.0
    with pytest.raises(hooke.InvalidSpringParameterError, match=r"spring 9 has stiffness = -1"):
        build(stiffness=stiffness)


def test_a_failed_add_leaves_the_model_unchanged() -> None:
    model = build()
    positions, masses, springs = cube_arrays()
    masses[0] = -1.0
    with pytest.raises(hooke.InvalidMassError):
        model.add_arrays("second", positions, masses, springs, 1e4, 0.0)
    assert model.mass_count == 8 and len(model.bodies()) == 1


def test_scalars_and_arrays_give_the_same_springs() -> None:
    a = build(stiffness=2e4, damping=1.5)
    b = build(stiffness=np.full(28, 2e4), damping=np.full(28, 1.5))
    np.testing.assert_array_equal(a.stiffness(), b.stiffness())
    np.testing.assert_array_equal(a.stiffness(), np.full(28, 2e4))


def test_rest_lengths_default_to_the_initial_distances() -> None:
    positions, _, springs = cube_arrays()
    model = build()
    expected = np.linalg.norm(positions[springs[:, 0]] - positions[springs[:, 1]], axis=1)
    np.testing.assert_array_equal(model.rest_lengths(), expected)
    np.testing.assert_array_equal(model.springs(), springs)
    assert model.springs().dtype == np.int64


def test_given_rest_lengths_make_a_stretched_cube_spring_back() -> None:
    positions, _, springs = cube_arrays()
    rest = 0.9 * np.linalg.norm(positions[springs[:, 0]] - positions[springs[:, 1]], axis=1)
    world = hooke.CpuWorld(build(rest_lengths=rest, gravity=[0.0, 0.0, 0.0]))
    world.step(50)
    # Every spring starts 10 % too long: the cube shrinks towards its centre.
    centre = positions.mean(axis=0)
    before = np.linalg.norm(positions - centre, axis=1)
    after = np.linalg.norm(world.positions() - centre, axis=1)
    assert (after < before).all()


def test_float32_and_integer_inputs_are_converted() -> None:
    positions, masses, springs = cube_arrays()
    model = build(positions=positions.astype(np.float32), masses=np.ones(8, dtype=np.int32), springs=springs.astype(np.uint16))
    np.testing.assert_array_equal(model.masses(), np.ones(8))
    np.testing.assert_array_equal(model.positions(), positions.astype(np.float32).astype(np.float64))


def test_non_contiguous_arrays_are_read_correctly() -> None:
    positions, masses, springs = cube_arrays()
    wide = np.zeros((8, 6))
    wide[:, ::2] = positions
    model = build(positions=wide[:, ::2])
    np.testing.assert_array_equal(model.positions(), positions)


def test_velocities_and_fixed_masses_from_arrays() -> None:
    positions, _, _ = cube_arrays()
    fixed = np.zeros(8, dtype=bool)
    fixed[[0, 1]] = True
    velocities = np.zeros((8, 3))
    velocities[:, 0] = 0.5
    world = hooke.CpuWorld(build(velocities=velocities, fixed=fixed))
    world.step(100)
    p = world.positions()
    np.testing.assert_array_equal(p[:2], positions[:2])  # fixed: not a bit moved
    assert (p[2:, 0] != positions[2:, 0]).any()


def test_fixed_must_be_bool() -> None:
    with pytest.raises(hooke.ArgumentError, match=r"fixed: dtype int64 is not bool"):
        build(fixed=np.zeros(8, dtype=np.int64))
