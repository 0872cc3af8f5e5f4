// hooke::springs: each invocation takes SPRING_MASSES_PER_INVOCATION masses and walks the springs
// whose first mass (`a`) they are, in the link table (springs grouped by `a`; links `runs[a].x`
// to `runs[a].y`). For each spring it computes the elastic and axial damping force (CPU
// twin: `springs` in src/cpu.rs) and adds it to `b` in fixed point with integer atomic adds; `a`'s
// side is summed in registers (as integers, so the sum is the same as adding each spring on its
// own) and added once per mass. The per-sum results are exact and independent of order.
// Masses are assigned by `walk` (shared/common.wgsl): lanes in lockstep groups take neighbouring masses
// and each group walks its block in order. Every lane loads and scatters its own `a` at the same
// point of the loop, so on adapters that run lanes in SIMD (lavapipe) no lane pays for another's
// per-mass work in a divergent branch.
// Energy: each invocation adds its springs' dissipated and injected work to its own running
// (compensated) slot: no workgroup barrier, and every slot is written by one invocation in a fixed
// order, so the booking is deterministic. `energy_springs` reduces the slots when energy is read.
// Bindings and the per-spring helpers: shared/spring_pass.wgsl.

@group(0) @binding(6) var<storage, read> state: array<State>;
@group(1) @binding(0) var<uniform> step: GpuStep;

@compute @workgroup_size(WORKGROUP_SIZE)
fn springs(
    @builtin(workgroup_id) wg: vec3<u32>,
    @builtin(num_workgroups) groups: vec3<u32>,
    @builtin(local_invocation_index) lid: u32,
) {
    let group = workgroup_linear(wg, groups);
    let invocation = group * WORKGROUP_SIZE + lid;
    let base = spring_pass_mass(group, lid, 0u);
    if base >= chunk.end_mass {
        return;
    }
    if earlier_step_failed() {
        return;
    }
    var dissipated: Real = 0.0;
    var injected: Real = 0.0;
    // Lowest link index whose force passed the fixed-point bound (reported once, after the
    // loop, so the loop has no per-spring branch around atomics).
    var overflow = NONE;
    for (var j = 0u; j < SPRING_MASSES_PER_INVOCATION; j += 1u) {
        let a = spring_pass_mass(group, lid, j);
        if a >= chunk.end_mass {
            break;
        }
        let run = runs[a];
        let first = run.x;
        let last = run.y;
        if first == last {
            continue;
        }
        let sa = state[a];
        let run_sum = walk_run(first, last, state_position(sa), state_velocity(sa));
        dissipated += run_sum.dissipated;
        injected += run_sum.injected;
        overflow = min(overflow, run_sum.overflow);
        scatter(a, run_sum.fa);
    }
    finish_invocation(invocation, overflow, dissipated, injected);
}
