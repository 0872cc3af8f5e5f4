//! The checks every kind of shape runs on its values ([`Shape::check`](super::Shape::check)):
//! each says what is wrong, in words the obstacle's error carries.

use glam::DVec3;

/// A check's outcome: what is wrong, if anything.
pub(crate) type Check = std::result::Result<(), String>;

/// `v` (named `name`) is finite.
pub(crate) fn finite_vec(name: &str, v: DVec3) -> Check {
    if v.is_finite() {
        Ok(())
    } else {
        Err(format!("{name} {v} is not finite"))
    }
}

/// `v` (named `name`, in `unit`) is finite and > 0.
pub(crate) fn positive(name: &str, v: f64, unit: &str) -> Check {
    if v.is_finite() && v > 0.0 {
        Ok(())
    } else {
        Err(format!("{name} = {v} {unit}; it must be finite and > 0"))
    }
}

/// `v` (named `name`, in `unit`) is finite and >= 0.
pub(crate) fn non_negative(name: &str, v: f64, unit: &str) -> Check {
    if v.is_finite() && v >= 0.0 {
        Ok(())
    } else {
        Err(format!("{name} = {v} {unit}; it must be finite and >= 0"))
    }
}
