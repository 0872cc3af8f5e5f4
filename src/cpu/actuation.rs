//! The muscles' share of a step: the actuated rest lengths for the step's start time and the
//! work they do (the change of the actuated springs' elastic energy at fixed positions), chunk
//! by chunk on the worker pool. Every actuated spring lies in one chunk, so the chunks' rest
//! lengths are disjoint slices; each chunk books its work as a sum in spring order, and the
//! chunks' sums are added in chunk order, so the bits do not depend on the thread count.

use std::borrow::Cow;

use rayon::prelude::*;
use rayon::ThreadPool;

use super::springs::{elastic, Chunk};
use super::tables::SpringParams;
use super::waves::Waves;
use super::CpuWorld;
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
struct Muscle {
    /// The actuated spring.
    spring: u32,
    /// The actuator's index.
    actuator: u32,
    /// Its wave (`waves.rs`), or [`ZERO_LENGTH`] or [`OTHER`].
    wave: u32,
    /// Its amplitude (relative rest-length change).
    amplitude: f64,
}

/// [`Muscle::wave`] of an actuator on a zero-length spring: its rest length stays 0.
const ZERO_LENGTH: u32 = u32::MAX;

/// [`Muscle::wave`] of a commanded actuator: [`Drive::rest`] computes its rest length.
const OTHER: u32 = u32::MAX - 1;

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
            let wave = match (law[a.spring as usize], waves.of(i as usize)) {
                (SpringLaw::ZeroLength, _) => ZERO_LENGTH,
                (_, Some(w)) => w,
                (_, None) => OTHER,
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
    fn of_chunk(&self, c: usize, all: bool) -> &[Muscle] {
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

/// What sets an actuated spring's rest length (the fields of the world it reads).
struct Drive<'a> {
    actuators: &'a [Actuator],
    base_rest: &'a [f64],
    law: &'a [SpringLaw],
    command_slot: &'a [Option<usize>],
    commands: &'a [f64],
    waves: &'a Waves,
    time: f64,
}

impl Drive<'_> {
    /// The rest length (m) actuator `i` gives its spring now: `CpuWorld::actuated_rest` then
    /// `set_effective`, with the sine from `waves`.
    fn rest(&self, i: usize) -> f64 {
        let a = &self.actuators[i];
        let s = a.spring as usize;
        let base = self.base_rest[s];
        let rest = self.waves.rest(i, a, base).unwrap_or_else(|| {
            let command = self.command_slot[i].map_or(0.0, |c| self.commands[c]);
            a.rest_length_with(base, self.time, command)
        });
        match self.law[s] {
            SpringLaw::ZeroLength => 0.0,
            SpringLaw::Hooke | SpringLaw::Material => rest,
        }
    }

    /// Sets the rest length of every muscle of `muscles` in `rest` (springs `first..`): for a
    /// sine actuator `base (1 + amplitude sin)` as [`Waves::rest`] forms it, from the 24-byte
    /// record, in a loop over slices; [`Drive::rest`] for the others.
    fn set_muscles(&self, muscles: &[Muscle], first: usize, rest: &mut [f64]) {
        let (base, sines) = (self.base_rest, self.waves.sines());
        for m in muscles {
            let s = m.spring as usize;
            rest[s - first] = match m.wave {
                ZERO_LENGTH => 0.0,
                OTHER => self.rest_cold(m.actuator as usize),
                w => base[s] * (1.0 + m.amplitude * sines[w as usize]),
            };
        }
    }

    /// [`Drive::rest`], kept out of [`Drive::set_muscles`]'s loop.
    #[inline(never)]
    fn rest_cold(&self, i: usize) -> f64 {
        self.rest(i)
    }
}

/// One chunk's part: its springs `first..first + rest.len()` (current rest lengths `rest`),
/// its actuated springs `springs` (with scratch `len` for their lengths) and actuators
/// `muscles`.
struct Part<'a> {
    first: usize,
    rest: &'a mut [f64],
    springs: &'a [usize],
    len: &'a mut [f64],
    muscles: &'a [Muscle],
}

