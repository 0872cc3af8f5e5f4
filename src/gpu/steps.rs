//! The fused steps kernel (`shaders/steps.wgsl`): every step of a submission in one dispatch, for
//! models whose masses fall into islands that no spring joins.
//!
//! A population of bodies that do not collide (a herd, robots evaluated side by side) needs no
//! synchronisation between bodies within a step, only between the spring pass and the integrate
//! pass of each body. A workgroup that owns whole bodies can run both for every step with
//! workgroup barriers in between, which saves the two dispatches per step (on lavapipe ~45 us
//! each, waking its threads; a few us on a GPU, where a small population's step is of that
//! order). The walk and the mass update are the passes' own functions, so the bits are the same.
//! A failure stops only the workgroup that meets it, so the World saves the state before the
//! submission and, when the status reports a failure, restores it and reruns the steps with the
//! two passes (`World::step_round`), which stop every mass at the first failing step.

use wgpu::util::DeviceExt;

use super::buffers::Buffers;
use super::layout::{GpuSpring, GpuStep};
use super::options::Precision;
use super::pipelines::Kernel;
use super::plan::Plan;

/// What a World that fuses its steps keeps: the kernel's bind group and its own buffers.
#[derive(Debug)]
pub(crate) struct FusedSteps {
    group: wgpu::BindGroup,
    /// Islands: one invocation each.
    islands: u32,
    /// Workgroups of the dispatch.
    workgroups: u32,
    /// The submission's `GpuStep` records, in order (storage).
    step_table: wgpu::Buffer,
    /// (steps in the submission, islands, 0, 0).
    call: wgpu::Buffer,
    /// The state records as they were before the last fused submission.
    snapshot: wgpu::Buffer,
    precision: Precision,
}

/// Most masses an island may have: one invocation steps it alone.
pub(crate) const ISLAND_MASSES: u64 = 256;

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

impl FusedSteps {
    /// The buffers and bind group of `kernel` for `islands`, with `springs` the resources of the
    /// spring pass's bindings 0-14 (state bound writable) and `b` the World's buffers, for
    /// submissions of up to `steps_per_submission` steps.
    pub(crate) fn new(
        device: &wgpu::Device,
        kernel: &Kernel,
        springs: Vec<wgpu::BindingResource<'_>>,
        b: &Buffers,
        islands: &[[u32; 2]],
        plan: &Plan,
    ) -> Self {
        let (steps_per_submission, precision) = (plan.steps_per_submission, plan.precision);
        let island_buffer = device.create_buffer_init(&wgpu::util::BufferInitDescriptor {
            label: Some("hooke::islands"),
            contents: bytemuck::cast_slice(islands),
            usage: wgpu::BufferUsages::STORAGE,
        });
        let step_table = device.create_buffer(&wgpu::BufferDescriptor {
            label: Some("hooke::step_table"),
            size: precision.bytes::<GpuStep>(steps_per_submission),
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
        let entries: Vec<wgpu::BindGroupEntry> = resources
            .into_iter()
            .enumerate()
            .map(|(i, resource)| wgpu::BindGroupEntry {
                binding: i as u32,
                resource,
            })
            .collect();
        let group = device.create_bind_group(&wgpu::BindGroupDescriptor {
            label: Some("hooke::steps"),
            layout: &kernel.layout,
            entries: &entries,
        });
        Self {
            group,
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
            actuator: 0,
            material: 0,
            actuated: false,
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
}
