"""The exceptions hooke raises: one class per kind of Rust ``hooke::Error``, all under
:class:`HookeError`. Bad input is also a :class:`ValueError` (an index out of range an
:class:`IndexError`, a file that cannot be read or written an :class:`OSError`), so code that
catches the built-in kinds keeps working. Messages are the Rust crate's, unchanged."""

from __future__ import annotations


class HookeError(Exception):
    """Base class of every error hooke raises."""


class ArgumentError(HookeError, ValueError):
    """An argument the Python binding rejects before hooke sees it: an array of the wrong
    shape or dtype, a non-finite value (the message names the array and the row), an unknown
    preset or precision, a parameter field that does not exist."""


class InvalidInputError(HookeError, ValueError):
    """Base of the errors of a model, parameter or command that hooke refuses."""


class SpringMassOutOfRangeError(InvalidInputError):
    """A spring joins a mass the model does not have."""


class SelfSpringError(InvalidInputError):
    """A spring joins a mass to itself."""


class InvalidMassError(InvalidInputError):
    """A mass is not finite and > 0 kg."""


class InvalidCollisionRadiusError(InvalidInputError):
    """A collision radius is not finite and >= 0 m."""


class InvalidCollisionClassError(InvalidInputError):
    """A collision class is not below the number of classes."""


class InvalidClassCollisionError(InvalidInputError):
    """A class-collision rule is invalid."""


class NonFiniteInitialStateError(InvalidInputError):
    """A mass starts with a non-finite position, velocity or external force."""


class InvalidSpringParameterError(InvalidInputError):
    """A spring's stiffness, damping or rest length is not finite and >= 0."""


class ZeroRestLengthError(InvalidInputError):
    """A material-law spring has rest length 0."""


class InvalidActuatorError(InvalidInputError):
    """An actuator is invalid."""


class InvalidFrictionOscillatorError(InvalidInputError):
    """A friction oscillator is invalid."""


class InvalidObstacleError(InvalidInputError):
    """An obstacle is invalid."""


class InvalidCommandError(InvalidInputError):
    """A command is not finite."""


class InvalidParameterError(InvalidInputError):
    """A parameter is out of its range."""


class InvalidBuilderError(InvalidInputError):
    """A builder's fields are invalid (or unknown to it)."""


class LengthMismatchError(InvalidInputError):
    """Two lists that must be as long as each other are not."""


class OutOfF32RangeError(InvalidInputError):
    """A value is outside the f32 range the GPU World computes in."""


class EmptyImageError(InvalidInputError):
    """An image body's picture has no black pixel."""


class MeshError(InvalidInputError):
    """A mesh body's triangle mesh cannot be read, is not closed, or gives no voxels or too
    many at its voxel size."""


class SceneParseError(InvalidInputError):
    """A scene file is not valid scene JSON."""


class SceneVersionError(InvalidInputError):
    """A scene file has a format version this hooke does not read."""


class IndexOutOfRangeError(HookeError, IndexError):
    """An index (mass, spring, body, actuator) past the end."""


class SceneIoError(HookeError, OSError):
    """A scene file cannot be read or written."""


class InputTooLargeError(SceneIoError):
    """An input file is larger than the size limit (64 MiB; ``HOOKE_MAX_INPUT_BYTES`` raises it)."""


class ImageReadError(HookeError, OSError):
    """An image cannot be read."""


class ImageTooLargeError(ImageReadError):
    """An image body's picture has more pixels than an image body may have (its header is read
    before it is decoded)."""


class ImageWriteError(HookeError, OSError):
    """An image cannot be written."""


class PlotError(HookeError, OSError):
    """A plot cannot be drawn or written."""


class SimulationError(HookeError, ArithmeticError):
    """Base of the errors that stop a run: the simulation diverged."""


class NonFiniteError(SimulationError):
    """A mass became non-finite (its index in ``mass``)."""

    mass: int


class BlowUpError(SimulationError):
    """A mass moved faster than any stable run of the model can (its index in ``mass``)."""

    mass: int


class FixedPointOverflowError(SimulationError):
    """A force overflowed the GPU World's fixed-point sums."""


class SnapshotError(HookeError, ValueError):
    """A snapshot or checkpoint that cannot be read or restored: truncated, corrupted, of
    another format version, backend, precision or model."""


class GpuError(HookeError, RuntimeError):
    """Base of the GPU's errors (and a wgpu error as it is)."""


class NoAdapterError(GpuError):
    """No GPU adapter was found."""


class DeviceLimitError(GpuError):
    """The model needs more than the device allows."""


class DeviceUnsupportedError(GpuError):
    """The adapter lacks a feature the task needs."""


class DeviceMismatchError(GpuError):
    """Two objects run on different wgpu devices."""


class DeviceLostError(GpuError):
    """The GPU device was lost."""


__all__ = [
    "HookeError",
    "ArgumentError",
    "InvalidInputError",
    "SpringMassOutOfRangeError",
    "SelfSpringError",
    "InvalidMassError",
    "InvalidCollisionRadiusError",
    "InvalidCollisionClassError",
    "InvalidClassCollisionError",
    "NonFiniteInitialStateError",
    "InvalidSpringParameterError",
    "ZeroRestLengthError",
    "InvalidActuatorError",
    "InvalidFrictionOscillatorError",
    "InvalidObstacleError",
    "InvalidCommandError",
    "InvalidParameterError",
    "InvalidBuilderError",
    "LengthMismatchError",
    "OutOfF32RangeError",
    "EmptyImageError",
    "MeshError",
    "SceneParseError",
    "SceneVersionError",
    "IndexOutOfRangeError",
    "SceneIoError",
    "InputTooLargeError",
    "ImageReadError",
    "ImageTooLargeError",
    "ImageWriteError",
    "PlotError",
    "SimulationError",
    "NonFiniteError",
    "BlowUpError",
    "FixedPointOverflowError",
    "SnapshotError",
    "GpuError",
    "NoAdapterError",
    "DeviceLimitError",
    "DeviceUnsupportedError",
    "DeviceMismatchError",
    "DeviceLostError",
]
