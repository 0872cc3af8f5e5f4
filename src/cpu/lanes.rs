//! The lanes the per-spring formulas (`src/model/spring_law/`) compute with in the walks of
//! bodies side by side: [`F64x8`], eight `f64` lanes (one body per lane), a [`Real`] like `f64`.
//!
//! [`F64x8`] is eight `f64`s with each operation a loop over the lanes: compiled inside a
//! [`pulp::Arch`] dispatch, LLVM makes every operation one AVX-512 instruction or two AVX2 ones,
//! and each lane performs exactly the IEEE operation the scalar code performs (square root and
//! division are correctly rounded at every width; Rust never fuses a product and a sum), so a
//! formula written once over [`Real`] gives every lane the scalar bits.

use std::ops::{Add, Div, Mul, Sub};

use crate::model::spring_law::Real;

/// Lanes per group of the lanes walks: one per f64 lane of an AVX-512 register.
pub(super) const LANES: usize = 8;

/// Eight f64 lanes, one per body, as the walks store them.
pub(super) type Lanes = [f64; LANES];

/// Eight f64 lanes with lane-by-lane arithmetic (see the module docs).
#[derive(Clone, Copy, Debug, PartialEq)]
pub(super) struct F64x8(pub(super) Lanes);

impl F64x8 {
    /// `f(self[l], o[l])` in every lane `l`.
    #[inline(always)]
    fn zip(self, o: Self, f: impl Fn(f64, f64) -> f64) -> Self {
        let mut out = self.0;
        for (x, y) in out.iter_mut().zip(o.0) {
            *x = f(*x, y);
        }
        Self(out)
    }
}

impl Add for F64x8 {
    type Output = Self;
    #[inline(always)]
    fn add(self, o: Self) -> Self {
        self.zip(o, |a, b| a + b)
    }
}

impl Sub for F64x8 {
    type Output = Self;
    #[inline(always)]
    fn sub(self, o: Self) -> Self {
        self.zip(o, |a, b| a - b)
    }
}

impl Mul for F64x8 {
    type Output = Self;
    #[inline(always)]
    fn mul(self, o: Self) -> Self {
        self.zip(o, |a, b| a * b)
    }
}

impl Div for F64x8 {
    type Output = Self;
    #[inline(always)]
    fn div(self, o: Self) -> Self {
        self.zip(o, |a, b| a / b)
    }
}

impl Real for F64x8 {
    #[inline(always)]
    fn splat(x: f64) -> Self {
        Self([x; LANES])
    }

    #[inline(always)]
    fn sqrt(self) -> Self {
        let mut out = self.0;
        for x in &mut out {
            *x = x.sqrt();
        }
        Self(out)
    }
}

/// The AVX-512 instructions where the CPU has them ([`wide`]), for whole-register permutes and
/// loads.
#[cfg(target_arch = "x86_64")]
pub(super) type Wide = Option<pulp::x86::V4>;
/// No AVX-512 off x86-64.
#[cfg(not(target_arch = "x86_64"))]
pub(super) type Wide = Option<()>;

/// [`Wide`] for this CPU (detected once per step or walk).
#[must_use]
pub(super) fn wide() -> Wide {
    #[cfg(target_arch = "x86_64")]
    return match super::simd::SimdLevel::in_force() {
        super::simd::SimdLevel::Avx512 => pulp::x86::V4::try_new(),
        _ => None,
    };
    #[cfg(not(target_arch = "x86_64"))]
    None
}

/// Most distinct values [`pick16`] picks from.
pub(super) const COMBOS: usize = 16;

/// `values[index[l]]` for every lane: one two-source permute with AVX-512, lane by lane
/// otherwise (the same values).
#[inline(always)]
pub(super) fn pick16(values: &[f64; COMBOS], index: &[u8; LANES], wide: Wide) -> Lanes {
    #[cfg(target_arch = "x86_64")]
    if let Some(simd) = wide {
        use std::arch::x86_64::{__m512d, __m512i};
        let [lo, hi]: [Lanes; 2] = bytemuck::cast(*values);
        let (lo, hi): (__m512d, __m512d) = (bytemuck::cast(lo), bytemuck::cast(hi));
        let index: __m512i = bytemuck::cast(index.map(i64::from));
        return bytemuck::cast(simd.avx512f._mm512_permutex2var_pd(lo, index, hi));
    }
    let _ = wide;
    // A loop rather than `array::from_fn`, which is not always inlined into the walk compiled
    // for the CPU's instructions.
    let mut out = [0.0; LANES];
    for (o, &i) in out.iter_mut().zip(index) {
        *o = values[usize::from(i) % COMBOS];
    }
    out
}
