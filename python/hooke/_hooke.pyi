"""Types of the compiled module (hooke._hooke); the package re-exports every name."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any, Callable, Literal, Optional, Sequence, Union

import numpy as np
import numpy.typing as npt

from ._builders import Builder

_F64 = npt.NDArray[np.float64]
_Triple = tuple[float, float, float]
_Path = Union[str, os.PathLike[str]]
_Preset = Optional[Literal["lipson_cube", "robots", "cloth"]]

class Model:
    def __init__(self, preset: _Preset = None, **params: Any) -> None: ...
    @staticmethod
    def from_arrays(
        positions: npt.ArrayLike,
        masses: npt.ArrayLike,
        springs: npt.ArrayLike,
        stiffness: npt.ArrayLike,
        damping: npt.ArrayLike,
        rest_lengths: Optional[npt.ArrayLike] = None,
        *,
        velocities: Optional[npt.ArrayLike] = None,
        fixed: Optional[npt.ArrayLike] = None,
        name: str = "body",
        preset: _Preset = None,
        **params: Any,
    ) -> Model: ...
    def add_arrays(
        self,
        name: str,
        positions: npt.ArrayLike,
        masses: npt.ArrayLike,
        springs: npt.ArrayLike,
        stiffness: npt.ArrayLike,
        damping: npt.ArrayLike,
        rest_lengths: Optional[npt.ArrayLike] = None,
        velocities: Optional[npt.ArrayLike] = None,
        fixed: Optional[npt.ArrayLike] = None,
    ) -> int: ...
    def add(
        self,
        name: str,
        builder: Builder,
        position: _Triple = (0.0, 0.0, 0.0),
        rotation: _Triple = (0.0, 0.0, 0.0),
        velocity: _Triple = (0.0, 0.0, 0.0),
    ) -> int: ...
    @property
    def mass_count(self) -> int: ...
    @property
    def spring_count(self) -> int: ...
    @property
    def dt(self) -> float: ...
    def bodies(self) -> list[tuple[str, range, range]]: ...
    def positions(self) -> _F64: ...
    def masses(self) -> _F64: ...
    def springs(self) -> npt.NDArray[np.int64]: ...
    def rest_lengths(self) -> _F64: ...
    def stiffness(self) -> _F64: ...
    def params(self) -> dict[str, Any]: ...

class Scene:
    def __init__(self, preset: _Preset = None, **params: Any) -> None: ...
    @staticmethod
    def load(path: _Path) -> Scene: ...
    @staticmethod
    def from_json(text: str) -> Scene: ...
    def to_json(self) -> str: ...
    def save(self, path: _Path) -> None: ...
    def add(
        self,
        name: str,
        builder: Builder,
        position: _Triple = (0.0, 0.0, 0.0),
        rotation: _Triple = (0.0, 0.0, 0.0),
        velocity: _Triple = (0.0, 0.0, 0.0),
    ) -> int: ...
    @property
    def body_count(self) -> int: ...
    def to_model(self) -> Model: ...

class Readings:
    @property
    def time(self) -> float: ...
    @property
    def centre_of_mass(self) -> _F64: ...
    @property
    def mean_velocity(self) -> _F64: ...
    @property
    def orientation(self) -> Optional[_F64]: ...
    @property
    def angular_velocity(self) -> Optional[_F64]: ...
    @property
    def touching(self) -> npt.NDArray[np.bool_]: ...
    @property
    def normal_force(self) -> _F64: ...
    @property
    def spring_length(self) -> _F64: ...
    @property
    def strain(self) -> _F64: ...

_Indices = Optional[Union[npt.ArrayLike, Sequence[int]]]

class Simulation:
    def step(self, n: int) -> None: ...
    def step_for(self, seconds: float) -> int: ...
    def reset(self) -> None: ...
    def reset_bodies(self, bodies: npt.ArrayLike) -> None: ...
    @property
    def time(self) -> float: ...
    @property
    def steps(self) -> int: ...
    @property
    def dt(self) -> float: ...
    @property
    def mass_count(self) -> int: ...
    @property
    def spring_count(self) -> int: ...
    @property
    def commanded_count(self) -> int: ...
    def positions(self) -> _F64: ...
    def velocities(self) -> _F64: ...
    def rest_lengths(self) -> _F64: ...
    def state_hash(self) -> str: ...
    def body_hashes(self) -> list[str]: ...
    def snapshot(self) -> bytes: ...
    def restore(self, snapshot: bytes) -> None: ...
    def save_snapshot(self, path: _Path) -> None: ...
    def load_snapshot(self, path: _Path) -> None: ...
    def spring_forces(self) -> _F64: ...
    def energy(self) -> dict[str, float]: ...
    def bodies(self) -> dict[str, _F64]: ...
    def set_external_forces(self, masses: npt.ArrayLike, forces: npt.ArrayLike) -> None: ...
    def set_fixed(self, masses: npt.ArrayLike, fixed: npt.ArrayLike = True) -> None: ...
    def set_rest_lengths(self, springs: npt.ArrayLike, rest_lengths: npt.ArrayLike) -> None: ...
    def set_actuators(
        self,
        actuators: npt.ArrayLike,
        *,
        amplitude: Optional[npt.ArrayLike] = None,
        omega: Optional[npt.ArrayLike] = None,
        phase: Optional[npt.ArrayLike] = None,
    ) -> None: ...
    def set_commands(self, commands: npt.ArrayLike) -> None: ...
    def sense(
        self,
        bodies: _Indices = None,
        orientation: bool = False,
        contacts: _Indices = None,
        springs: _Indices = None,
    ) -> Readings: ...
    def run_control(
        self,
        controller: Callable[[Readings], npt.ArrayLike],
        seconds: float,
        *,
        period: int,
        bodies: _Indices = None,
        orientation: bool = False,
        contacts: _Indices = None,
        springs: _Indices = None,
    ) -> tuple[int, int]: ...

class CpuWorld(Simulation):
    def __init__(self, model: Model, threads: Optional[int] = None) -> None: ...

class World(Simulation):
    def __init__(self, model: Model, precision: Literal["f32", "f64"] = "f32") -> None: ...
    @property
    def adapter(self) -> str: ...

def record(
    world: Simulation,
    path: _Path,
    seconds: float = 2.0,
    *,
    frame_time: float = 0.04,
    size: tuple[int, int] = (480, 360),
) -> tuple[Path, Path]: ...

def robot_herd(
    count: int,
    *,
    robot: Optional[Builder] = None,
    genome: Optional[dict[str, Any]] = None,
    genome_settings: Optional[dict[str, Any]] = None,
    params: Optional[dict[str, Any]] = None,
) -> tuple[Model, dict[str, Any]]: ...

def frames(
    world: Simulation,
    directory: _Path,
    seconds: float = 2.0,
    *,
    every: float = 0.04,
    size: tuple[int, int] = (480, 360),
    stem: str = "frame",
) -> list[Path]:
    """Runs `world` for `seconds` s and writes a PNG of `size` pixels every `every` s of
    simulated time (frame 0 the start) as `<directory>/<stem>_00000.png`, ... (the GIF and the
    energy plot of the run beside them); the GIL released. Returns the PNG paths in order."""
    ...

def evaluate_population(
    text: str,
    base_dir: _Path,
    backend: Optional[str] = None,
    threads: Optional[int] = None,
    checkpoint: Optional[_Path] = None,
    checkpoint_every: str = "60s",
    resume: bool = False,
) -> dict[str, Any]:
    """A population file's text evaluated as `hooke eval` does (use `hooke.evaluate`)."""
    ...

