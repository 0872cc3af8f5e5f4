//! The muscles' share of a step: the actuated rest lengths for the step's start time and the
//! work they do (the change of the actuated springs' elastic energy at fixed positions), chunk
//! by chunk on the worker pool. Every actuated spring lies in one chunk, so the chunks' rest
//! lengths are disjoint slices; each chunk books its work as a sum in spring order, and the
//! chunks' sums are added in chunk order, so the bits do not depend on the thread count.

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
    /// Actuator indices grouped by the chunk of their spring, in actuator order within a chunk
    /// (so a spring driven by two actuators takes the later one's rest length, as `actuate`).
    order: Vec<u32>,
    /// `order[actuators_at[c]..actuators_at[c + 1]]` are chunk `c`'s actuators.
    actuators_at: Vec<usize>,
    /// `actuated_springs[springs_at[c]..springs_at[c + 1]]` are chunk `c`'s actuated springs.
    springs_at: Vec<usize>,
}

impl ChunkActuators {
    /// Groups `actuators` and `actuated` (the actuated springs, increasing) by chunk.
    pub(super) fn new(actuators: &[Actuator], actuated: &[usize], chunks: &[Chunk]) -> Self {
        let chunk_of = |s: usize| chunks.partition_point(|c| c.springs.end <= s);
        let mut order: Vec<u32> = (0..actuators.len() as u32).collect();
        order.sort_by_key(|&i| chunk_of(actuators[i as usize].spring as usize));
        let mut actuators_at = vec![0; chunks.len() + 1];
        let mut springs_at = vec![0; chunks.len() + 1];
        for c in 0..chunks.len() {
            let end = chunks[c].springs.end;
            actuators_at[c + 1] =
                order.partition_point(|&i| (actuators[i as usize].spring as usize) < end);
            springs_at[c + 1] = actuated.partition_point(|&s| s < end);
        }
        Self {
            order,
            actuators_at,
            springs_at,
        }
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
}

/// One chunk's part: its springs `first..first + rest.len()` (current rest lengths `rest`),
/// its actuated springs `springs` (with scratch `len` for their lengths) and actuators `order`.
struct Part<'a> {
    first: usize,
    rest: &'a mut [f64],
    springs: &'a [usize],
    len: &'a mut [f64],
    order: &'a [u32],
}

/// Sets the chunk's actuated rest lengths without booking their work (energy tracking off).
fn set_rests(part: Part<'_>, drive: &Drive<'_>) -> (f64, f64) {
    for &i in part.order {
        let s = drive.actuators[i as usize].spring as usize;
        part.rest[s - part.first] = drive.rest(i as usize);
    }
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
        order,
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
    for &i in order {
        let s = drive.actuators[i as usize].spring as usize;
        rest[s - first] = drive.rest(i as usize);
    }
    let after: f64 = springs
        .iter()
        .zip(len.iter())
        .map(|(&s, &l)| energy(s, rest[s - first], l))
        .sum();
    (before, after)
}

impl CpuWorld {
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
                order: &by.order[by.actuators_at[c]..by.actuators_at[c + 1]],
            });
        }
        let book = self.track_energy;
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
