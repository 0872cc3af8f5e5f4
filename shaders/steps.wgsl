// hooke::steps: every step of a submission in one dispatch, for models whose masses fall into
// islands that no spring joins (a population of bodies that do not collide: a herd, robots
// evaluated side by side). Appended to the stencil variant of the spring pass generated with
// `state` written and `step` a private copy (springs_stencil.wgsl, springs_stencil_muscles.wgsl)
// and to shared/integrate_mass.wgsl. Workgroup g owns the masses islands[g].x .. islands[g].y
// (whole islands, cut by `steps::islands` in src/gpu/steps.rs); each of its invocations owns
// SPRING_MASSES_PER_INVOCATION consecutive masses of them. Per step the workgroup walks its
// masses' springs (`walk_masses`, the spring pass's own walk, so the same force sums), waits at
// a barrier, integrates its masses (`integrate_mass`, the integrate pass's own update), and
// waits again: no spring reaches outside the workgroup, so no other workgroup's step matters,
// and the steps need no dispatch each. The bits are those of the two passes.
//
// On a failure (a non-finite or blown-up mass, a force past the fixed-point bound) the
// workgroup reports it to the status as the passes do and stops; other workgroups run on, so
// the host restores the state it saved before the submission and reruns the steps with the two
// passes, which stop every mass at the first failing step (`World::step_round`).

// Bindings 0-14: the spring pass's (shared/spring_pass.wgsl, springs_stencil*.wgsl); then the
// integrate pass's tables (integrate.wgsl), the islands and the submission's steps.
@group(0) @binding(15) var<storage, read> mass_table: array<Record>;
@group(0) @binding(16) var<storage, read> oscillator_table: array<GpuOscillator>;
@group(0) @binding(17) var<storage, read> obstacle_table: array<GpuObstacle>;
@group(0) @binding(18) var<storage, read> obstacle_words: array<u32>;
// The collision force (a placeholder: a model with collisions between masses does not fuse).
@group(0) @binding(19) var<storage, read> touch: array<vec4<Real>>;
@group(0) @binding(20) var<storage, read_write> contacts: array<vec4<Real>>;
// Per workgroup: its first and end mass.
@group(0) @binding(21) var<storage, read> islands: array<vec2<u32>>;
// The records of the submission's steps, in order, and (.x) how many there are.
@group(0) @binding(22) var<storage, read> step_table: array<GpuStep>;
@group(0) @binding(23) var<uniform> call: vec4<u32>;

fn take_force(i: u32) -> vec4<Fixed> {
    return take_force_atomic(i);
}

// Set by an invocation whose masses failed this step; `stopped` is its value as lane 0 read it.
var<workgroup> failed: atomic<u32>;
var<workgroup> stopped: u32;

@compute @workgroup_size(WORKGROUP_SIZE)
fn steps(
    @builtin(workgroup_id) wg: vec3<u32>,
    @builtin(num_workgroups) groups: vec3<u32>,
    @builtin(local_invocation_index) lid: u32,
) {
    let group = workgroup_linear(wg, groups);
    let invocation = group * WORKGROUP_SIZE + lid;
    let island = islands[group];
    let a0 = island.x + lid * SPRING_MASSES_PER_INVOCATION;
    var count = 0u;
    if a0 < island.y {
        count = min(SPRING_MASSES_PER_INVOCATION, island.y - a0);
    }
    // After a failure in an earlier submission of the round nothing runs (the host reruns the
    // round with the two passes); one in this dispatch stops only the workgroup that meets it.
    if lid == 0u {
        atomicStore(&failed, 0u);
        let earlier = atomicLoad(&status.bad_step) != NONE || atomicLoad(&status.overflow_step) != NONE;
        stopped = select(0u, 1u, earlier);
    }
    if workgroupUniformLoad(&stopped) != 0u {
        return;
    }
    for (var j = 0u; j < call.x; j += 1u) {
        step = step_table[j];
        var bad = false;
        if count > 0u {
            bad = walk_masses(invocation, a0, count, island.y - 1u);
        }
        storageBarrier();
        workgroupBarrier();
        // Lowest mass that failed, reported once (as the integrate pass does).
        var bad_mass = NONE;
        for (var k = 0u; k < count; k += 1u) {
            let out = integrate_mass(a0 + k);
            bad_mass = select(bad_mass, min(bad_mass, a0 + k), out.bad);
        }
        if bad_mass != NONE {
            atomicMin(&status.bad_step, step.index);
            atomicMin(&status.bad_mass, bad_mass);
        }
        if bad || bad_mass != NONE {
            atomicStore(&failed, 1u);
        }
        storageBarrier();
        workgroupBarrier();
        if lid == 0u {
            stopped = atomicLoad(&failed);
        }
        if workgroupUniformLoad(&stopped) != 0u {
            break;
        }
    }
}
