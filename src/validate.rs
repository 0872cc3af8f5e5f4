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

/// Checks `value` is finite and > 0.
pub(crate) fn positive(name: &'static str, value: f64, expected: &'static str) -> Result<()> {
    require(value.is_finite() && value > 0.0, name, value, expected)
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
