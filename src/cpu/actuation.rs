//! The muscles' share of a step: the actuated rest lengths for the step's start time and the
//! work they do (the change of the actuated springs' shadow elastic energy at fixed positions and
//! velocities, `spring_law::shadow_elastic`), chunk
//! by chunk on the worker pool. Every actuated spring lies in one chunk, so the chunks' rest
//! lengths are disjoint slices; each chunk books its work as a sum in spring order, and the
//! chunks' sums are added in chunk order, so the bits do not depend on the thread count.

use std::borrow::Cow;

use glam::DVec3;
use rayon::prelude::*;
use rayon::ThreadPool;

use super::chunk_actuators::{Muscle, OTHER, ZERO_LENGTH};
use super::energy_springs::length_and_rate;
use super::tables::SpringParams;
use super::waves::Waves;
use super::CpuWorld;
use crate::model::spring_law::{formed_rest, rest_in_law, shadow_elastic};
use crate::model::{Actuator, SpringLaw};

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
        rest_in_law(self.law[s], rest)
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
                w => formed_rest(base[s], m.amplitude, sines[w as usize]),
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
/// its actuated springs `springs` (with scratch `len` for their lengths and rates of
/// lengthening) and actuators
/// `muscles`.
struct Part<'a> {
    first: usize,
    rest: &'a mut [f64],
    springs: &'a [usize],
    len: &'a mut [[f64; 2]],
    muscles: &'a [Muscle],
}

/// Sets the chunk's actuated rest lengths without booking their work (energy tracking off).
fn set_rests(part: Part<'_>, drive: &Drive<'_>) -> (f64, f64) {
    drive.set_muscles(part.muscles, part.first, part.rest);
    (0.0, 0.0)
}

/// Sets the chunk's actuated rest lengths and returns the shadow elastic energy
/// ([`shadow_elastic`]) of its actuated springs before and after, J (each a sum in spring
/// order): their difference is the muscles' work. `state` is the positions and velocities at
/// the step's start, `dt` the step (s).
fn actuate_part(
    part: Part<'_>,
    drive: &Drive<'_>,
    springs_of: (&[[u32; 2]], &[SpringParams], &[u32]),
    state: (&[DVec3], &[DVec3]),
    dt: f64,
) -> (f64, f64) {
    let Part {
        first,
        rest,
        springs,
        len,
        muscles,
    } = part;
    let (ends, table, param) = springs_of;
    let energy = |s: usize, rest: f64, [l, vrel]: [f64; 2]| {
        let p = &table[param[s] as usize];
        shadow_elastic(p.k_eff(rest), rest, l, vrel, dt)
    };
    let before: f64 = springs
        .iter()
        .zip(len.iter_mut())
        .map(|(&s, l)| {
            *l = length_and_rate(ends[s], state);
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

/// The [`Drive`] of a world's fields: a macro rather than only [`CpuWorld::drive`], so that a
/// step can borrow the spring arrays mutably beside it.
macro_rules! drive {
    ($world:expr) => {
        Drive {
            actuators: &$world.actuators,
            base_rest: &$world.base_rest,
            law: &$world.law,
            command_slot: &$world.command_slot,
            commands: &$world.commands,
            waves: &$world.waves,
            time: $world.time,
        }
    };
}

impl CpuWorld {
    /// What sets the actuated rest lengths, from the world's fields.
    fn drive(&self) -> Drive<'_> {
        drive!(self)
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
            drive.set_muscles(by.formed_of_chunk(c), 0, &mut rest);
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
    /// did: the change of the actuated springs' shadow elastic energy (`shadow_elastic`) at the
    /// current positions and velocities, J.
    pub(super) fn actuate_step(&mut self, pool: Option<&ThreadPool>) -> f64 {
        self.waves.evaluate(self.time);
        let drive = drive!(self);
        let by = &self.chunk_actuators;
        let sp = &mut self.springs;
        let springs_of = (&sp.ends[..], &sp.table[..], &sp.param[..]);
        let (state, dt) = ((&self.pos[..], &self.vel[..]), self.params.dt);
        self.actuated_len
            .resize(self.actuated_springs.len(), [0.0; 2]);
        let mut rest: &mut [f64] = &mut sp.rest;
        let mut len: &mut [[f64; 2]] = &mut self.actuated_len;
        let mut parts = Vec::with_capacity(self.chunks.len());
        for (c, chunk) in self.chunks.iter().enumerate() {
            let (r, rest_tail) = std::mem::take(&mut rest).split_at_mut(chunk.springs.len());
            let springs = &self.actuated_springs[by.actuated_of_chunk(c)];
            let (l, len_tail) = std::mem::take(&mut len).split_at_mut(springs.len());
            (rest, len) = (rest_tail, len_tail);
            parts.push(Part {
                first: chunk.springs.start,
                rest: r,
                springs,
                len: l,
                // With booking off, the muscles the walk forms are left to it.
                muscles: by.of_chunk(c, self.track_energy),
            });
        }
        let book = self.track_energy;
        self.rest_behind = !book && by.any_formed();
        let run = |p: Part<'_>| {
            if book {
                actuate_part(p, &drive, springs_of, state, dt)
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
