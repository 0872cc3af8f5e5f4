//! The device memory a World needs, buffer by buffer, known from the tables and the plan before
//! any device object exists: checked against the device's buffer and binding limits when the
//! World is planned (so a model too large fails with [`Error::DeviceLimit`] naming the limit
//! and the numbers, not with a wgpu validation error), and reported (as
//! [`DeviceMemory`]) by
//! [`World::memory_needed`](crate::World::memory_needed) and `hooke info`. The buffers stage
//! (`buffers.rs`, and the collision pass's and fused steps' own buffers) makes buffers of exactly
//! these sizes; a unit test (`world/memory_tests.rs`) holds the two together.

use super::Plan;
use crate::error::{Error, Result};
use crate::gpu::layout::{
    array_bytes, force_record_bytes, EnergySlot, GpuActuator, GpuBody, GpuBodySum, GpuCollide,
    GpuCollider, GpuMass, GpuMassPartial, GpuMaterial, GpuObstacle, GpuOscillator, GpuParams,
    GpuSpringPartial, GpuState, GpuStatus, GpuStep, Run, Vec4,
};
use crate::gpu::options::{BufferBytes, DeviceMemory};
use crate::gpu::plan::springs::link_bytes;
use crate::gpu::real::{Narrow, Precision};
use crate::gpu::tables::Tables;

/// The smallest buffer of the shared tables: wgpu rejects zero-sized bindings, so an empty
/// table gets this (or one zeroed record if that is larger).
pub(crate) const MIN_BYTES: u64 = 64;

/// The smallest buffer of the collision pass's own tables.
pub(crate) const MIN_COLLISION_BYTES: u64 = 16;

/// How a buffer is bound, which says which limits it must meet.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Binding {
    /// Bound whole as a storage buffer: `max_storage_buffer_binding_size`.
    Storage,
    /// Bound in ranges (the spring table's chunks, each within the binding limit).
    Chunked,
    /// Bound whole as a uniform buffer: `max_uniform_buffer_binding_size`.
    Uniform,
    /// Bound one record at a time (the per-step uniforms), or never (copies).
    Record,
}

/// A table of `bytes` bytes of records of `record` bytes: an empty one gets [`MIN_BYTES`], or
/// one record if that is larger.
pub(crate) fn table_bytes(bytes: u64, record: u64) -> u64 {
    if bytes == 0 {
        MIN_BYTES.max(record)
    } else {
        bytes
    }
}

/// A table of `count` records `T` in `real`.
fn real_table<T: Narrow>(real: Precision, count: u64) -> u64 {
    table_bytes(real.bytes::<T>(count), real.bytes::<T>(1))
}

/// A table of `count` records `T` (the same in both precisions).
fn plain_table<T>(count: u64) -> u64 {
    table_bytes(array_bytes::<T>(count), array_bytes::<T>(1))
}

/// A buffer of `bytes` bytes that is at least [`MIN_BYTES`].
pub(crate) fn at_least_min(bytes: u64) -> u64 {
    bytes.max(MIN_BYTES)
}

/// A buffer the World writes whole of `bytes` bytes: [`MIN_BYTES`] when empty.
pub(crate) fn nonzero(bytes: u64) -> u64 {
    if bytes == 0 {
        MIN_BYTES
    } else {
        bytes
    }
}