/// Sets the chunk's actuated rest lengths without booking their work (energy tracking off).
fn set_rests(part: Part<'_>, drive: &Drive<'_>) -> (f64, f64) {
    drive.set_muscles(part.muscles, part.first, part.rest);
    (0.0, 0.0)
}

/// Sets the chunk's actuated rest lengths and returns the elastic energy of its actuated springs
/// before and after, J (each a sum in spring order).
fn actuate_part(
    part: Part<'_>,
    drive: &Drive<'_>,
    ends: &[[u32; 2]],
    table: &[SpringParams],
    param: &[u32],
    pos: &[glam::DVec3],
) -> (f64, f64) {
    let Part {
        first,
        rest,
        springs,
        len,
        muscles,
    } = part;
    let energy = |s: usize, rest: f64, l: f64| {
        let ke = table[param[s] as usize].effective(rest);
        elastic(ke.x, ke.y, l)
    };
    let before: f64 = springs
        .iter()
        .zip(len.iter_mut())
        .map(|(&s, l)| {
            let [a, b] = ends[s];
            *l = pos[a as usize].distance(pos[b as usize]);
            energy(s, rest[s - first], *l)
        })
        .sum();
    drive.set_muscles(muscles, first, rest);
    let after: f64 = springs
        .iter()
        .zip(len.iter())
        .map(|(&s, &l)| energy(s, rest[s - first], l))
        .sum();
    (before, after)
}

impl CpuWorld {
    /// What sets the actuated rest lengths, from the world's fields.
    fn drive(&self) -> Drive<'_> {
        Drive {
            actuators: &self.actuators,
            base_rest: &self.base_rest,
            law: &self.law,
            command_slot: &self.command_slot,
            commands: &self.commands,
            waves: &self.waves,
            time: self.time,
        }
    }

    /// The rest length of every spring as the last step used it, m: the stored ones, with those
    /// the lanes walk formed brought up to date when the muscles' share skipped them (booking
    /// off: `alike_muscles.rs`).
    pub(super) fn rest_in_force(&self) -> Cow<'_, [f64]> {
        if !self.rest_behind {
            return Cow::Borrowed(&self.springs.rest);
        }
        let mut rest = self.springs.rest.clone();
        let (drive, by) = (self.drive(), &self.chunk_actuators);
        for c in 0..self.chunks.len() {
            drive.set_muscles(
                &by.muscles[by.formed_at[c]..by.actuators_at[c + 1]],
                0,
                &mut rest,
            );
        }
        Cow::Owned(rest)
    }

    /// Brings the stored rest lengths up to date ([`CpuWorld::rest_in_force`]) before an edit
    /// or booking reads them.
    pub(super) fn catch_up_rest(&mut self) {
        if self.rest_behind {
            self.springs.rest = self.rest_in_force().into_owned();
            self.rest_behind = false;
        }
    }

    /// Sets the actuated rest lengths for the current time (one sine per distinct wave), chunk
    /// by chunk on `pool` (on the caller's thread when `None`), and returns the work the muscles
    /// did: the change of the actuated springs' elastic energy at the current positions, J.
    pub(super) fn actuate_step(&mut self, pool: Option<&ThreadPool>) -> f64 {
        self.waves.evaluate(self.time);
        let drive = Drive {
            actuators: &self.actuators,
            base_rest: &self.base_rest,
            law: &self.law,
            command_slot: &self.command_slot,
            commands: &self.commands,
            waves: &self.waves,
            time: self.time,
        };
        let by = &self.chunk_actuators;
        let sp = &mut self.springs;
        let (ends, table, param, pos) = (&sp.ends, &sp.table, &sp.param, &self.pos);
        self.actuated_len.resize(self.actuated_springs.len(), 0.0);
        let mut rest: &mut [f64] = &mut sp.rest;
        let mut len: &mut [f64] = &mut self.actuated_len;
        let mut parts = Vec::with_capacity(self.chunks.len());
        for (c, chunk) in self.chunks.iter().enumerate() {
            let (r, rest_tail) = std::mem::take(&mut rest).split_at_mut(chunk.springs.len());
            let n = by.springs_at[c + 1] - by.springs_at[c];
            let (l, len_tail) = std::mem::take(&mut len).split_at_mut(n);
            (rest, len) = (rest_tail, len_tail);
            parts.push(Part {
                first: chunk.springs.start,
                rest: r,
                springs: &self.actuated_springs[by.springs_at[c]..by.springs_at[c + 1]],
                len: l,
                // With booking off, the muscles the walk forms are left to it.
                muscles: by.of_chunk(c, self.track_energy),
            });
        }
        let book = self.track_energy;
        self.rest_behind = !book && by.any_formed();
        let run = |p: Part<'_>| {
            if book {
                actuate_part(p, &drive, ends, table, param, pos)
            } else {
                set_rests(p, &drive)
            }
        };
        let sums: Vec<(f64, f64)> = match pool {
            Some(pool) if parts.len() > 1 => {
                pool.install(|| parts.into_par_iter().with_max_len(1).map(run).collect())
            }
            _ => parts.into_iter().map(run).collect(),
        };
        let before: f64 = sums.iter().map(|s| s.0).sum();
        let after: f64 = sums.iter().map(|s| s.1).sum();
        after - before
    }
}

