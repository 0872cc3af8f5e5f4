//! The buffers stage of building a World (model -> tables -> plan -> buffers -> bindings ->
//! pipelines): the device buffers the kernels share. The model's static tables (links, runs,
//! materials, oscillators, bodies, the stencil's) are uploaded here; the state (positions,
//! velocities, the state records, mass properties, actuators, parameters, status) is created
//! zeroed and written by [`World::reset`](crate::gpu::World::reset), its only writer. Buffers
//! only one kernel family reads (the collision grid's, the fused steps') are its module's.

use wgpu::util::DeviceExt;

use crate::gpu::kernels::collisions::touch_bytes;
use crate::gpu::layout::{
    array_bytes, force_record_bytes, EnergySlot, GpuActuator, GpuBodySum, GpuMass, GpuMassPartial,
    GpuParams, GpuSpringPartial, GpuState, GpuStatus, Vec4,
};
use crate::gpu::plan::memory::{at_least_min, nonzero, MIN_BYTES};
use crate::gpu::plan::Plan;
use crate::gpu::real::{Narrow, Precision};
use crate::gpu::tables::Tables;

/// The stencil variant's tables: rest lengths per (mass, slot), and (first, end) link of each
/// mass's springs outside the stencil.
#[derive(Debug)]
pub(crate) struct StencilBuffers {
    pub(crate) rests: wgpu::Buffer,
    pub(crate) runs: wgpu::Buffer,
    /// The muscles the spring pass sets before its walk, when it does: per mass the first of
    /// its muscles (masses + 1 entries), and per muscle its (actuator, slot element).
    pub(crate) muscles: Option<[wgpu::Buffer; 2]>,
}

/// GPU buffers of a World.
#[derive(Debug)]
pub(crate) struct Buffers {
    pub(crate) params: wgpu::Buffer,
    pub(crate) masses: wgpu::Buffer,
    pub(crate) links: wgpu::Buffer,
    pub(crate) link_materials: wgpu::Buffer,
    /// (first, end) link of each mass's springs.
    pub(crate) runs: wgpu::Buffer,
    pub(crate) stencil: Option<StencilBuffers>,
    pub(crate) materials: wgpu::Buffer,
    pub(crate) actuators: wgpu::Buffer,
    /// One real command per commanded actuator (a placeholder when there is none); written whole
    /// by `World::set_commands` and `reset`.
    pub(crate) commands: wgpu::Buffer,
    pub(crate) oscillators: wgpu::Buffer,
    pub(crate) bodies: wgpu::Buffer,
    /// The obstacle table (`GpuObstacle` records) and the obstacle words (grid lists, then the
    /// heightfields' samples).
    pub(crate) obstacles: wgpu::Buffer,
    pub(crate) obstacle_words: wgpu::Buffer,
    /// The collision pass's force on each mass (two `vec4<Real>` per mass; a placeholder when no
    /// mass collides).
    pub(crate) touch: wgpu::Buffer,
    /// Each mass's contact for the sensors (one `vec4<Real>` per mass, written by `integrate`
    /// with `CONTACTS`; a placeholder until a sensor asks for contacts: see
    /// [`World::sense`](super::World::sense)).
    pub(crate) contacts: wgpu::Buffer,
    pub(crate) positions: wgpu::Buffer,
    pub(crate) velocities: wgpu::Buffer,
    /// Position and velocity interleaved, one `GpuState` per mass (what the passes read).
    pub(crate) state: wgpu::Buffer,
    pub(crate) forces: wgpu::Buffer,
    pub(crate) status: wgpu::Buffer,
    pub(crate) spring_slots: wgpu::Buffer,
    pub(crate) mass_slots: wgpu::Buffer,
    pub(crate) mass_partials: wgpu::Buffer,
    pub(crate) spring_partials: wgpu::Buffer,
    pub(crate) body_sums: wgpu::Buffer,
    pub(crate) steps: wgpu::Buffer,
}

/// Storage usage of every table (copies in and out for setters, readback and reset).
const STORAGE: wgpu::BufferUsages = wgpu::BufferUsages::STORAGE
    .union(wgpu::BufferUsages::COPY_DST)
    .union(wgpu::BufferUsages::COPY_SRC);