def evolve_population(
    evolution: str,
    evaluation: Optional[str] = None,
    backend: Optional[str] = None,
    threads: Optional[int] = None,
    callback: Optional[Callable[[int, dict[str, Any]], object]] = None,
    evaluate: Optional[Callable[[npt.NDArray[np.uint16], Sequence[int]], _F64]] = None,
    checkpoint: Optional[_Path] = None,
    resume: bool = False,
) -> dict[str, Any]:
    """The evolution of `hooke evolve`'s settings, as JSON (use `hooke.evolve`): each
    generation evaluated here or by `evaluate(codes, size)`, a checkpoint written to
    `checkpoint` after every generation and, with `resume`, continued from."""
    ...

class Evaluator:
    """A backend opened once for many evaluations (`hooke.Evaluator` is its subclass)."""

    def __init__(self, backend: Optional[str] = None, threads: Optional[int] = None) -> None: ...
    @property
    def backend(self) -> str:
        """`"cpu"` or `"gpu"`: what runs."""
        ...
    @property
    def adapter(self) -> Optional[str]:
        """The GPU adapter as one line, or `None` on the CPU."""
        ...
    def population_share(
        self, text: str, base_dir: _Path, start: Optional[int] = None, end: Optional[int] = None
    ) -> dict[str, Any]:
        """Robots `start..end` of a population file's text, as `hooke eval --range` evaluates them."""
        ...
    def genome_rows(
        self, genomes: npt.NDArray[np.uint16], size: Sequence[int], evolution: str, evaluation: Optional[str] = None
    ) -> dict[str, Any]:
        """Cell codes `(n, x*y*z)`, x fastest, evaluated as a generation of `hooke.evolve`."""
        ...

def split_share_range(total: int, k: int, n: int) -> tuple[int, int]:
    """Share `k` of `n` of a batch of `total` robots, as `hooke eval --split k/n` takes it."""
    ...