#[cfg(test)]
mod tests {
    use glam::DVec3;

    use super::super::CpuWorld;
    use crate::model::{Actuator, DutyCycle, Mass, Model, Params, Part, Spring, SpringLaw};

    /// The rest lengths a step uses, set from the compact per-chunk muscle records, are each
    /// actuator's own `Actuator::rest_length_with`, bit for bit: sine actuators with and without
    /// duty cycles sharing and not sharing waves, commanded ones, an actuated zero-length spring
    /// (rest length 0), and a spring driven by a sine then a commanded actuator (the later one
    /// wins); with energy booking on and off.
    #[test]
    fn muscle_records_give_each_actuators_own_rest_length() {
        let mut part = Part::new();
        for i in 0..9 {
            part.add_mass(Mass::new(1.0, DVec3::new(0.1 * f64::from(i), 0.0, 1.0)));
        }
        for i in 0..8 {
            part.springs
                .push(Spring::hooke(i, i + 1, 1e3, 0.1 + 0.01 * f64::from(i)));
        }
        part.springs[3].law = SpringLaw::ZeroLength;
        let duty = DutyCycle {
            active: 0.03,
            rest: 0.02,
            offset: 0.01,
        };
        let sine = |spring: u32, phase: f64, duty: Option<DutyCycle>| Actuator {
            spring,
            amplitude: 0.05 + 0.01 * f64::from(spring),
            omega: 40.0,
            phase,
            duty,
            commanded: false,
        };
        part.actuators = vec![
            sine(0, 0.0, None),
            sine(1, 0.0, None),
            sine(2, 0.3, Some(duty)),
            sine(3, 0.1, None),
            sine(5, 0.3, Some(duty)),
            Actuator::commanded(6, 0.2),
            sine(7, 0.7, None),
            Actuator::commanded(7, -0.1),
        ];
        let actuators = part.actuators.clone();
        let base: Vec<f64> = part.springs.iter().map(|s| s.rest_length).collect();
        let mut model = Model::new(Params::default());
        model.add("chain", part);
        let commands = [0.3, -0.4];
        for book in [true, false] {
            let mut w = CpuWorld::new(&model).unwrap();
            w.set_track_energy(book);
            w.set_commands(&commands).unwrap();
            for t in [0.0, 1e-4, 0.012_345, 0.031, 0.047, 2.5] {
                w.time = t;
                w.actuate_step(None);
                let mut expected = base.clone();
                let mut slot = 0;
                for a in &actuators {
                    let command = if a.commanded {
                        slot += 1;
                        commands[slot - 1]
                    } else {
                        0.0
                    };
                    let s = a.spring as usize;
                    expected[s] = a.rest_length_with(base[s], t, command);
                }
                expected[3] = 0.0;
                for (s, (g, e)) in w.springs.rest.iter().zip(&expected).enumerate() {
                    assert_eq!(
                        g.to_bits(),
                        e.to_bits(),
                        "spring {s} at {t} s: {g} against {e}"
                    );
                }
            }
        }
    }
}
