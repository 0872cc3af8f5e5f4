"""Errors: one class per kind of hooke's error under hooke.HookeError, messages unchanged."""

from __future__ import annotations

import inspect
from pathlib import Path

import numpy as np
import pytest

import hooke
from hooke import _errors
from conftest import cube_model


def test_every_error_class_is_a_hooke_error_and_exported() -> None:
    classes = [c for _, c in inspect.getmembers(_errors, inspect.isclass)]
    assert len(classes) >= 35
    for c in classes:
        assert issubclass(c, hooke.HookeError)
        assert getattr(hooke, c.__name__) is c


def test_input_errors_are_value_errors_and_run_errors_are_not() -> None:
    assert issubclass(hooke.InvalidMassError, ValueError)
    assert issubclass(hooke.ArgumentError, ValueError)
    assert issubclass(hooke.SceneIoError, OSError)
    assert issubclass(hooke.IndexOutOfRangeError, IndexError)
    assert not issubclass(hooke.BlowUpError, ValueError)
    assert issubclass(hooke.NoAdapterError, hooke.GpuError)


def test_a_missing_scene_file_is_an_os_error_naming_it(tmp_path: Path) -> None:
    missing = tmp_path / "nowhere.json"
    with pytest.raises(hooke.SceneIoError, match=f"scene file {missing}"):
        hooke.Scene.load(missing)


def test_bad_scene_json_is_a_scene_parse_error() -> None:
    with pytest.raises(hooke.SceneParseError):
        hooke.Scene.from_json('{"version": "1", "bodies": [')


def test_an_index_past_the_end_is_an_index_error() -> None:
    world = hooke.CpuWorld(cube_model())
    with pytest.raises(hooke.IndexOutOfRangeError, match=r"mass index 8 is out of range \(the model has 8\)"):
        world.set_fixed([8])


def test_an_unknown_builder_field_names_the_builder_and_the_field() -> None:
    model = hooke.Model()
    with pytest.raises(hooke.InvalidBuilderError, match=r"^cube: unknown field `sise`"):
        model.add("cube", hooke.Cube(sise=0.1))


def test_an_unknown_parameter_is_refused() -> None:
    with pytest.raises(hooke.ArgumentError, match=r"params: unknown field `dtt`"):
        hooke.Model(dtt=1e-4)


def test_an_unknown_preset_is_refused() -> None:
    with pytest.raises(hooke.ArgumentError, match=r'preset "soft"'):
        hooke.Model("soft")  # type: ignore[arg-type]


def test_a_negative_time_step_is_hookes_invalid_parameter_error() -> None:
    with pytest.raises(hooke.InvalidParameterError, match=r"parameter dt = -0.001"):
        hooke.Model(dt=-1e-3)


def test_a_blow_up_stops_the_run_with_hookes_message() -> None:
    # dt far beyond 2 sqrt(m / k) = 6e-3 s: the explicit scheme explodes.
    model = cube_model(dt=0.05, gravity=[0.0, 0.0, 0.0])
    world = hooke.CpuWorld(model)
    world.set_external_forces([0], [[100.0, 0.0, 0.0]])
    with pytest.raises(hooke.SimulationError, match=r"smaller dt|stable"):
        world.step(10_000)


def test_a_bad_precision_is_refused() -> None:
    with pytest.raises(hooke.ArgumentError, match=r'precision "f16"'):
        hooke.World(cube_model(), precision="f16")  # type: ignore[arg-type]


def test_zero_threads_are_refused() -> None:
    with pytest.raises(hooke.ArgumentError, match="threads"):
        hooke.CpuWorld(cube_model(), threads=0)


def test_a_non_finite_command_array_is_refused() -> None:
    model = hooke.Model("robots")
    model.add("walker", hooke.CommandedWalker())
    world = hooke.CpuWorld(model)
    commands = np.zeros(world.commanded_count)
    commands[1] = np.nan
    with pytest.raises(hooke.ArgumentError, match=r"^commands\[1\]: NaN is not finite$"):
        world.set_commands(commands)
