// hooke::steps: every step of a submission in one dispatch, for models whose masses fall into
// islands that no spring joins (a population of bodies that do not collide: a herd, robots
// evaluated side by side). Appended to the stencil variant of the spring pass generated with
// `state` written and `step` a private copy (springs_stencil.wgsl, springs_stencil_muscles.wgsl)
// and to shared/integrate_mass.wgsl. Invocation i owns the masses islands[i].x .. islands[i].y
// (a body, or bodies tied by springs: cut by `islands` in src/gpu/plan/fused.rs) and steps
// them alone: per step it walks their springs (`walk_masses`, the spring pass's own walk, so the
// same force sums) and then integrates them (`integrate_mass`, the integrate pass's own
// update). No spring reaches outside an island, so no other invocation's step matters: no
// barrier, no dispatch per step, and an island's data stays in the cache through the
// submission's steps. The bits are those of the two passes.
//
// On a failure (a non-finite or blown-up mass, a force past the fixed-point bound) the
// invocation reports it to the status as the passes do and stops; other islands run on, so the
// host restores the state it saved before the round and reruns its steps with the two passes,
// which stop every mass at the first failing step (`World::step_round`).

// Bindings 0-14: the spring pass's (shared/spring_pass.wgsl, springs_stencil*.wgsl); then the
// integrate pass's tables (integrate.wgsl), the islands and the submission's steps.
@group(0) @binding(15) var<storage, read> mass_table: array<Record>;
@group(0) @binding(16) var<storage, read> oscillator_table: array<GpuOscillator>;
@group(0) @binding(17) var<storage, read> obstacle_table: array<GpuObstacle>;
@group(0) @binding(18) var<storage, read> obstacle_words: array<u32>;
// The collision force (a placeholder: a model with collisions between masses does not fuse).
@group(0) @binding(19) var<storage, read> touch: array<vec4<Real>>;
@group(0) @binding(20) var<storage, read_write> contacts: array<vec4<Real>>;
// Per invocation: the first and end mass of its island.
@group(0) @binding(21) var<storage, read> islands: array<vec2<u32>>;
// The records of the submission's steps, in order; `call`: (steps, islands, 0, 0).
@group(0) @binding(22) var<storage, read> step_table: array<GpuStep>;
@group(0) @binding(23) var<uniform> call: vec4<u32>;

fn take_force(i: u32) -> vec4<Fixed> {
    return take_force_atomic(i);
}

@compute @workgroup_size(WORKGROUP_SIZE)
fn steps(
    @builtin(workgroup_id) wg: vec3<u32>,
    @builtin(num_workgroups) groups: vec3<u32>,
    @builtin(local_invocation_index) lid: u32,
) {
    let invocation = workgroup_linear(wg, groups) * WORKGROUP_SIZE + lid;
    // After a failure in an earlier submission of the round nothing runs (the host reruns the
    // round with the two passes).
    if invocation >= call.y || atomicLoad(&status.bad_step) != NONE
        || atomicLoad(&status.overflow_step) != NONE {
        return;
    }
    let island = islands[invocation];
    let count = island.y - island.x;
    for (var j = 0u; j < call.x; j += 1u) {
        step = step_table[j];
        let overflow = walk_masses(invocation, island.x, count, island.y - 1u);
        // Lowest mass that failed, reported once (as the integrate pass does).
        var bad_mass = NONE;
        for (var k = 0u; k < count; k += 1u) {
            let out = integrate_mass(island.x + k);
            bad_mass = select(bad_mass, min(bad_mass, island.x + k), out.bad);
        }
        if bad_mass != NONE {
            atomicMin(&status.bad_step, step.index);
            atomicMin(&status.bad_mass, bad_mass);
        }
        if overflow || bad_mass != NONE {
            break;
        }
    }
}
