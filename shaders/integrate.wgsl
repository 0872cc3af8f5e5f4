// hooke::integrate: MASSES_PER_INVOCATION masses per invocation (see `walk`), each updated by
// `integrate_mass` (shared/integrate_mass.wgsl). For each mass it
// reads and clears the fixed-point spring force, adds gravity, external, drag-spring and air-drag
// forces, ground contact and Coulomb (or naive) friction, then contact and friction with each
// obstacle (shared/obstacles.wgsl), the collision force (collide.wgsl), updates velocity and position, and reports masses that
// turned non-finite or passed the blow-up speed bound (CPU twin: `ground`, `integrate_mass` and
// `integrate` in src/cpu/integrate.rs, `obstacles` in src/cpu/obstacles.rs).

@group(0) @binding(0) var<uniform> params: GpuParams;
// `GpuMass` records, read as `Record`s (see shared/words_*.wgsl).
@group(0) @binding(1) var<storage, read> mass_table: array<Record>;
@group(0) @binding(2) var<storage, read> oscillator_table: array<GpuOscillator>;
// The interleaved state the spring pass and this pass read and write (position, velocity: one
// `State` per mass). The public position and velocity buffers are written from it once per
// `World::step` call (`publish.wgsl`).
@group(0) @binding(3) var<storage, read_write> state: array<State>;
// The spring pass's fixed-point sums, 4 words per mass (x, y, z, unused; with PACKED_FORCES the
// 64-bit pair (y * 2^32 + x, z) of shared/scatter_packed.wgsl), read and cleared in one access each.
// This pass runs after the spring pass has finished (a separate dispatch), so plain loads and
// stores see the complete sums.
@group(0) @binding(4) var<storage, read_write> forces: array<vec4<Fixed>>;
@group(0) @binding(5) var<storage, read_write> status: GpuStatus;
// Per invocation running (dissipated, compensation, injected, compensation), J.
@group(0) @binding(6) var<storage, read_write> slots: array<vec4<Real>>;
// The obstacle table (OBSTACLES records) and the obstacle words (shared/obstacles.wgsl).
@group(0) @binding(7) var<storage, read> obstacle_table: array<GpuObstacle>;
@group(0) @binding(8) var<storage, read> obstacle_words: array<u32>;
// The collision pass's force on each mass, two vec4 per mass (conservative, dissipative; see
// shared/collisions.wgsl), written by `collide` before this pass; read only with COLLISIONS.
@group(0) @binding(9) var<storage, read> touch: array<vec4<Real>>;
// Each mass's contact over the step for the sensors: (normal force N, 1 if touching else 0);
// written only with CONTACTS (else a placeholder).
@group(0) @binding(10) var<storage, read_write> contacts: array<vec4<Real>>;
@group(1) @binding(0) var<uniform> step: GpuStep;

// Mass i's fixed-point spring-force sum, read and cleared in one access each (this pass runs
// after the spring pass has finished, so plain loads see the complete sums).
fn take_force(i: u32) -> vec4<Fixed> {
    let sum = forces[i];
    forces[i] = vec4<Fixed>(Fixed(0));
    return sum;
}

// Each invocation integrates MASSES_PER_INVOCATION masses (see `walk`) and adds their dissipated
// and injected work to its own running (compensated) slot: no workgroup barrier, and each slot is
// written by one invocation in a fixed order, so the booking is deterministic.
@compute @workgroup_size(WORKGROUP_SIZE)
fn integrate(
    @builtin(workgroup_id) wg: vec3<u32>,
    @builtin(num_workgroups) groups: vec3<u32>,
    @builtin(local_invocation_index) lid: u32,
) {
    let group = workgroup_linear(wg, groups);
    let invocation = group * WORKGROUP_SIZE + lid;
    if walk(group, lid, 0u, MASSES_PER_INVOCATION) >= params.masses {
        return;
    }
    // A step that overflowed is not integrated; after a failed step nothing runs. Neither value
    // changes during this dispatch except to `step.index` itself, so every invocation agrees.
    if atomicLoad(&status.bad_step) < step.index
        || atomicLoad(&status.overflow_step) <= step.index {
        return;
    }
    var energy = vec2<Real>(0.0, 0.0);
    // Lowest mass that turned non-finite, reported once after the loop (no per-mass branch
    // around atomics).
    var bad = NONE;
    for (var j = 0u; j < MASSES_PER_INVOCATION; j += 1u) {
        let i = walk(group, lid, j, MASSES_PER_INVOCATION);
        if i >= params.masses {
            break;
        }
        let out = integrate_mass(i);
        energy += out.energy;
        bad = select(bad, min(bad, i), out.bad);
    }
    if bad != NONE {
        atomicMin(&status.bad_step, step.index);
        atomicMin(&status.bad_mass, bad);
    }
    if TRACK_ENERGY && invocation < arrayLength(&slots) {
        let slot = slots[invocation];
        slots[invocation] = vec4<Real>(kahan_add(slot.xy, energy.x), kahan_add(slot.zw, energy.y));
    }
}