/// A buffer holding `items` (a static table); an empty table gets `MIN_BYTES`, or one zeroed
/// record if that is larger (a binding must hold at least one element of its array).
fn table<T: bytemuck::Pod>(device: &wgpu::Device, label: &str, items: &[T]) -> wgpu::Buffer {
    let bytes: &[u8] = bytemuck::cast_slice(items);
    let pad = vec![0u8; (MIN_BYTES as usize).max(std::mem::size_of::<T>())];
    device.create_buffer_init(&wgpu::util::BufferInitDescriptor {
        label: Some(label),
        contents: if bytes.is_empty() { &pad } else { bytes },
        usage: STORAGE,
    })
}

/// A buffer holding `items` (a static table of records built in f64) as the kernels of
/// precision `real` read them; an empty table gets one zeroed record (at least `MIN_BYTES`).
fn real_table<T: Narrow>(
    device: &wgpu::Device,
    label: &str,
    real: Precision,
    items: &[T],
) -> wgpu::Buffer {
    if items.is_empty() {
        let bytes = vec![0u8; (MIN_BYTES.max(real.bytes::<T>(1))) as usize];
        return table(device, label, &bytes);
    }
    table(device, label, &real.encode(items))
}

/// A zeroed buffer of `bytes` bytes (`MIN_BYTES` when empty) that `reset` fills.
fn state(
    device: &wgpu::Device,
    label: &str,
    bytes: u64,
    usage: wgpu::BufferUsages,
) -> wgpu::Buffer {
    zeroed(device, label, nonzero(bytes), usage)
}

/// A zeroed scratch buffer of at least `bytes` bytes (and at least `MIN_BYTES`).
fn scratch(
    device: &wgpu::Device,
    label: &str,
    bytes: u64,
    usage: wgpu::BufferUsages,
) -> wgpu::Buffer {
    zeroed(device, label, at_least_min(bytes), usage)
}

fn zeroed(
    device: &wgpu::Device,
    label: &str,
    size: u64,
    usage: wgpu::BufferUsages,
) -> wgpu::Buffer {
    device.create_buffer(&wgpu::BufferDescriptor {
        label: Some(label),
        size,
        usage,
        mapped_at_creation: false,
    })
}

