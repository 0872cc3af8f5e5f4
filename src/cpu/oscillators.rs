//! The masses' distinct friction oscillators: the feet of a population's robots share few
//! `(min, max, omega, phase)` combinations, so each distinct one is evaluated once per step (one
//! cosine), and every mass on it reads that coefficient. Oscillators are told apart by their exact
//! bits and evaluated by [`FrictionOscillator::coefficient`] itself, so the coefficients are the
//! bits each mass would compute on its own.

use std::collections::HashMap;

use crate::model::FrictionOscillator;

/// The distinct friction oscillators of the masses and their coefficients at the last
/// evaluation.
#[derive(Clone, Debug, Default)]
pub(super) struct Oscillators {
    /// Each distinct oscillator.
    distinct: Vec<FrictionOscillator>,
    /// The coefficient of each distinct oscillator at the last [`Oscillators::evaluate`].
    coefficients: Vec<f64>,
    /// The distinct oscillator of each mass (`u32::MAX` for a mass without one).
    of: Vec<u32>,
}

impl Oscillators {
    /// The distinct oscillators of masses whose oscillators are `per_mass`.
    pub(super) fn new(per_mass: impl Iterator<Item = Option<FrictionOscillator>>) -> Self {
        let mut index: HashMap<[u64; 4], u32> = HashMap::new();
        let mut distinct = Vec::new();
        let of = per_mass
            .map(|o| {
                let Some(o) = o else { return u32::MAX };
                let key = [
                    o.min.to_bits(),
                    o.max.to_bits(),
                    o.omega.to_bits(),
                    o.phase.to_bits(),
                ];
                *index.entry(key).or_insert_with(|| {
                    distinct.push(o);
                    (distinct.len() - 1) as u32
                })
            })
            .collect();
        Self {
            coefficients: vec![0.0; distinct.len()],
            distinct,
            of,
        }
    }

    /// Evaluates every distinct oscillator at time `t` (s): one cosine each.
    pub(super) fn evaluate(&mut self, t: f64) {
        for (c, o) in self.coefficients.iter_mut().zip(&self.distinct) {
            *c = o.coefficient(t);
        }
    }

    /// The friction coefficient of mass `i` at the last evaluation, or `None` when the mass has
    /// no oscillator.
    #[inline]
    pub(super) fn coefficient(&self, i: usize) -> Option<f64> {
        self.coefficients.get(self.of[i] as usize).copied()
    }

    /// Number of distinct oscillators.
    #[cfg(test)]
    pub(super) fn len(&self) -> usize {
        self.distinct.len()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shared_oscillators_give_each_masss_own_coefficient_to_the_bit() {
        let osc = |min: f64, max: f64, omega: f64, phase: f64| FrictionOscillator {
            min,
            max,
            omega,
            phase,
        };
        let per_mass = [
            Some(osc(0.1, 1.0, 6.0, 0.0)),
            None,
            Some(osc(0.1, 1.0, 6.0, 0.0)),
            Some(osc(0.1, 1.0, 6.0, 3.0)),
            Some(osc(0.2, 1.0, 6.0, 0.0)),
            None,
            Some(osc(0.1, 1.0, 6.0, 3.0)),
        ];
        let mut shared = Oscillators::new(per_mass.iter().copied());
        assert_eq!(shared.len(), 3);
        for step in 0..2000 {
            let t = f64::from(step) * 7.3e-4;
            shared.evaluate(t);
            for (i, o) in per_mass.iter().enumerate() {
                let own = o.map(|o| o.coefficient(t).to_bits());
                assert_eq!(
                    shared.coefficient(i).map(f64::to_bits),
                    own,
                    "mass {i} at {t} s"
                );
            }
        }
    }
}
