"""Builders: each class describes one kind of body by keyword arguments, the same fields (and
the same defaults for those left out) as the body in a scene file. Give one to
:meth:`hooke.Model.add` or :meth:`hooke.Scene.add` with a placement; hooke's Rust builder makes
the masses and springs. An unknown field or a value out of range raises
:class:`hooke.InvalidBuilderError` (or the builder's own error) naming it."""

from __future__ import annotations

import json
import os
from typing import Any, ClassVar

from . import _hooke


def _json_value(value: Any) -> Any:
    """A field value ``json`` cannot write itself: a :class:`hooke.Material` as its fields."""
    if isinstance(value, _hooke.Material):
        return value.to_dict()
    raise TypeError(f"a builder field of type {type(value).__name__} cannot be written to a scene")


class Builder:
    """A body described by its fields (SI units: m, kg, N/m, N*s/m, rad/s)."""

    _type: ClassVar[str] = ""

    def __init__(self, **fields: Any) -> None:
        self.fields: dict[str, Any] = dict(fields)

    def _body_json(self) -> str:
        """The body as the scene format's JSON (``{"type": ..., fields...}``); a
        :class:`hooke.Material` anywhere in the fields is written as its fields."""
        return json.dumps({"type": self._type, **self.fields}, default=_json_value)

    def __repr__(self) -> str:
        args = ", ".join(f"{k}={v!r}" for k, v in self.fields.items())
        return f"{type(self).__name__}({args})"


class Cube(Builder):
    """Lipson's cube: 8 corner masses, 28 springs. Fields: size (m), corner_mass (kg),
    stiffness (N/m), damping (N*s/m), material (a :class:`hooke.Material`, a name such as
    ``"ecoflex_00_30"`` or ``{"young_modulus": Pa, "density": kg/m^3, "damping_ratio": 0.1}``,
    replacing the three)."""

    _type = "cube"


class VoxelBody(Builder):
    """Cubic voxels sharing corners. Fields: voxels (list of cells, each ``{"cell": [i, j, k]}``
    with optional stiffness, material and muscle), voxel_size (m), corner_mass (kg), stiffness,
    damping, material (as :class:`Cube`'s, replacing corner_mass, stiffness and damping)."""

    _type = "voxels"


class ImageBody(Builder):
    """A body from a black-and-white picture. Fields: path, spacing (m), mass (kg), stiffness,
    damping, threshold, theta0, h0, material (as :class:`Cube`'s, replacing mass, stiffness and
    damping: each pixel a square of side spacing and thickness spacing, the springs an isotropic
    sheet of the material's Young's modulus). The picture's file is read within the input-file
    size limit and its header's dimensions checked (at most 4096 x 4096 pixels) before it is
    decoded."""

    _type = "image"


class MeshBody(Builder):
    """A solid from a closed triangle mesh file (``.obj``, or ``.stl`` binary or ASCII),
    voxelized at voxel size ``voxel`` (m) into a voxel body of ``material`` (as
    :class:`Cube`'s). Fields (all required): path (a str or path-like; in a scene file relative
    to its folder), voxel, material. A mesh that cannot be read, is not closed, or gives no voxel
    or too many raises :class:`hooke.MeshError` naming the file."""

    _type = "mesh"

    def __init__(self, **fields: Any) -> None:
        if "path" in fields:
            fields["path"] = os.fspath(fields["path"])
        super().__init__(**fields)


class TetMeshBody(Builder):
    """A solid from a tetrahedral mesh file (Gmsh ``.msh``, ASCII format 4.1 or 2.2): one mass
    per node, one spring per edge of the tetrahedra, of ``material`` (as :class:`Cube`'s).
    Fields: path (required; a str or path-like, in a scene file relative to its folder),
    material (required), scale (m per unit of the file's coordinates, default 1; 0.001 for a
    file in millimetres). A file that cannot be read, a missing node, an inverted or flat
    tetrahedron, or a file without tetrahedra raises :class:`hooke.MeshError` naming the file
    and the line."""

    _type = "tet_mesh"

    def __init__(self, **fields: Any) -> None:
        if "path" in fields:
            fields["path"] = os.fspath(fields["path"])
        super().__init__(**fields)


class Rope(Builder):
    """A chain of masses. Fields: segments, length (m), mass (kg), stiffness, damping,
    bending_stiffness, direction, fix_first, law."""

    _type = "rope"


class Cloth(Builder):
    """A grid of masses with structural, shear and bending springs. Fields: nx, ny, spacing (m),
    mass (kg), structural, shear, bending, damping, pinned, law."""

    _type = "cloth"


class RandomStructure(Builder):
    """Randomly placed masses joined to their nearest neighbours. Fields: masses, size (m),
    mass (kg), connections, min_spacing (m), stiffness, damping, seed."""

    _type = "random"


class Lattice(Builder):
    """The benchmark lattice: n x n x n masses, each joined to its 26 neighbours. Fields: n,
    spacing (m), mass (kg), stiffness, damping, z0 (m), material (as :class:`Cube`'s,
    replacing mass, stiffness and damping)."""

    _type = "lattice"


class WalkingRobot(Builder):
    """The voxel walking robot with sine muscles. Fields: voxel_size, body_length, body_width,
    leg_height, corner_mass, stiffness, damping, omega, stride, lift."""

    _type = "walking_robot"


class CommandedWalker(Builder):
    """The walking robot with commanded muscles (driven by ``set_commands`` or a controller);
    the fields of :class:`WalkingRobot`."""

    _type = "commanded_walker"


class Inchworm(Builder):
    """An inchworm that crawls by friction control. Fields: segments, segment_length, width,
    height, mass, stiffness, damping, omega, stretch, friction_min, friction_max."""

    _type = "inchworm"


class Wheel(Builder):
    """A rolling wheel of spokes. Fields: spokes, radius, width, mass, hub_mass, stiffness,
    rim_stiffness, damping, kick, step_time, active_steps."""

    _type = "wheel"


class BreathingCube(Builder):
    """A cube whose springs breathe. Fields: cube (a :class:`Cube`'s fields), amplitude, omega."""

    _type = "breathing_cube"


class Pendulum(Builder):
    """A cube hanging from a fixed pivot. Fields: cube, pivot_height."""

    _type = "pendulum"


class DroppedStructure(Builder):
    """One of Lipson's structures, dropped. Fields: kind, height, rotation."""

    _type = "dropped_structure"


__all__ = [
    "Builder",
    "Cube",
    "VoxelBody",
    "ImageBody",
    "MeshBody",
    "TetMeshBody",
    "Rope",
    "Cloth",
    "RandomStructure",
    "Lattice",
    "WalkingRobot",
    "CommandedWalker",
    "Inchworm",
    "Wheel",
    "BreathingCube",
    "Pendulum",
    "DroppedStructure",
]
