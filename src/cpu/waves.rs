//! The actuators' distinct sine waves: a population's muscles share few `(omega, phase, duty)`
//! combinations, so each distinct one is evaluated once per step (one sine), and every actuator
//! on it reads that value. Combinations are told apart by their exact bits, and the rest length
//! is formed as [`Actuator::rest_length_with`] forms it, so the bits are the same as evaluating
//! each actuator on its own.

use std::collections::HashMap;

use crate::model::spring_law::formed_rest;
use crate::model::{Actuator, DutyCycle};

/// The distinct waves of a list of actuators and their values at the last evaluation.
#[derive(Clone, Debug, Default)]
pub(super) struct Waves {
    /// Each distinct wave: `omega` (rad/s), `phase` (cycles) and duty cycle.
    waves: Vec<(f64, f64, Option<DutyCycle>)>,
    /// `sin(omega tau + 2 pi phase)` of each wave at the last [`Waves::evaluate`].
    sines: Vec<f64>,
    /// The wave of each actuator (`u32::MAX` for a commanded actuator, which has none).
    of: Vec<u32>,
}

impl Waves {
    /// The distinct waves of `actuators` (sine ones; commanded ones have no wave).
    pub(super) fn new(actuators: &[Actuator]) -> Self {
        let mut index: HashMap<[u64; 6], u32> = HashMap::new();
        let mut waves = Vec::new();
        let of = actuators
            .iter()
            .map(|a| {
                if a.commanded {
                    return u32::MAX;
                }
                let d = a.duty.map_or([0; 3], |d| {
                    [d.active.to_bits(), d.rest.to_bits(), d.offset.to_bits()]
                });
                let key = [
                    a.omega.to_bits(),
                    a.phase.to_bits(),
                    u64::from(a.duty.is_some()),
                    d[0],
                    d[1],
                    d[2],
                ];
                *index.entry(key).or_insert_with(|| {
                    waves.push((a.omega, a.phase, a.duty));
                    (waves.len() - 1) as u32
                })
            })
            .collect();
        Self {
            sines: vec![0.0; waves.len() + 1],
            waves,
            of,
        }
    }

    /// Number of distinct waves.
    #[cfg(test)]
    pub(super) fn len(&self) -> usize {
        self.waves.len()
    }

    /// Evaluates every wave at time `t` (s): one sine each.
    pub(super) fn evaluate(&mut self, t: f64) {
        for (s, &(omega, phase, duty)) in self.sines.iter_mut().zip(&self.waves) {
            let tau = match &duty {
                Some(d) => d.clock(t),
                None => t,
            };
            *s = (omega * tau + std::f64::consts::TAU * phase).sin();
        }
    }

    /// Puts back the values of [`Waves::sines`] (a snapshot's); `false`, changing nothing,
    /// when their count is not this list's.
    pub(super) fn set_sines(&mut self, sines: &[f64]) -> bool {
        if sines.len() != self.sines.len() {
            return false;
        }
        self.sines.copy_from_slice(sines);
        true
    }

    /// The wave of actuator `i`, `None` for a commanded one.
    pub(super) fn of(&self, i: usize) -> Option<u32> {
        Some(self.of[i]).filter(|&w| w != u32::MAX)
    }

    /// The sine of each wave at the last [`Waves::evaluate`].
    ///
    /// Then one more entry, always 0: the sine of "no wave" (index [`Waves::none`]), for
    /// springs without an actuator in `formed_rest.rs`.
    pub(super) fn sines(&self) -> &[f64] {
        &self.sines
    }

    /// The index of the always-0 sine after the waves' (see [`Waves::sines`]).
    pub(super) fn none(&self) -> u32 {
        self.waves.len() as u32
    }

    /// The rest length (m) of sine actuator `i` (`a`, on a spring of base length `base`, m) at
    /// the last evaluation: `base (1 + amplitude sin(...))`, as [`Actuator::rest_length_with`]
    /// computes it; `None` for a commanded actuator.
    #[inline]
    pub(super) fn rest(&self, i: usize, a: &Actuator, base: f64) -> Option<f64> {
        let w = *self.sines.get(self.of[i] as usize)?;
        Some(formed_rest(base, a.amplitude, w))
    }
}

#[cfg(test)]
mod tests {
    use super::Waves;
    use crate::model::{Actuator, DutyCycle};

    #[test]
    fn shared_waves_give_each_actuators_own_rest_length_to_the_bit() {
        // 40 actuators on 5 distinct waves (two of them with duty cycles, one at phase -0.0
        // beside one at +0.0, which must stay apart), and 2 commanded ones: the deduplicated
        // rest length equals Actuator::rest_length_with's, bit for bit, at awkward times.
        let duty = DutyCycle {
            active: 0.3,
            rest: 0.2,
            offset: 0.05,
        };
        let mut actuators = Vec::new();
        for i in 0..40u32 {
            let (omega, phase, duty) = match i % 5 {
                0 => (12.566_370_614_359_172, 0.0, None),
                1 => (12.566_370_614_359_172, -0.0, None),
                2 => (12.566_370_614_359_172, 0.25, Some(duty)),
                3 => (7.0, 0.75, Some(duty)),
                _ => (7.0, 0.1, None),
            };
            actuators.push(Actuator {
                spring: i,
                amplitude: 0.01 * f64::from(i % 7) - 0.03,
                omega,
                phase,
                duty,
                commanded: false,
            });
        }
        actuators.push(Actuator::commanded(40, 0.1));
        actuators.push(Actuator::commanded(41, 0.2));
        let mut waves = Waves::new(&actuators);
        assert_eq!(waves.len(), 5);
        for t in [0.0, 1e-4, 0.123_456_7, 0.3, 2.5, 1e3 + 1e-9] {
            waves.evaluate(t);
            for (i, a) in actuators.iter().enumerate() {
                let base = 0.1 + 0.001 * i as f64;
                match waves.rest(i, a, base) {
                    Some(r) => assert_eq!(
                        r.to_bits(),
                        a.rest_length_with(base, t, 0.0).to_bits(),
                        "actuator {i} at t = {t}"
                    ),
                    None => assert!(a.commanded),
                }
            }
        }
    }
}