impl Buffers {
    /// Every shared buffer of a World built from `tables` under `plan`.
    pub(crate) fn new(device: &wgpu::Device, tables: &Tables, plan: &Plan) -> Self {
        let n = tables.masses.len() as u64;
        let real = plan.precision;
        let layout = &plan.springs;
        let collisions = tables.collisions.is_some();
        let springs = &tables.springs.springs;
        let uniform = wgpu::BufferUsages::UNIFORM | wgpu::BufferUsages::COPY_DST;
        Self {
            params: state(device, "hooke::params", real.bytes::<GpuParams>(1), uniform),
            masses: state(device, "hooke::masses", real.bytes::<GpuMass>(n), STORAGE),
            links: table(device, "hooke::links", &layout.link_records(springs, real)),
            link_materials: table(
                device,
                "hooke::link_materials",
                &layout.link_materials(springs),
            ),
            runs: table(device, "hooke::runs", &layout.links.runs()),
            stencil: layout
                .stencil
                .as_ref()
                .zip(layout.outside.as_ref())
                .map(|(st, (runs, _))| StencilBuffers {
                    rests: real_table(
                        device,
                        "hooke::stencil",
                        real,
                        &st.table(&tables.springs.springs, real),
                    ),
                    runs: table(device, "hooke::stencil_runs", runs),
                    muscles: layout.muscles.as_ref().map(|m| {
                        [
                            table(device, "hooke::muscle_starts", &m.starts),
                            table(device, "hooke::muscle_slots", &m.slots),
                        ]
                    }),
                }),
            materials: real_table(device, "hooke::materials", real, &tables.springs.materials),
            actuators: state(
                device,
                "hooke::actuators",
                real.bytes::<GpuActuator>(tables.actuators.max(1) as u64),
                STORAGE,
            ),
            commands: state(
                device,
                "hooke::commands",
                real.bytes::<f64>(tables.commands as u64),
                STORAGE,
            ),
            oscillators: real_table(device, "hooke::oscillators", real, &tables.oscillators),
            bodies: table(device, "hooke::bodies", &tables.bodies),
            obstacles: real_table(device, "hooke::obstacles", real, &tables.obstacles.records),
            obstacle_words: table(device, "hooke::obstacle_words", &tables.obstacles.words),
            touch: scratch(
                device,
                "hooke::touch",
                touch_bytes(n, collisions, real),
                STORAGE,
            ),
            contacts: scratch(device, "hooke::contacts", real.bytes::<Vec4>(1), STORAGE),
            positions: scratch(
                device,
                "hooke::positions",
                real.bytes::<Vec4>(n),
                STORAGE | wgpu::BufferUsages::VERTEX,
            ),
            velocities: scratch(device, "hooke::velocities", real.bytes::<Vec4>(n), STORAGE),
            state: scratch(device, "hooke::state", real.bytes::<GpuState>(n), STORAGE),
            forces: scratch(
                device,
                "hooke::forces",
                force_record_bytes(plan.fixed_point.bits) * n,
                STORAGE,
            ),
            status: state(
                device,
                "hooke::status",
                array_bytes::<GpuStatus>(1),
                STORAGE,
            ),
            spring_slots: scratch(
                device,
                "hooke::spring_slots",
                real.bytes::<EnergySlot>(plan.spring_slots),
                STORAGE,
            ),
            mass_slots: scratch(
                device,
                "hooke::mass_slots",
                real.bytes::<EnergySlot>(plan.mass_slots),
                STORAGE,
            ),
            mass_partials: scratch(
                device,
                "hooke::mass_partials",
                real.bytes::<GpuMassPartial>(u64::from(plan.mass_dispatch.groups)),
                STORAGE,
            ),
            spring_partials: scratch(
                device,
                "hooke::spring_partials",
                real.bytes::<GpuSpringPartial>(u64::from(plan.spring_dispatch.groups)),
                STORAGE,
            ),
            body_sums: scratch(
                device,
                "hooke::body_sums",
                real.bytes::<GpuBodySum>(tables.bodies.len() as u64),
                STORAGE,
            ),
            steps: scratch(
                device,
                "hooke::steps",
                plan.step_stride * plan.steps_per_submission,
                uniform,
            ),
        }
    }

    /// Every buffer, for the memory statistics.
    pub(crate) fn all(&self) -> impl Iterator<Item = &wgpu::Buffer> {
        self.named().map(|(_, b)| b)
    }

    /// Every buffer with its name (its label without `hooke::`, as `plan/memory.rs` names it).
    pub(crate) fn named(&self) -> impl Iterator<Item = (&'static str, &wgpu::Buffer)> {
        [
            ("params", &self.params),
            ("masses", &self.masses),
            ("links", &self.links),
            ("link_materials", &self.link_materials),
            ("runs", &self.runs),
            ("materials", &self.materials),
            ("actuators", &self.actuators),
            ("commands", &self.commands),
            ("oscillators", &self.oscillators),
            ("bodies", &self.bodies),
            ("obstacles", &self.obstacles),
            ("obstacle_words", &self.obstacle_words),
            ("touch", &self.touch),
            ("contacts", &self.contacts),
            ("positions", &self.positions),
            ("velocities", &self.velocities),
            ("state", &self.state),
            ("forces", &self.forces),
            ("status", &self.status),
            ("spring_slots", &self.spring_slots),
            ("mass_slots", &self.mass_slots),
            ("mass_partials", &self.mass_partials),
            ("spring_partials", &self.spring_partials),
            ("body_sums", &self.body_sums),
            ("steps", &self.steps),
        ]
        .into_iter()
        .chain(
            self.stencil
                .iter()
                .flat_map(|s| [("stencil", &s.rests), ("stencil_runs", &s.runs)]),
        )
        .chain(self.stencil.iter().flat_map(|s| {
            s.muscles
                .iter()
                .flat_map(|[starts, slots]| [("muscle_starts", starts), ("muscle_slots", slots)])
        }))
    }

    /// Bytes of the stencil variant's tables (0 without a stencil).
    pub(crate) fn stencil_bytes(&self) -> u64 {
        self.stencil
            .as_ref()
            .map_or(0, |s| s.rests.size() + s.runs.size())
    }
}
