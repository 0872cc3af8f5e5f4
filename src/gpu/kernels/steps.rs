//! The fused steps kernel (`shaders/steps.wgsl`): every step of a submission in one dispatch, for
//! models whose masses fall into islands that no spring joins.
//!
//! A population of bodies that do not collide (a herd, robots evaluated side by side) needs no
//! synchronisation between bodies within a step, only between the spring walk and the mass
//! update of each body. One invocation that owns a whole body (an island) can run both for
//! every step on its own, which saves the two dispatches per step (on lavapipe ~45 us each,
//! waking its threads; a few us on a GPU, where a small population's step is of that order) and
//! keeps the body's data in the cache through the dispatch's steps. The walk and the mass update
//! are the passes' own functions, so the bits are the same. A failure stops only the island that
//! meets it, so the World saves the state records before each round and, when the status
//! reports a failure, restores them and reruns the round with the two passes
//! (`World::step_round`), which stop every mass at the first failing step.
//!
//! Giving each workgroup whole bodies and synchronising its invocations with workgroup
//! barriers between the walk and the update is slower: on lavapipe, which runs a kernel with
//! barriers as coroutines, that ran at 0.7x the two passes (docs/PERFORMANCE.md, "What was
//! tried and what it gave").

use wgpu::util::DeviceExt;

use super::bind::bind;
use super::buffers::Buffers;
use super::layout::{GpuSpring, GpuStep, Run};
use super::real::Precision;
use super::pipelines::Kernel;
use super::plan::Plan;

/// What a World that fuses its steps keeps: the kernel's bind group and its own buffers.
#[derive(Debug)]
pub(crate) struct FusedSteps {
    group: wgpu::BindGroup,
    /// Islands: one invocation each.
    islands: u32,
    /// Steps per dispatch (and per submission): see [`steps_per_dispatch`].
    pub(crate) steps_per_dispatch: u64,
    /// Workgroups of the dispatch.
    workgroups: u32,
    /// The dispatch's `GpuStep` records, in order (storage).
    step_table: wgpu::Buffer,
    /// (steps in the dispatch, islands, 0, 0).
    call: wgpu::Buffer,
    /// The state records as they were before the last fused round.
    snapshot: wgpu::Buffer,
    precision: Precision,
}

/// Most masses an island may have: one invocation steps it alone.
pub(crate) const ISLAND_MASSES: u64 = 256;

/// Loop iterations one invocation of a fused dispatch may take in all (every loop of the
/// kernel, every step). Lavapipe (Mesa's gallivm) caps the loop iterations of an invocation at
/// 65 535 in all, counted across every loop of the shader (its "loop limiter", against hangs),
/// and then ends every loop early, silently: a dispatch of 1 024 steps of a 64-mass lattice with
/// 134 muscles (266 iterations per step) went wrong at step 248 (regression tests
/// `a_long_fused_dispatch_is_not_cut_short_by_lavapipes_loop_limit`,
/// `commanded_muscles_set_before_the_walk_give_the_walks_bits`). Dispatches are cut to stay well
/// under it, which on a GPU also keeps one dispatch short of the driver's watchdog.
const LOOP_ITERATIONS: u64 = 60_000;

/// Steps one fused dispatch may run: `LOOP_ITERATIONS` over the loop iterations of the
/// costliest island's step, at least 1 and at most `per_submission`. Lavapipe counts each
/// loop's iterations plus one (its exit), so a step of an island of n masses with M muscles in
/// slots, R springs outside the stencil and O obstacles takes at most 1 (the step loop) +
/// (M + 1) (the muscles) + (n + 1) (the walk) + (R + n) (each mass's springs outside the
/// stencil) + (n + 1) (the update) + n (O + 1) (each mass's obstacle candidates, with
/// obstacles): measured, the 20-mass inchworm (M = 60, R = 4) went wrong after 508 steps in one
/// dispatch (129 a step), the 64-mass lattice (M = 134, R = 0) after 247 (266).
pub(crate) fn steps_per_dispatch(
    islands: &[[u32; 2]],
    muscle_starts: &[u32],
    outside: &[Run],
    obstacles: u64,
    per_submission: u64,
) -> u64 {
    let worst = islands
        .iter()
        .map(|&[start, end]| {
            let (a, b) = (start as usize, end as usize);
            let masses = u64::from(end - start);
            let muscles = u64::from(muscle_starts[b] - muscle_starts[a]);
            let links: u64 = outside[a..b].iter().map(|r| u64::from(r[1] - r[0])).sum();
            let obstacle_loops = if obstacles > 0 {
                masses * (obstacles + 1)
            } else {
                0
            };
            4 + muscles + 3 * masses + links + obstacle_loops
        })
        .max()
        .unwrap_or(1);
    (LOOP_ITERATIONS / worst).clamp(1, per_submission.max(1))
}

