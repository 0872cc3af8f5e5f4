//! The fixed-point encoding of spring forces.
//!
//! The spring pass adds every spring's force to its two masses with integer atomics: a force
//! component of `f` newtons is stored as `round(f * scale)` (ties to even, as WGSL `round`), so a
//! mass's sum is exact and does not depend on the order in which springs are added. Two runs of
//! the same scene on the same adapter are therefore bit-identical.
//! A spring-pass invocation that handles several springs sharing their first mass adds their
//! encoded contributions in a register before one atomic add: integer addition is exact, so the
//! sum is the same as adding each spring on its own, and the per-spring bound below still keeps
//! every partial sum in range.
//!
//! # The contract
//! - **Resolution**: one quantum is `1 / scale` newtons; `scale` is a power of two, so decoding is
//!   exact. Each spring's contribution is rounded by at most half a quantum, so a mass with `n`
//!   springs sees its spring force within `n / 2` quanta of the f32 sum (plus f32 rounding of each
//!   spring force).
//! - **Range**: a mass's sum holds `2^(bits-1) - 1` quanta. The World checks every spring against
//!   a per-spring bound, `range / max_incidence` (`max_incidence` is the largest number of springs
//!   meeting at one mass), so no sum can wrap. A spring over the bound stops the simulation with
//!   [`Error::FixedPointOverflow`], never a silent wrap.
//! - **Width**: 64-bit atomics when the device has `SHADER_INT64_ATOMIC_ALL_OPS` (Vulkan on most
//!   desktop GPUs and lavapipe), 32-bit otherwise or when [`AtomicWidth::Bits32`] is asked for.
//! - **Automatic scale**: from the model, a force scale `F` is estimated as the largest of: each
//!   spring's force at 100 % strain (`k_eff * max(L0, initial length)`), plus its damping force at
//!   a relative speed of 1 m/s; the largest weight `m |g|`; the largest external force. With 64-bit
//!   atomics the quantum is about `F / 2^40` (far below f32 resolution) and the per-spring bound is
//!   about `2^22 F / max_incidence`. With 32-bit atomics the scale is the largest power of two
//!   that still lets each spring carry `4 F`: the quantum is then about `4 F max_incidence / 2^31`.
//! - **In f64** ([`Precision::F64`]): 64-bit sums always, and the quantum is about `F / 2^48`:
//!   the f64 rounding of a mass's largest force sum (`max_incidence F`, about `F / 2^47` for 26
//!   springs at `2^-52` relative) rather than f32's (`F / 2^23`). The per-spring bound is then about
//!   `2^15 F / max_incidence` (1260 `F` at 26 springs per mass). The scale is a power of two
//!   between `2^-120` and `2^120`, so the f32 `override` that carries it to the kernels is exact
//!   in f64 too. [`FixedPointScale::Pinned`] applies the same rule to the pinned `F`.
//! - **Changing it**: set [`WorldOptions::fixed_point`](crate::WorldOptions::fixed_point) to
//!   [`FixedPointScale::Quantum`] with the quantum you want in newtons (rounded to the nearest
//!   power of two); a larger quantum buys range, a smaller one resolution.

use super::real::Precision;
use crate::error::{Error, Result};
use crate::model::Model;

/// Quanta in the force scale `F` with 64-bit sums in f32 (`F / quantum`, a power of two).
const F32_QUANTA_PER_FORCE: f64 = (1u64 << 40) as f64;

/// Quanta in the force scale `F` with 64-bit sums in f64: near the f64 rounding of a mass's
/// largest force sum (see the module docs).
const F64_QUANTA_PER_FORCE: f64 = (1u64 << 48) as f64;

/// Width of the integer atomics used for the force scatter.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum AtomicWidth {
    /// 64-bit when the device supports `SHADER_INT64_ATOMIC_ALL_OPS`, else 32-bit.
    #[default]
    Auto,
    /// Always 32-bit (works on every adapter).
    Bits32,
    /// Always 64-bit; building a World fails with [`Error::Gpu`] if the device lacks
    /// `SHADER_INT64_ATOMIC_ALL_OPS`.
    Bits64,
}

