//! The collision pass on the device: its eight kernels, the grid's buffers, one bind group
//! shared by the kernels, and the dispatches of one pass (the colliding masses' table:
//! `tables/collisions.rs`; the grid's size: `plan::GridPlan`). The kernels are
//! `shaders/grid_*.wgsl` and `shaders/collide.wgsl` over `shaders/shared/collisions.wgsl`; the CPU
//! twin is `src/cpu/mass_grid.rs` and `src/cpu/collisions.rs`.
//!
//! One pass, recorded after the spring pass of each step (and before `energy_masses`):
//! `grid_bounds` (per colliding mass), `grid_frame` (one invocation: dense numbering in the box of
//! occupied cells when it fits the table, else hashed), `grid_count` (per colliding mass),
//! `grid_scan` (per scan block), `grid_scan_blocks` (one workgroup), `grid_scatter` (per
//! colliding mass), `grid_sort` (per bucket), `collide` (per colliding mass). It writes each colliding mass's force (two `vec4<Real>` per mass) to the
//! `touch` buffer, which the integrate pass reads.

use crate::gpu::kernel::{bind, whole, Fragment, KernelSource, Slot};
use crate::gpu::layout::{array_bytes, GpuCollide, Vec4, BOX_WORDS};
use crate::gpu::plan::memory::MIN_COLLISION_BYTES;
use crate::gpu::plan::{Dispatch, GridPlan, Plan};
use crate::gpu::real::Precision;
use crate::gpu::tables::CollisionTables;

/// The bindings every collision kernel shares (`shared/collisions.wgsl`'s).
const BINDINGS: [Slot; 12] = {
    use Slot::{Read, ReadWrite, Uniform};
    [
        Uniform, Read, Read, Read, Read, ReadWrite, ReadWrite, ReadWrite, ReadWrite, ReadWrite,
        ReadWrite, Uniform,
    ]
};

/// A kernel of the collision pass (they share one fragment and one bind group layout).
const fn collision_kernel(stem: &'static str, body: &'static str) -> KernelSource {
    KernelSource {
        stem,
        fragments: &[Fragment::Common, Fragment::Words, Fragment::Collisions],
        body,
        stepped: false,
        bindings: &BINDINGS,
        consts: &[],
    }
}

/// The collision pass's kernels, in the order one step dispatches them.
pub(crate) const SOURCES: [KernelSource; 8] = [
    collision_kernel(
        "grid_bounds",
        include_str!("../../../shaders/grid_bounds.wgsl"),
    ),
    collision_kernel(
        "grid_frame",
        include_str!("../../../shaders/grid_frame.wgsl"),
    ),
    collision_kernel(
        "grid_count",
        include_str!("../../../shaders/grid_count.wgsl"),
    ),
    collision_kernel("grid_scan", include_str!("../../../shaders/grid_scan.wgsl")),
    collision_kernel(
        "grid_scan_blocks",
        include_str!("../../../shaders/grid_scan_blocks.wgsl"),
    ),
    collision_kernel(
        "grid_scatter",
        include_str!("../../../shaders/grid_scatter.wgsl"),
    ),
    collision_kernel("grid_sort", include_str!("../../../shaders/grid_sort.wgsl")),
    collision_kernel("collide", include_str!("../../../shaders/collide.wgsl")),
];

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
    /// The pass of `tables` on the grid `grid`, under `plan`, bound to the collision kernels'
    /// layout (`layout`: they share one).
    pub(crate) fn new(
        device: &wgpu::Device,
        plan: &Plan,
        tables: &CollisionTables,
        grid: &GridPlan,
        layout: &wgpu::BindGroupLayout,
        shared: &Shared<'_>,
    ) -> Self {
        use wgpu::util::DeviceExt;
        let real = plan.precision;
        let members = u64::from(tables.params.members);
        let buckets = grid.buckets;
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
                size: bytes.max(MIN_COLLISION_BYTES),
                usage,
                mapped_at_creation: false,
            })
        };
        let joined: &[u32] = if tables.joined.is_empty() {
            &[0]
        } else {
            &tables.joined
        };
        let params = GpuCollide {
            buckets: buckets as u32,
            ..tables.params
        };
        let buffers = vec![
            init(
                "hooke::collide_params",
                &real.encode_one(&params),
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
                array_bytes::<u32>(buckets + grid.blocks),
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
        let group = bind(device, layout, "hooke::collisions", whole(&order));
        Self {
            group,
            members: grid.members_dispatch,
            blocks: grid.blocks_dispatch,
            buckets: grid.buckets_dispatch,
            buffers,
        }
    }

    /// Records one collision pass (`pipelines`: the kernels of [`SOURCES`], in order) into
    /// `pass`.
    pub(crate) fn record(
        &self,
        pipelines: &[wgpu::ComputePipeline],
        pass: &mut wgpu::ComputePass<'_>,
    ) {
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
        for (pipeline, d) in pipelines.iter().zip(dispatches) {
            pass.set_pipeline(pipeline);
            pass.set_bind_group(0, &self.group, &[]);
            pass.dispatch_workgroups(d.x, d.y, 1);
        }
    }

    /// The buffers it owns.
    pub(crate) fn buffers(&self) -> impl Iterator<Item = &wgpu::Buffer> {
        self.buffers.iter()
    }
}

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