/// A need: name, bytes, binding.
type Need = (&'static str, u64, Binding);

impl Plan {
    /// Every buffer of a World with `tables` under this plan, and how it is bound.
    pub(crate) fn buffer_needs(&self, tables: &Tables) -> Vec<Need> {
        let mut needs = self.mass_needs(tables);
        needs.extend(self.spring_needs(tables));
        needs.extend(self.other_needs(tables));
        needs.extend(self.collision_needs(tables));
        needs.extend(self.fused_needs());
        needs
    }

    /// The per-mass tables.
    fn mass_needs(&self, tables: &Tables) -> Vec<Need> {
        use Binding::Storage;
        let (real, n) = (self.precision, tables.masses.len() as u64);
        let touch = if tables.collisions.is_some() {
            real.bytes::<Vec4>(2 * n)
        } else {
            0
        };
        vec![
            ("masses", nonzero(real.bytes::<GpuMass>(n)), Storage),
            ("positions", at_least_min(real.bytes::<Vec4>(n)), Storage),
            ("velocities", at_least_min(real.bytes::<Vec4>(n)), Storage),
            ("state", at_least_min(real.bytes::<GpuState>(n)), Storage),
            (
                "forces",
                at_least_min(force_record_bytes(self.fixed_point.bits) * n),
                Storage,
            ),
            ("touch", at_least_min(touch), Storage),
            ("contacts", at_least_min(real.bytes::<Vec4>(1)), Storage),
            (
                "mass_slots",
                at_least_min(real.bytes::<EnergySlot>(self.mass_slots)),
                Storage,
            ),
            (
                "mass_partials",
                at_least_min(real.bytes::<GpuMassPartial>(u64::from(self.mass_dispatch.groups))),
                Storage,
            ),
        ]
    }

    /// The link table, its runs and materials, the stencil's tables and the spring pass's
    /// scratch.
    fn spring_needs(&self, tables: &Tables) -> Vec<Need> {
        use Binding::{Chunked, Storage};
        let (real, n) = (self.precision, tables.masses.len() as u64);
        let springs = tables.springs.springs.len() as u64;
        let layout = &self.springs;
        let materials = if layout.one_material { 0 } else { springs };
        let mut needs = vec![
            ("links", table_bytes(link_bytes(real) * springs, 1), Chunked),
            ("link_materials", plain_table::<u32>(materials), Chunked),
            ("runs", plain_table::<Run>(n), Storage),
            (
                "materials",
                real_table::<GpuMaterial>(real, tables.springs.materials.len() as u64),
                Storage,
            ),
            (
                "spring_slots",
                at_least_min(real.bytes::<EnergySlot>(self.spring_slots)),
                Chunked,
            ),
            (
                "spring_partials",
                at_least_min(
                    real.bytes::<GpuSpringPartial>(u64::from(self.spring_dispatch.groups)),
                ),
                Chunked,
            ),
        ];
        if let Some(st) = &layout.stencil {
            needs.push(("stencil", real_table::<f64>(real, st.table_len()), Storage));
            needs.push(("stencil_runs", plain_table::<Run>(n), Storage));
        }
        if let Some(m) = &layout.muscles {
            needs.push((
                "muscle_starts",
                plain_table::<u32>(m.starts.len() as u64),
                Storage,
            ));
            needs.push((
                "muscle_slots",
                plain_table::<[u32; 2]>(m.slots.len() as u64),
                Storage,
            ));
        }
        needs
    }

    /// The parameters, actuators, commands, oscillators, bodies, obstacles, status and step
    /// uniforms, and the chunks' uniforms.
    fn other_needs(&self, tables: &Tables) -> Vec<Need> {
        use Binding::{Record, Storage, Uniform};
        let real = self.precision;
        let count = |c: usize| c as u64;
        vec![
            ("params", nonzero(real.bytes::<GpuParams>(1)), Uniform),
            (
                "actuators",
                nonzero(real.bytes::<GpuActuator>(count(tables.actuators.max(1)))),
                Storage,
            ),
            (
                "commands",
                nonzero(real.bytes::<f64>(count(tables.commands))),
                Storage,
            ),
            (
                "oscillators",
                real_table::<GpuOscillator>(real, count(tables.oscillators.len())),
                Storage,
            ),
            (
                "bodies",
                plain_table::<GpuBody>(count(tables.bodies.len())),
                Storage,
            ),
            (
                "obstacles",
                real_table::<GpuObstacle>(real, count(tables.obstacles.records.len())),
                Storage,
            ),
            (
                "obstacle_words",
                plain_table::<u32>(count(tables.obstacles.words.len())),
                Storage,
            ),
            ("status", nonzero(array_bytes::<GpuStatus>(1)), Storage),
            (
                "body_sums",
                at_least_min(real.bytes::<GpuBodySum>(count(tables.bodies.len()))),
                Storage,
            ),
            (
                "steps",
                at_least_min(self.step_stride * self.steps_per_submission),
                Record,
            ),
            ("chunks", 16 * count(self.chunks.len()), Uniform),
        ]
    }

    /// The collision pass's own tables, when a mass collides.
    fn collision_needs(&self, tables: &Tables) -> Vec<Need> {
        use Binding::{Storage, Uniform};
        let (Some(t), Some(grid)) = (&tables.collisions, &self.grid) else {
            return Vec::new();
        };
        let real = self.precision;
        let members = u64::from(t.params.members);
        let zeroed = |bytes: u64| bytes.max(MIN_COLLISION_BYTES);
        vec![
            ("collide_params", real.bytes::<GpuCollide>(1), Uniform),
            (
                "colliders",
                real.bytes::<GpuCollider>(t.colliders.len() as u64),
                Storage,
            ),
            (
                "joined",
                array_bytes::<u32>(t.joined.len().max(1) as u64),
                Storage,
            ),
            (
                "grid_cells",
                zeroed(array_bytes::<[i32; 4]>(members)),
                Storage,
            ),
            (
                "grid_counts",
                array_bytes::<u32>(grid.buckets + crate::gpu::layout::BOX_WORDS),
                Storage,
            ),
            (
                "grid_starts",
                zeroed(array_bytes::<u32>(grid.buckets + grid.blocks)),
                Storage,
            ),
            (
                "grid_keys",
                zeroed(array_bytes::<[i32; 4]>(members)),
                Storage,
            ),
            ("grid_points", zeroed(real.bytes::<Vec4>(members)), Storage),
            (
                "pair_table",
                real.bytes::<[f64; 4]>(t.pair_table.len() as u64),
                Uniform,
            ),
        ]
    }

    /// The fused steps kernel's own buffers, when the World fuses its steps.
    fn fused_needs(&self) -> Vec<Need> {
        use Binding::{Record, Storage, Uniform};
        let Some(islands) = &self.fused else {
            return Vec::new();
        };
        let real = self.precision;
        vec![
            (
                "islands",
                array_bytes::<[u32; 2]>(islands.ranges.len() as u64),
                Storage,
            ),
            (
                "step_table",
                real.bytes::<GpuStep>(islands.steps_per_dispatch),
                Storage,
            ),
            ("call", 16, Uniform),
            (
                "state_snapshot",
                at_least_min(real.bytes::<GpuState>(self.masses)),
                Record,
            ),
        ]
    }

    /// Checks every buffer of `needs` against the device's limits: its size against
    /// `max_buffer_size`, a buffer bound whole against the storage or uniform binding limit.
    ///
    /// # Errors
    /// [`Error::DeviceLimit`] naming the limit and the buffer, with its size and the limit.
    pub(crate) fn check_buffers(&self, needs: &[Need]) -> Result<()> {
        let limits = &self.limits;
        for &(name, bytes, binding) in needs {
            let (what, limit) = match binding {
                _ if bytes > limits.max_buffer_size => ("max_buffer_size", limits.max_buffer_size),
                Binding::Storage => (
                    "max_storage_buffer_binding_size",
                    limits.max_storage_buffer_binding_size,
                ),
                Binding::Uniform => (
                    "max_uniform_buffer_binding_size",
                    limits.max_uniform_buffer_binding_size,
                ),
                Binding::Chunked | Binding::Record => continue,
            };
            if bytes > limit {
                return Err(Error::DeviceLimit {
                    what: limit_of(what, name),
                    asked: bytes,
                    limit,
                });
            }
        }
        Ok(())
    }

    /// The memory of `needs`.
    pub(crate) fn memory(needs: &[Need]) -> DeviceMemory {
        DeviceMemory {
            buffers: needs
                .iter()
                .map(|&(name, bytes, _)| BufferBytes { name, bytes })
                .collect(),
        }
    }
}

/// `limit (buffer name)`, as [`Error::DeviceLimit`] names what a buffer passes: the names are
/// the buffers' own, so the strings are made once and kept.
fn limit_of(limit: &'static str, name: &'static str) -> &'static str {
    use std::collections::HashMap;
    use std::sync::{Mutex, OnceLock};
    static NAMES: OnceLock<Mutex<HashMap<(&str, &str), &'static str>>> = OnceLock::new();
    let mut names = NAMES
        .get_or_init(|| Mutex::new(HashMap::new()))
        .lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner);
    names
        .entry((limit, name))
        .or_insert_with(|| Box::leak(format!("{limit} (buffer {name})").into_boxed_str()))
}