/// How the fixed-point quantum is chosen (see the [module docs](self)).
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub enum FixedPointScale {
    /// Estimated from the model's stiffness, lengths, masses and external forces.
    #[default]
    Auto,
    /// This quantum in N (finite and > 0), rounded to the nearest power of two.
    Quantum(f64),
    /// The automatic rule with a force scale `force` (N, finite and > 0) and a largest incidence
    /// `max_incidence` given by the caller instead of estimated from the model, so that the
    /// quantum and the per-spring overflow bound do not depend on what else the model holds
    /// (a population evaluated in batches, [`crate::population`]). Building a World fails with
    /// [`Error::InvalidParameter`] when more than `max_incidence` springs meet at one of its
    /// masses (the sums could then wrap).
    Pinned {
        /// The force scale `F` of the automatic rule, N.
        force: f64,
        /// The largest number of springs meeting at one mass the bound allows for.
        max_incidence: u32,
    },
}

/// The fixed-point encoding in force for a World.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct FixedPoint {
    /// Width of the atomics, 32 or 64.
    pub bits: u32,
    /// One quantum, in N (a power of two).
    pub quantum: f64,
    /// Largest spring force a mass can accumulate per component, in N.
    pub mass_range: f64,
    /// Largest force component one spring may exert, in N: `mass_range / max_incidence`.
    pub spring_limit: f64,
    /// Largest number of springs meeting at one mass.
    pub max_incidence: u32,
}

impl FixedPoint {
    /// The scale `1 / quantum` (quanta per newton).
    #[must_use]
    pub fn scale(&self) -> f64 {
        1.0 / self.quantum
    }

    /// The encoding of a force component `f` (N) computed in f32, exactly as the spring pass
    /// stores it: `round_ties_even(f * scale)` (the CPU twin of WGSL `round`).
    #[must_use]
    pub fn encode(&self, f: f32) -> i64 {
        (f * self.scale() as f32).round_ties_even() as i64
    }

    /// The encoding of a force component `f` (N) computed in f64, exactly as the f64 spring
    /// pass stores it: `round_ties_even(f * scale)`.
    #[must_use]
    pub fn encode_f64(&self, f: f64) -> i64 {
        (f * self.scale()).round_ties_even() as i64
    }

    /// The force (N) a sum of `q` quanta stands for.
    #[must_use]
    pub fn decode(&self, q: i64) -> f64 {
        q as f64 * self.quantum
    }

    /// Chooses the encoding for `model` with atomics of `bits` bits.
    ///
    /// # Errors
    /// [`Error::InvalidParameter`] for a quantum that is not finite and > 0, or so small or large
    /// that its scale is not a normal f32.
    pub fn choose(model: &Model, bits: u32, scale: FixedPointScale) -> Result<Self> {
        Self::choose_for(model, bits, scale, Precision::F32)
    }

