//! Rest lengths formed in the spring walk: the muscles' share of a step (`actuation.rs`) stores
//! each actuated spring's rest length, `base (1 + amplitude sin)`, and the walk reads it back;
//! on populations of small robots the two took 15-25 % of the step. A chunk whose springs are
//! driven by sine actuators only (no commanded one) is walked instead from each spring's base
//! length, amplitude and wave ([`FormedRest`]), the walk forming `base (1 + amplitude sin)`
//! itself: the same operations as `actuation.rs`, so the same bits. A spring without an
//! actuator has amplitude 0 and the wave "none", whose sine is 0 (`Waves::sines`' last entry),
//! so its rest length is `base (1 + 0 * 0) = base` exactly; a zero-length spring has base 0.
//! Bodies alike walked in lanes keep the same numbers per group (`alike_muscles.rs`).
//!
//! With energy booking off, the muscles' share of a step then skips the springs formed in the
//! walk, so their stored rest lengths fall behind; `CpuWorld::catch_up_rest` brings them up to
//! date before anything reads them (the energy, an edit, booking turned back on).

use std::ops::Range;

use crate::model::spring_law::{formed_rest, holds_rest_at_zero};
use crate::model::{Actuator, SpringLaw};

/// What sets a spring's rest length.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(super) enum Driver {
    /// No actuator: the rest length is `base` (m), 0 for a zero-length spring.
    Fixed(f64),
    /// A sine actuator (the last one naming the spring): `base (1 + amplitude sin)` of wave
    /// `wave` (`waves.rs`), base in m.
    Sine {
        base: f64,
        amplitude: f64,
        wave: u32,
    },
    /// A commanded actuator: `actuation.rs` sets it.
    Other,
}

/// What sets the rest length of a spring of base length `base` (m) and law `law`, driven last
/// by `actuator` (with its wave, `None` for a commanded one) if any.
pub(super) fn driver(
    base: f64,
    law: SpringLaw,
    actuator: Option<(&Actuator, Option<u32>)>,
) -> Driver {
    match (holds_rest_at_zero(law), actuator) {
        (true, _) => Driver::Fixed(0.0),
        (false, None) => Driver::Fixed(base),
        (false, Some((a, Some(wave)))) => Driver::Sine {
            base,
            amplitude: a.amplitude,
            wave,
        },
        (false, Some((_, None))) => Driver::Other,
    }
}

/// Each spring's [`Driver`]: `base_rest` (m) and `law` per spring, `actuators` in force and the
/// wave of each (`None` for a commanded one).
pub(super) fn drivers(
    base_rest: &[f64],
    law: &[SpringLaw],
    actuators: &[Actuator],
    wave_of: impl Fn(usize) -> Option<u32>,
) -> Vec<Driver> {
    let mut last = vec![None; base_rest.len()];
    for (i, a) in actuators.iter().enumerate() {
        last[a.spring as usize] = Some(i);
    }
    (0..base_rest.len())
        .map(|s| {
            let a = last[s].map(|i| (&actuators[i], wave_of(i)));
            driver(base_rest[s], law[s], a)
        })
        .collect()
}

/// Every spring's base length (m), amplitude and wave, for the chunks that form their rest
/// lengths in the walk.
#[derive(Clone, Debug, Default)]
pub(super) struct FormedRest {
    base: Vec<f64>,
    amplitude: Vec<f64>,
    /// Index into `Waves::sines` (its last entry, sine 0, for a spring without a wave).
    wave: Vec<u32>,
}

impl FormedRest {
    /// From each spring's driver; `none` is the index of the sine-0 entry (the number of waves).
    /// A commanded spring's entry is unused (its chunk is not formed).
    pub(super) fn new(drivers: &[Driver], none: u32) -> Self {
        let mut f = Self {
            base: vec![0.0; drivers.len()],
            amplitude: vec![0.0; drivers.len()],
            wave: vec![none; drivers.len()],
        };
        for (s, &d) in drivers.iter().enumerate() {
            f.set(s, d, none);
        }
        f
    }

    /// Sets spring `s`'s driver (`none` as in [`FormedRest::new`]); nothing for an empty table.
    pub(super) fn set(&mut self, s: usize, driver: Driver, none: u32) {
        if s >= self.base.len() {
            return;
        }
        (self.base[s], self.amplitude[s], self.wave[s]) = match driver {
            Driver::Fixed(base) => (base, 0.0, none),
            Driver::Sine {
                base,
                amplitude,
                wave,
            } => (base, amplitude, wave),
            Driver::Other => (0.0, 0.0, none),
        };
    }

    /// Whether the table is empty (no chunk forms its rest lengths).
    #[cfg(test)]
    pub(super) fn is_empty(&self) -> bool {
        self.base.is_empty()
    }

    /// The rest lengths (m) of springs `range` for the waves' `sines` (`Waves::sines`, with its
    /// sine-0 entry): `base (1 + amplitude sin)`, as `Drive::set_muscles` forms it.
    #[inline(always)]
    pub(super) fn rests<'a>(
        &'a self,
        range: Range<usize>,
        sines: &'a [f64],
    ) -> impl Iterator<Item = f64> + 'a {
        let (base, amplitude) = (&self.base[range.clone()], &self.amplitude[range.clone()]);
        base.iter()
            .zip(amplitude)
            .zip(&self.wave[range])
            .map(move |((&b, &a), &w)| formed_rest(b, a, sines[w as usize]))
    }
}
