//! The collision pass on the device: the colliding masses' table, the grid's buffers, one bind
//! group shared by the collision kernels, and the dispatches of one pass. The kernels are
//! `shaders/grid_*.wgsl` and `shaders/collide.wgsl` over `shaders/shared/collisions.wgsl`; the CPU
//! twin is `src/cpu/mass_grid.rs` and `src/cpu/collisions.rs`.
//!
//! One pass, recorded after the spring pass of each step (and before `energy_masses`):
//! `grid_bounds` (per colliding mass), `grid_frame` (one invocation: dense numbering in the box of
//! occupied cells when it fits the table, else hashed), `grid_count` (per colliding mass),
//! `grid_scan` (per scan block), `grid_scan_blocks` (one workgroup), `grid_scatter` (per
//! colliding mass), `grid_sort` (per bucket), `collide` (per colliding mass). It writes each colliding mass's force (two `vec4<Real>` per mass) to the
//! `touch` buffer, which the integrate pass reads.

use super::layout::{array_bytes, GpuCollide, GpuCollider, Vec4, NONE};
use super::real::Precision;
use super::pipelines::Kernel;
use super::plan::{Dispatch, Plan};
use crate::cpu::collision_exclusions;
use crate::error::Result;
use crate::model::Model;

/// Buckets per invocation of `grid_scan` (WGSL `SCAN_ITEMS`).
pub(crate) const SCAN_ITEMS: u64 = 4;

/// The grid's cells are this much wider than the largest collision diameter, so that f32
/// rounding of `p / cell` can never put two touching masses two cells apart: the rounding of
/// `floor(p * inverse_cell)` is at most an ulp of `p * inverse_cell`, below `2^-6` while masses
/// stay within `2^17` cells of the origin (with the margin `2^-5` of a cell, no pair is missed
/// there; beyond, a pair within 3 % of contact could be).
const CELL_MARGIN: f64 = 1.0 + 1.0 / 32.0;

/// The colliding masses as the device reads them.
#[derive(Clone, Debug)]
pub(crate) struct CollisionTables {
    pub(crate) params: GpuCollide,
    /// The pair force of each pair of classes: (stiffness (N/m), damping (N*s/m), friction, 0).
    pub(crate) pair_table: Vec<[f64; 4]>,
    pub(crate) colliders: Vec<GpuCollider>,
    /// Spring neighbours among the colliding masses (mass indices, sorted per collider).
    pub(crate) joined: Vec<u32>,
}

impl CollisionTables {
    /// The tables of `model` with scan blocks of `block` buckets, or `None` when no mass has a
    /// collision radius.
    pub(crate) fn new(model: &Model, block: u64) -> Option<Self> {
        model.first_colliding_mass()?;
        let radius: Vec<f64> = model.masses.iter().map(|m| m.collision_radius).collect();
        let (starts, joined) = collision_exclusions(model, &radius);
        let mut body = vec![NONE; radius.len()];
        for (b, range) in model.bodies.iter().enumerate() {
            if !range.self_collision {
                body[range.masses.clone()].fill(b as u32);
            }
        }
        let colliders: Vec<GpuCollider> = model
            .masses
            .iter()
            .enumerate()
            .filter(|(_, m)| m.collision_radius > 0.0)
            .map(|(i, m)| GpuCollider {
                mass: i as u32,
                radius: m.collision_radius,
                group: m.collision_group,
                mask: m.collision_mask,
                body: body[i],
                joined_first: starts[i],
                joined_end: starts[i + 1],
                collision_class: m.collision_class,
                ..Default::default()
            })
            .collect();
        let largest = radius.iter().copied().fold(0.0, f64::max);
        let members = colliders.len() as u64;
        let buckets = (2 * members).next_power_of_two().max(block);
        let pair_table = model
            .collision_table()
            .iter()
            .map(|c| [c.stiffness, c.damping, c.friction, 0.0])
            .collect();
        Some(Self {
            params: GpuCollide {
                dt: model.params.dt,
                inverse_cell: 1.0 / (2.0 * largest * CELL_MARGIN),
                members: members as u32,
                buckets: buckets as u32,
                largest,
                ..GpuCollide::default()
            },
            pair_table,
            colliders,
            joined,
        })
    }

    /// Scan blocks of `block` buckets.
    fn blocks(&self, block: u64) -> u64 {
        u64::from(self.params.buckets) / block
    }
}

/// The collision pass of a World: its buffers, bind group and dispatches.
#[derive(Debug)]
pub(crate) struct CollisionPass {
    group: wgpu::BindGroup,
    /// Per colliding mass, per scan block, per bucket.
    members: Dispatch,
    blocks: Dispatch,
    buckets: Dispatch,
    /// The buffers it owns (for the memory statistics).
    buffers: Vec<wgpu::Buffer>,
}

/// Device buffers the collision pass shares with the rest of the World.
pub(crate) struct Shared<'a> {
    pub(crate) masses: &'a wgpu::Buffer,
    pub(crate) state: &'a wgpu::Buffer,
    pub(crate) touch: &'a wgpu::Buffer,
}