    /// Chooses the encoding for `model` with atomics of `bits` bits for kernels computing in
    /// `precision` (the automatic quantum is finer in f64, see the module docs).
    ///
    /// # Errors
    /// As [`FixedPoint::choose`], and [`Error::InvalidParameter`] for [`Precision::F64`] with
    /// 32-bit atomics.
    pub fn choose_for(
        model: &Model,
        bits: u32,
        scale: FixedPointScale,
        precision: Precision,
    ) -> Result<Self> {
        if precision == Precision::F64 && bits != 64 {
            return Err(Error::InvalidParameter {
                name: "fixed_point bits",
                value: f64::from(bits),
                expected: "must be 64 with Precision::F64 (f64 forces need 64-bit sums)",
            });
        }
        let mut incidence = vec![0u32; model.masses.len()];
        for s in &model.springs {
            incidence[s.a as usize] += 1;
            incidence[s.b as usize] += 1;
        }
        let mut max_incidence = incidence.iter().copied().max().unwrap_or(0).max(1);
        let mut force = None;
        if let FixedPointScale::Pinned {
            force: f,
            max_incidence: pinned,
        } = scale
        {
            if !(f.is_finite() && f > 0.0) {
                return Err(Error::InvalidParameter {
                    name: "fixed_point force",
                    value: f,
                    expected: "must be finite and > 0 N",
                });
            }
            if pinned < max_incidence {
                return Err(Error::InvalidParameter {
                    name: "fixed_point max_incidence",
                    value: f64::from(pinned),
                    expected: "must be at least the number of springs meeting at any one mass",
                });
            }
            max_incidence = pinned;
            force = Some(f);
        }
        let range = if bits == 64 {
            i64::MAX as f64
        } else {
            f64::from(i32::MAX)
        };
        let log2_scale = match scale {
            FixedPointScale::Quantum(q) => {
                if !(q.is_finite() && q > 0.0) {
                    return Err(Error::InvalidParameter {
                        name: "fixed_point quantum",
                        value: q,
                        expected: "must be finite and > 0 N",
                    });
                }
                (-q.log2()).round()
            }
            FixedPointScale::Auto | FixedPointScale::Pinned { .. } => {
                let f = force.unwrap_or_else(|| force_scale(model));
                if bits == 64 {
                    let quanta = match precision {
                        Precision::F32 => F32_QUANTA_PER_FORCE,
                        Precision::F64 => F64_QUANTA_PER_FORCE,
                    };
                    (quanta / f).log2().floor()
                } else {
                    (range / (4.0 * f * f64::from(max_incidence)))
                        .log2()
                        .floor()
                }
            }
        };
        if !(-120.0..=120.0).contains(&log2_scale) {
            return Err(Error::InvalidParameter {
                name: "fixed_point quantum",
                value: 2f64.powf(-log2_scale),
                expected: "its scale 1/quantum must lie between 2^-120 and 2^120",
            });
        }
        let scale = 2f64.powf(log2_scale);
        let quantum = 1.0 / scale;
        // One quantum of margin per spring covers the rounding of each contribution, and the
        // factor keeps the f32 comparison in the shader on the safe side.
        let per_spring = ((range / f64::from(max_incidence)).floor() - 1.0) * quantum;
        Ok(Self {
            bits,
            quantum,
            mass_range: range * quantum,
            spring_limit: per_spring * (1.0 - 1e-6),
            max_incidence,
        })
    }
}

/// A force scale (N) for `model`; see the module docs.
fn force_scale(model: &Model) -> f64 {
    let g = model.params.gravity.length();
    let mut f: f64 = 1e-9;
    for s in &model.springs {
        let initial = model.masses[s.a as usize]
            .position
            .distance(model.masses[s.b as usize].position);
        let length = initial.max(s.rest_length);
        f = f.max(s.effective(s.rest_length).0 * length + s.damping);
    }
    for m in &model.masses {
        f = f.max(m.mass * g).max(m.external_force.length());
    }
    f
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::builders::Lattice;

    fn lattice() -> Model {
        Lattice::benchmark(3).model().unwrap()
    }

    #[test]
    fn f64_quantum_is_near_the_f64_rounding_of_the_largest_force_sum() {
        let model = lattice();
        let f = force_scale(&model);
        let f64 =
            FixedPoint::choose_for(&model, 64, FixedPointScale::Auto, Precision::F64).unwrap();
        let f32 = FixedPoint::choose(&model, 64, FixedPointScale::Auto).unwrap();
        // The f64 rounding (half an ulp) of the largest sum a mass can see, max_incidence F.
        let rounding = f * f64::from(f64.max_incidence) * f64::EPSILON / 2.0;
        assert!(
            f64.quantum <= 2.0 * rounding && f64.quantum >= rounding / 64.0,
            "quantum {} N against f64 rounding {rounding} N",
            f64.quantum
        );
        assert_eq!(
            f32.quantum / f64.quantum,
            256.0,
            "2^40 against 2^48 quanta per F"
        );
        // A spring still carries far more than the force scale.
        assert!(f64.spring_limit > 1000.0 * f, "{} N", f64.spring_limit);
        assert_eq!(f64.encode_f64(3.0 * f64.quantum), 3);
    }

    #[test]
    fn pinned_scale_follows_the_f64_rule() {
        let model = lattice();
        let pinned = FixedPointScale::Pinned {
            force: 1.0,
            max_incidence: 32,
        };
        let fp = FixedPoint::choose_for(&model, 64, pinned, Precision::F64).unwrap();
        assert_eq!(fp.quantum, 2f64.powi(-48));
        assert_eq!(fp.max_incidence, 32);
    }

    #[test]
    fn f64_with_32_bit_sums_is_an_error() {
        let err = FixedPoint::choose_for(&lattice(), 32, FixedPointScale::Auto, Precision::F64);
        assert!(
            matches!(err, Err(Error::InvalidParameter { .. })),
            "{err:?}"
        );
    }
}
