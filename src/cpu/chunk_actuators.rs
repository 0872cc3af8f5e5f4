//! The actuators and actuated springs of each chunk of the spring pass, in compact records
//! ([`Muscle`]: what a step reads of one actuator), grouped so that each chunk's muscles are a
//! slice (the muscles' share of a step, `actuation.rs`, runs chunk by chunk).

use std::ops::Range;

use super::springs::Chunk;
use super::waves::Waves;
use crate::model::spring_law::holds_rest_at_zero;
use crate::model::{Actuator, SpringLaw};

/// The actuators and actuated springs of each chunk.
#[derive(Clone, Debug, Default)]
pub(super) struct ChunkActuators {
    /// The actuators grouped by the chunk of their spring, within a chunk first those whose
    /// rest lengths only this pass sets, then those the lanes walk forms as well
    /// (`alike_muscles.rs`), in actuator order within each (a spring is of one kind, so a spring
    /// driven by two actuators takes the later one's rest length, as `actuate`).
    muscles: Vec<Muscle>,
    /// `muscles[actuators_at[c]..actuators_at[c + 1]]` are chunk `c`'s actuators.
    actuators_at: Vec<usize>,
    /// `muscles[formed_at[c]..actuators_at[c + 1]]` are those of chunk `c` the walk forms.
    formed_at: Vec<usize>,
    /// `actuated_springs[springs_at[c]..springs_at[c + 1]]` are chunk `c`'s actuated springs.
    springs_at: Vec<usize>,
}

/// What a step reads of one actuator, in 24 bytes: a sine actuator's rest length is a product
/// of its spring's base length, its amplitude and its wave's sine, without touching the
/// [`Actuator`] record.
#[derive(Clone, Copy, Debug)]
pub(super) struct Muscle {
    /// The actuated spring.
    pub(super) spring: u32,
    /// The actuator's index.
    pub(super) actuator: u32,
    /// Its wave (`waves.rs`), or [`ZERO_LENGTH`] or [`OTHER`].
    pub(super) wave: u32,
    /// Its amplitude (relative rest-length change).
    pub(super) amplitude: f64,
}

/// [`Muscle::wave`] of an actuator on a spring whose law holds its rest length at 0
/// (`spring_law::rest_in_law`).
pub(super) const ZERO_LENGTH: u32 = u32::MAX;

/// [`Muscle::wave`] of a commanded actuator: `actuation.rs` computes its rest length from the
/// actuator itself.
pub(super) const OTHER: u32 = u32::MAX - 1;

impl ChunkActuators {
    /// Groups `actuators` (whose distinct waves are `waves`, on springs of laws `law`) and
    /// `actuated` (the actuated springs, increasing) by chunk; `formed` tells the springs whose
    /// rest lengths the lanes walk forms.
    pub(super) fn new(
        actuators: &[Actuator],
        (waves, law): (&Waves, &[SpringLaw]),
        actuated: &[usize],
        formed: &[bool],
        chunks: &[Chunk],
    ) -> Self {
        let chunk_of = |s: usize| chunks.partition_point(|c| c.springs.end <= s);
        let spring = |i: u32| actuators[i as usize].spring as usize;
        let mut order: Vec<u32> = (0..actuators.len() as u32).collect();
        order.sort_by_key(|&i| (chunk_of(spring(i)), formed[spring(i)]));
        let mut actuators_at = vec![0; chunks.len() + 1];
        let mut formed_at = vec![0; chunks.len()];
        let mut springs_at = vec![0; chunks.len() + 1];
        for c in 0..chunks.len() {
            let end = chunks[c].springs.end;
            actuators_at[c + 1] = order.partition_point(|&i| spring(i) < end);
            let mine = &order[actuators_at[c]..actuators_at[c + 1]];
            formed_at[c] = actuators_at[c] + mine.partition_point(|&i| !formed[spring(i)]);
            springs_at[c + 1] = actuated.partition_point(|&s| s < end);
        }
        let muscle = |i: u32| {
            let a = &actuators[i as usize];
            let wave = match (
                holds_rest_at_zero(law[a.spring as usize]),
                waves.of(i as usize),
            ) {
                (true, _) => ZERO_LENGTH,
                (false, Some(w)) => w,
                (false, None) => OTHER,
            };
            Muscle {
                spring: a.spring,
                actuator: i,
                wave,
                amplitude: a.amplitude,
            }
        };
        Self {
            muscles: order.into_iter().map(muscle).collect(),
            actuators_at,
            formed_at,
            springs_at,
        }
    }

    /// Chunk `c`'s muscles: all of them, or only those the lanes walk does not form.
    pub(super) fn of_chunk(&self, c: usize, all: bool) -> &[Muscle] {
        let end = if all {
            self.actuators_at[c + 1]
        } else {
            self.formed_at[c]
        };
        &self.muscles[self.actuators_at[c]..end]
    }

    /// Whether the lanes walk forms some muscle's rest length.
    pub(super) fn any_formed(&self) -> bool {
        (0..self.formed_at.len()).any(|c| self.formed_at[c] < self.actuators_at[c + 1])
    }
}

impl ChunkActuators {
    /// Chunk `c`'s muscles that the lanes walk forms.
    pub(super) fn formed_of_chunk(&self, c: usize) -> &[Muscle] {
        &self.muscles[self.formed_at[c]..self.actuators_at[c + 1]]
    }

    /// Where chunk `c`'s actuated springs are in the list of actuated springs.
    pub(super) fn actuated_of_chunk(&self, c: usize) -> Range<usize> {
        self.springs_at[c]..self.springs_at[c + 1]
    }
}