/// Cuts masses `0..masses` into islands: runs of consecutive masses that no spring of `springs`
/// joins to another run, as short as that allows (a cut falls wherever every spring starting
/// before it also ends before it: between bodies numbered body by body). `None` when an island
/// would have more than `capacity` masses.
pub(crate) fn islands(
    springs: &[GpuSpring],
    masses: usize,
    capacity: u64,
) -> Option<Vec<[u32; 2]>> {
    // reach[lo] = highest mass a spring from `lo` (its lower end) reaches.
    let mut reach: Vec<u32> = (0..masses as u32).collect();
    for sp in springs {
        let (lo, hi) = (sp.a.min(sp.b) as usize, sp.a.max(sp.b));
        reach[lo] = reach[lo].max(hi);
    }
    let mut out = Vec::new();
    let (mut start, mut furthest) = (0u32, 0u32);
    for (m, &r) in reach.iter().enumerate() {
        furthest = furthest.max(r);
        if furthest == m as u32 {
            let end = m as u32 + 1;
            if u64::from(end - start) > capacity {
                return None;
            }
            out.push([start, end]);
            start = end;
        }
    }
    Some(out)
}

/// The islands of a World that fuses its steps, and how many steps one dispatch runs.
#[derive(Debug)]
pub(crate) struct Islands {
    pub(crate) ranges: Vec<[u32; 2]>,
    pub(crate) steps_per_dispatch: u64,
}

impl FusedSteps {
    /// The buffers and bind group of `kernel` for `islands`, with `springs` the resources of the
    /// spring pass's bindings 0-14 (state bound writable) and `b` the World's buffers, for
    /// dispatches of up to `islands.steps_per_dispatch` steps.
    pub(crate) fn new(
        device: &wgpu::Device,
        kernel: &Kernel,
        springs: Vec<wgpu::BindingResource<'_>>,
        b: &Buffers,
        islands: &Islands,
        plan: &Plan,
    ) -> Self {
        let steps_per_dispatch = islands.steps_per_dispatch;
        let precision = plan.precision;
        let islands = islands.ranges.as_slice();
        let island_buffer = device.create_buffer_init(&wgpu::util::BufferInitDescriptor {
            label: Some("hooke::islands"),
            contents: bytemuck::cast_slice(islands),
            usage: wgpu::BufferUsages::STORAGE,
        });
        let step_table = device.create_buffer(&wgpu::BufferDescriptor {
            label: Some("hooke::step_table"),
            size: precision.bytes::<GpuStep>(steps_per_dispatch),
            usage: wgpu::BufferUsages::STORAGE | wgpu::BufferUsages::COPY_DST,
            mapped_at_creation: false,
        });
        let call = device.create_buffer(&wgpu::BufferDescriptor {
            label: Some("hooke::call"),
            size: 16,
            usage: wgpu::BufferUsages::UNIFORM | wgpu::BufferUsages::COPY_DST,
            mapped_at_creation: false,
        });
        let snapshot = device.create_buffer(&wgpu::BufferDescriptor {
            label: Some("hooke::state_snapshot"),
            size: b.state.size(),
            usage: wgpu::BufferUsages::COPY_SRC | wgpu::BufferUsages::COPY_DST,
            mapped_at_creation: false,
        });
        let mut resources = springs;
        resources.extend([
            b.masses.as_entire_binding(),
            b.oscillators.as_entire_binding(),
            b.obstacles.as_entire_binding(),
            b.obstacle_words.as_entire_binding(),
            b.touch.as_entire_binding(),
            b.contacts.as_entire_binding(),
            island_buffer.as_entire_binding(),
            step_table.as_entire_binding(),
            call.as_entire_binding(),
        ]);
        let group = bind(device, kernel, "hooke::steps", resources);
        Self {
            group,
            steps_per_dispatch,
            islands: islands.len() as u32,
            workgroups: (islands.len() as u64).div_ceil(u64::from(plan.granularity.workgroup_size))
                as u32,
            step_table,
            call,
            snapshot,
            precision,
        }
    }

