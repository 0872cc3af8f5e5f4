//! The small parameter checks shared by the model, the builders, the creatures and scenes.
//!
//! Each returns [`Error::InvalidParameter`] naming the parameter, the value given and what was
//! expected (`expected` is the message the user reads, with the unit, e.g.
//! `"must be finite and > 0 (m)"`).

use crate::error::{Error, Result};

/// `Ok` when `ok` holds, else [`Error::InvalidParameter`] with `name`, `value` and `expected`.
pub(crate) fn require(
    ok: bool,
    name: &'static str,
    value: f64,
    expected: &'static str,
) -> Result<()> {
    if ok {
        Ok(())
    } else {
        Err(Error::InvalidParameter {
            name,
            value,
            expected,
        })
    }
}

/// Checks `value` is finite.
pub(crate) fn finite(name: &'static str, value: f64, expected: &'static str) -> Result<()> {
    require(value.is_finite(), name, value, expected)
}

/// The largest value a positive parameter (a length, a mass, a stiffness, a time step) may
/// take: its square, and the distances and energies made from it, must stay finite.
pub(crate) const HUGE: f64 = 1e150;

/// Checks `value` is finite and > 0 (and at most [`HUGE`]).
pub(crate) fn positive(name: &'static str, value: f64, expected: &'static str) -> Result<()> {
    require(value.is_finite() && value > 0.0, name, value, expected)?;
    require(
        value <= HUGE,
        name,
        value,
        "is too large: at most 1e150, so that its square stays finite",
    )
}

/// Checks `value` is finite and >= 0.
pub(crate) fn non_negative(name: &'static str, value: f64, expected: &'static str) -> Result<()> {
    require(value.is_finite() && value >= 0.0, name, value, expected)
}

/// Checks `value` is finite and in `[0, max)`.
pub(crate) fn fraction(
    name: &'static str,
    value: f64,
    max: f64,
    expected: &'static str,
) -> Result<()> {
    require(
        value.is_finite() && (0.0..max).contains(&value),
        name,
        value,
        expected,
    )
}

/// Checks the count `value` is at least `min` (the error reports it as an `f64`).
pub(crate) fn at_least(
    name: &'static str,
    value: usize,
    min: usize,
    expected: &'static str,
) -> Result<()> {
    require(value >= min, name, value as f64, expected)
}

/// The most masses plus springs (or obstacles, or terrain samples) one builder, creature,
/// terrain or pile may make from its counts: 2^27 = 134 217 728, five times the benchmark
/// lattice at n = 120 (1.7 M masses, 22 M springs). A larger request is refused before anything
/// is allocated, so a mistyped count in a scene file cannot exhaust memory.
pub const MAX_BUILT_ELEMENTS: f64 = 134_217_728.0;

/// The message of a count that makes more than [`MAX_BUILT_ELEMENTS`] elements.
const TOO_MANY: &str = "makes more than 134217728 masses and springs (hooke::MAX_BUILT_ELEMENTS), \
                        more than one body may have";

/// Checks that the count `value` of parameter `name`, which makes `elements` masses, springs,
/// obstacles or samples in all (an estimate from above, computed in `f64` so that it cannot
/// overflow), stays within [`MAX_BUILT_ELEMENTS`].
pub(crate) fn buildable(name: &'static str, value: f64, elements: f64) -> Result<()> {
    require(elements <= MAX_BUILT_ELEMENTS, name, value, TOO_MANY)
}
