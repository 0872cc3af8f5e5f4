//! Whether a World fuses its steps (see `kernels/steps.rs`): the islands of masses no spring
//! joins, one invocation each, and how many steps one fused dispatch may run.

use super::springs::SpringLayout;
use crate::gpu::layout::{GpuSpring, Run};
use crate::gpu::options::WorldOptions;
use crate::gpu::tables::Tables;

/// What the plan allows a fused dispatch.
#[derive(Clone, Copy, Debug)]
pub(crate) struct FuseLimits {
    /// Chunks the spring table is bound in (fusing needs one).
    pub(crate) chunks: usize,
    /// Invocations per workgroup, and workgroups per dispatch dimension.
    pub(crate) workgroup_size: u32,
    pub(crate) max_workgroups: u32,
    /// Steps recorded per submission.
    pub(crate) steps_per_submission: u64,
    /// Whether the device's limits allow the fused kernel's bindings (21 storage buffers in one
    /// stage: more than OpenGL's 16 and WebGPU's default 8).
    pub(crate) kernel_fits: bool,
}

/// The islands of the fused steps kernel, when the World fuses its steps: asked for, the
/// stencil variant, no energy booking, no collisions, one spring-table chunk, a device whose
/// limits allow the kernel's bindings, and islands of at
/// most `ISLAND_MASSES` masses (one invocation each) that fit one dispatch. The fused kernel
/// sets the stencil's muscles before each walk: `layout.muscles`, or none when it lists none
/// (the caller then gives the World an empty list).
pub(crate) fn fused_islands(
    tables: &Tables,
    layout: &SpringLayout,
    limits: &FuseLimits,
    options: &WorldOptions,
) -> Option<Islands> {
    if !options.fuse_steps
        || layout.stencil.is_none()
        || options.track_energy
        || tables.collisions.is_some()
        || limits.chunks != 1
    {
        return None;
    }
    if !limits.kernel_fits {
        log::info!(
            "steps not fused: the device's limits are below the fused kernel's bindings \
             (max_storage_buffers_per_shader_stage); two passes per step"
        );
        return None;
    }
    let masses = tables.masses.len();
    let ranges = islands(&tables.springs.springs, masses, ISLAND_MASSES)?;
    let workgroups = (ranges.len() as u64).div_ceil(u64::from(limits.workgroup_size));
    if workgroups > u64::from(limits.max_workgroups) {
        return None;
    }
    let no_muscles = vec![0; masses + 1];
    let starts = layout.muscles.as_ref().map_or(&no_muscles, |m| &m.starts);
    let (outside, _) = layout.outside.as_ref()?;
    let steps_per_dispatch = steps_per_dispatch(
        &ranges,
        starts,
        outside,
        tables.obstacles.records.len() as u64,
        limits.steps_per_submission,
    );
    Some(Islands {
        ranges,
        steps_per_dispatch,
    })
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::gpu::layout::tests::spring;

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
