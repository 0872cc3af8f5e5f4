//! The numbers the per-spring formulas are written over: one `f64` (the CPU's scalar walk, each
//! stencil slot, the energy, the model's own checks and bounds) or eight `f64` lanes (the CPU's
//! walks of bodies side by side: `F64x8` in `src/cpu/lanes.rs`), behind the small trait [`Real`].
//!
//! An implementation performs each operation as the IEEE operation on `f64`, lane by lane
//! (square root and division are correctly rounded at every width; Rust never fuses a product
//! and a sum), so a formula written once over [`Real`] gives every lane the scalar bits.

use std::ops::{Add, Div, Mul, Sub};

/// A number type the per-spring formulas are written over: `f64`, or eight `f64` lanes.
pub(crate) trait Real:
    Copy + Add<Output = Self> + Sub<Output = Self> + Mul<Output = Self> + Div<Output = Self>
{
    /// `x` in every lane.
    fn splat(x: f64) -> Self;
    /// The correctly rounded square root, lane by lane.
    #[must_use]
    fn sqrt(self) -> Self;
}

impl Real for f64 {
    #[inline(always)]
    fn splat(x: f64) -> Self {
        x
    }

    #[inline(always)]
    fn sqrt(self) -> Self {
        f64::sqrt(self)
    }
}
