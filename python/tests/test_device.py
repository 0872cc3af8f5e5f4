"""hooke.Device: a GPU device opened with chosen limits (the adapter's, WebGPU's defaults, or
single limits set by name), the device memory a model needs on it before anything is made, and
Worlds built on it, falling back to a path that fits; a limit too small for any path is refused
by name."""

from __future__ import annotations

import os

import numpy as np
import pytest

import hooke
from conftest import cube_model


def device(limits: str = "adapter", **overrides: int) -> hooke.Device:
    if os.environ.get("HOOKE_SKIP_GPU_TESTS") == "1":
        pytest.skip("HOOKE_SKIP_GPU_TESTS=1")
    return hooke.Device(limits, **overrides)  # type: ignore[arg-type]


def lattice(n: int) -> hooke.Model:
    model = hooke.Model()
    model.add("lattice", hooke.Lattice(n=n))
    return model


def test_memory_needed_is_what_a_world_on_the_device_holds() -> None:
    d = device()
    assert d.adapter
    assert d.limits["max_storage_buffers_per_shader_stage"] >= 8
    for model in (cube_model(), lattice(6)):
        planned = d.memory_needed(model)
        world = hooke.World(model, device=d)
        assert planned == world.device_memory
        assert all(isinstance(v, int) and v > 0 for v in planned.values())
    # More masses and springs, more memory: the sums are the buffers', not a constant.
    assert sum(d.memory_needed(lattice(8)).values()) > sum(d.memory_needed(lattice(6)).values())


def test_a_world_on_fewer_storage_buffers_falls_back_to_a_path_that_fits_with_the_same_bits() -> None:
    # 10 storage buffers per stage: the stencil spring pass (11) does not fit, the link variant
    # (10) does; both give the same bits (ARCHITECTURE.md, "Bindings per kernel").
    ten = device(max_storage_buffers_per_shader_stage=10)
    assert ten.limits["max_storage_buffers_per_shader_stage"] == 10
    own = device()
    model = lattice(5)
    worlds = [hooke.World(model, device=ten), hooke.World(model, device=own)]
    for w in worlds:
        w.step(200)
    np.testing.assert_array_equal(worlds[0].positions(), worlds[1].positions())
    assert not np.array_equal(worlds[0].positions(), model.positions())


def test_a_limit_too_small_for_any_path_is_refused_by_name() -> None:
    # WebGPU's defaults allow 8 storage buffers per stage; the spring pass needs 10.
    webgpu = device("webgpu")
    assert webgpu.limits["max_storage_buffers_per_shader_stage"] == 8
    with pytest.raises(hooke.DeviceUnsupportedError, match="max_storage_buffers_per_shader_stage >= 10"):
        webgpu.memory_needed(cube_model())
    with pytest.raises(hooke.DeviceUnsupportedError, match="max_storage_buffers_per_shader_stage"):
        hooke.World(cube_model(), device=webgpu)
    small_buffers = device(max_buffer_size=1024)
    with pytest.raises(hooke.DeviceLimitError, match="max_buffer_size"):
        small_buffers.memory_needed(lattice(12))


def test_bad_limits_are_argument_errors() -> None:
    with pytest.raises(hooke.ArgumentError, match="max_storage_buffers_per_shader_stage"):
        hooke.Device(no_such_limit=1)
    with pytest.raises(hooke.ArgumentError, match="webgpu"):
        hooke.Device("huge")  # type: ignore[arg-type]
    with pytest.raises(hooke.ArgumentError, match="max_bind_groups"):
        hooke.Device(max_bind_groups=-1)