    /// Writes the records of the next submission's steps.
    pub(crate) fn write_steps(&self, queue: &wgpu::Queue, steps: &[GpuStep]) {
        queue.write_buffer(&self.step_table, 0, &self.precision.encode(steps));
        let call = [steps.len() as u32, self.islands, 0, 0];
        queue.write_buffer(&self.call, 0, bytemuck::cast_slice(&call));
    }

    /// Records the dispatch that runs the written steps.
    pub(crate) fn record(&self, kernel: &Kernel, pass: &mut wgpu::ComputePass<'_>) {
        pass.set_pipeline(&kernel.pipeline);
        pass.set_bind_group(0, &self.group, &[]);
        pass.dispatch_workgroups(self.workgroups, 1, 1);
    }

    /// Copies the state records to the snapshot.
    pub(crate) fn save(&self, encoder: &mut wgpu::CommandEncoder, state: &wgpu::Buffer) {
        encoder.copy_buffer_to_buffer(state, 0, &self.snapshot, 0, state.size());
    }

    /// Copies the snapshot back to the state records.
    pub(crate) fn restore(&self, encoder: &mut wgpu::CommandEncoder, state: &wgpu::Buffer) {
        encoder.copy_buffer_to_buffer(&self.snapshot, 0, state, 0, state.size());
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn spring(a: u32, b: u32) -> GpuSpring {
        GpuSpring {
            a,
            b,
            rest: 1.0,
            ..GpuSpring::default()
        }
    }

    /// Islands end wherever no spring crosses, cover every mass once in order, and an island
    /// over the capacity is refused.
    #[test]
    fn islands_are_cut_between_bodies() {
        // Bodies 0-2, 3-4 (joined backwards), 5 alone, 6-9.
        let springs = [
            spring(0, 1),
            spring(2, 1),
            spring(0, 2),
            spring(4, 3),
            spring(6, 9),
            spring(7, 8),
        ];
        assert_eq!(
            islands(&springs, 10, 4),
            Some(vec![[0, 3], [3, 5], [5, 6], [6, 10]])
        );
        assert_eq!(
            islands(&springs, 10, 3),
            None,
            "6-9 are four masses tied together"
        );
        assert_eq!(islands(&[], 2, 1), Some(vec![[0, 1], [1, 2]]));
        assert_eq!(islands(&[spring(0, 2)], 3, 3), Some(vec![[0, 3]]));
    }

    /// The steps per dispatch keep the costliest island's loop iterations under the limit.
    #[test]
    fn dispatches_stay_under_the_loop_limit() {
        // Island 0: 64 masses, 134 muscles, no links outside the stencil; island 1: 2 masses
        // with 10 links outside it.
        let islands = [[0, 64], [64, 66]];
        let starts: Vec<u32> = (0..67u32)
            .map(|m| if m >= 64 { 134 } else { 2 * m })
            .collect();
        let mut outside = vec![[0u32, 0u32]; 66];
        outside[64] = [0, 10];
        // The lattice case measured on lavapipe: 266 iterations a step (wrong after 247 steps).
        let worst = 4 + 134 + 3 * 64;
        assert!(worst >= 266);
        assert_eq!(
            steps_per_dispatch(&islands, &starts, &outside, 0, 1024),
            LOOP_ITERATIONS / worst
        );
        assert!(steps_per_dispatch(&islands, &starts, &outside, 0, 1024) * worst < 65_535);
        // Obstacle candidates count per mass; a short submission caps it too; at least 1.
        assert_eq!(
            steps_per_dispatch(&islands, &starts, &outside, 3, 1024),
            LOOP_ITERATIONS / (worst + 4 * 64)
        );
        assert_eq!(steps_per_dispatch(&islands, &starts, &outside, 0, 10), 10);
        assert_eq!(
            steps_per_dispatch(&[[0, 1]], &[0, 70_000], &[[0, 0]], 0, 10),
            1
        );
    }
}