impl CollisionPass {
    /// The pass of `tables` under `plan`, bound to the collision kernels' layout (`kernel`, the
    /// first of them: they share one).
    ///
    /// # Errors
    /// [`Error::DeviceLimit`](crate::Error::DeviceLimit) when its tables or dispatches do not
    /// fit the device.
    pub(crate) fn new(
        device: &wgpu::Device,
        plan: &Plan,
        tables: &CollisionTables,
        kernel: &Kernel,
        shared: &Shared<'_>,
    ) -> Result<Self> {
        use wgpu::util::DeviceExt;
        let block = plan.scan_block();
        let real = plan.precision;
        let members = u64::from(tables.params.members);
        let buckets = u64::from(tables.params.buckets);
        for bytes in [
            array_bytes::<[i32; 4]>(members),
            array_bytes::<u32>(buckets),
            real.bytes::<GpuCollider>(members),
        ] {
            plan.check_binding(bytes)?;
        }
        let usage = wgpu::BufferUsages::STORAGE;
        let init = |label: &str, contents: &[u8], usage| {
            device.create_buffer_init(&wgpu::util::BufferInitDescriptor {
                label: Some(label),
                contents,
                usage,
            })
        };
        let zeroed = |label: &str, bytes: u64| {
            device.create_buffer(&wgpu::BufferDescriptor {
                label: Some(label),
                size: bytes.max(16),
                usage,
                mapped_at_creation: false,
            })
        };
        let joined: &[u32] = if tables.joined.is_empty() {
            &[0]
        } else {
            &tables.joined
        };
        let buffers = vec![
            init(
                "hooke::collide_params",
                &real.encode_one(&tables.params),
                wgpu::BufferUsages::UNIFORM,
            ),
            init("hooke::colliders", &real.encode(&tables.colliders), usage),
            init("hooke::joined", bytemuck::cast_slice(joined), usage),
            zeroed("hooke::grid_cells", array_bytes::<[i32; 4]>(members)),
            init(
                "hooke::grid_counts",
                bytemuck::cast_slice(&counts_init(buckets)),
                usage,
            ),
            zeroed(
                "hooke::grid_starts",
                array_bytes::<u32>(buckets + tables.blocks(block)),
            ),
            zeroed("hooke::grid_keys", array_bytes::<[i32; 4]>(members)),
            zeroed("hooke::grid_points", real.bytes::<Vec4>(members)),
            init(
                "hooke::pair_table",
                &real.encode(&tables.pair_table),
                wgpu::BufferUsages::UNIFORM,
            ),
        ];
        let b = &buffers;
        let order = [
            &b[0],
            shared.masses,
            &b[1],
            &b[2],
            shared.state,
            &b[3],
            &b[4],
            &b[5],
            &b[6],
            &b[7],
            shared.touch,
            &b[8],
        ];
        let entries: Vec<wgpu::BindGroupEntry> = order
            .iter()
            .enumerate()
            .map(|(i, buffer)| wgpu::BindGroupEntry {
                binding: i as u32,
                resource: buffer.as_entire_binding(),
            })
            .collect();
        let group = device.create_bind_group(&wgpu::BindGroupDescriptor {
            label: Some("hooke::collisions"),
            layout: &kernel.layout,
            entries: &entries,
        });
        let per_group = u64::from(plan.granularity.workgroup_size);
        Ok(Self {
            group,
            members: plan.dispatch(members, per_group, "collision pass")?,
            blocks: plan.dispatch(tables.blocks(block), 1, "collision grid scan")?,
            buckets: plan.dispatch(buckets, per_group, "collision grid sort")?,
            buffers,
        })
    }

    /// Records one collision pass (the kernels in
    /// [`COLLISION_STEMS`](super::pipelines::COLLISION_STEMS) order) into `pass`.
    pub(crate) fn record(&self, kernels: &[Kernel], pass: &mut wgpu::ComputePass<'_>) {
        let one = Dispatch {
            x: 1,
            y: 1,
            groups: 1,
        };
        let dispatches = [
            self.members,
            one,
            self.members,
            self.blocks,
            one,
            self.members,
            self.buckets,
            self.members,
        ];
        for (kernel, d) in kernels.iter().zip(dispatches) {
            pass.set_pipeline(&kernel.pipeline);
            pass.set_bind_group(0, &self.group, &[]);
            pass.dispatch_workgroups(d.x, d.y, 1);
        }
    }

    /// The buffers it owns.
    pub(crate) fn buffers(&self) -> impl Iterator<Item = &wgpu::Buffer> {
        self.buffers.iter()
    }
}

/// Words after the bucket counts holding the box of occupied cells and this step's frame (WGSL
/// `BOX_WORDS`; see `Frame` in `shaders/shared/collisions.wgsl`).
pub(crate) const BOX_WORDS: u64 = 12;

/// The initial counts buffer: zero counts, then an empty box (lowest coordinates at the top of
/// their order, highest at the bottom) and a zeroed frame.
fn counts_init(buckets: u64) -> Vec<u32> {
    let mut words = vec![0u32; (buckets + BOX_WORDS) as usize];
    let b = buckets as usize;
    words[b..b + 3].fill(u32::MAX);
    words
}

/// Bytes of the `touch` buffer in `precision`: two `vec4<Real>` per mass when a mass collides.
pub(crate) fn touch_bytes(masses: u64, collisions: bool, precision: Precision) -> u64 {
    if collisions {
        precision.bytes::<Vec4>(2 * masses)
    } else {
        0
    }
}
