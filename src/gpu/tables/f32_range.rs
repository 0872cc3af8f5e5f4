//! Whether a value fits the device's f32: the tests [`check_f32`](super::check_f32) and the
//! obstacle table's check are made of, each error naming the element and field.

use glam::DVec3;

use crate::error::{Error, Result};

/// [`Error::OutOfF32Range`] unless `value` is finite in f32 (at most `f32::MAX` in magnitude).
pub(crate) fn fits_f32(
    element: impl FnOnce() -> String,
    field: &'static str,
    value: f64,
) -> Result<()> {
    f32_where(f32::is_finite, element, field, value)
}

/// As [`fits_f32`], for a vector (m, m/s, N).
pub(crate) fn fits_f32_vec(
    element: impl Fn() -> String,
    field: &'static str,
    v: DVec3,
) -> Result<()> {
    for c in v.to_array() {
        fits_f32(&element, field, c)?;
    }
    Ok(())
}

/// [`Error::OutOfF32Range`] unless `value` is a normal f32 (a quantity the kernels divide by:
/// mass, dt, material rest length; 0 and subnormals would turn the division infinite).
pub(crate) fn normal_f32(
    element: impl FnOnce() -> String,
    field: &'static str,
    value: f64,
) -> Result<()> {
    f32_where(f32::is_normal, element, field, value)
}

/// [`Error::OutOfF32Range`] unless `value`, rounded to f32, passes `ok`.
fn f32_where(
    ok: fn(f32) -> bool,
    element: impl FnOnce() -> String,
    field: &'static str,
    value: f64,
) -> Result<()> {
    if ok(value as f32) {
        Ok(())
    } else {
        Err(Error::OutOfF32Range {
            element: element(),
            field,
            value,
        })
    }
}
