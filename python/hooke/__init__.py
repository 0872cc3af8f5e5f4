"""hooke: mass-spring physics on the GPU (wgpu compute shaders) with a double-precision CPU
reference, from Python.

Build a :class:`Model` from numpy arrays (:meth:`Model.from_arrays`), from builders
(:class:`Cube`, :class:`Rope`, :class:`Cloth`, ...) or from a :class:`Scene` file; step it on
the CPU reference (:class:`CpuWorld`, f64) or the GPU (:class:`World`, f32 or f64): both have
the same methods. Positions and velocities come back as ``(N, 3)`` float64 arrays; every call
that steps releases the GIL, so Python threads stepping different worlds run in parallel.

SI units everywhere (m, kg, s, N), z up, gravity ``(0, 0, -9.81)`` m/s^2 by default, the ground
is the plane ``z = 0``.
"""

from __future__ import annotations

from . import _builders, _errors, _population
from ._builders import *  # noqa: F403 (the builders, listed in _builders.__all__)
from ._errors import *  # noqa: F403 (the exception classes, listed in _errors.__all__)
from ._hooke import CpuWorld, Device, Material, Model, Readings, Scene, Simulation, World, record
from ._hooke import max_input_bytes
from ._hooke import frames
from ._population import *  # noqa: F403 (evaluate, evolve and their results, in _population.__all__)

__all__ = ["Model", "Scene", "Simulation", "CpuWorld", "World", "Device", "Material", "Readings", "record"]
__all__ += ["max_input_bytes"]
__all__ += _builders.__all__
__all__ += _errors.__all__
__all__ += ["frames"]
__all__ += _population.__all__
