// hooke::springs: each invocation takes SPRINGS_PER_INVOCATION consecutive springs of the table.
// For each spring it computes the elastic and axial damping force (CPU twin: `springs` in
// src/cpu.rs) and adds it to both masses in fixed point with integer atomic adds, so the per-mass
// sums are exact and independent of order. The table is sorted by `a` in the common case (every
// builder emits springs mass by mass), so the `a` side of a run of springs that share `a` is summed
// in registers (as integers, so the sum is the same as adding each spring on its own) and added
// once per run, and `a`'s position and velocity are loaded once per run.
// Energy: each invocation adds its springs' dissipated and injected work to its own running
// (compensated) slot: no workgroup barrier, and every slot is written by one invocation in a fixed
// order, so the booking is deterministic. `energy_springs` reduces the slots when energy is read.
// `spring_table` and `slots` are bound to one chunk of the tables; `chunk.first` is its offset.

@group(0) @binding(0) var<uniform> params: GpuParams;
// `GpuSpring` records, `positions` and `velocities` are read as `Words` (see words_*.wgsl).
@group(0) @binding(1) var<storage, read> spring_table: array<Words>;
@group(0) @binding(2) var<storage, read> material_table: array<GpuMaterial>;
@group(0) @binding(3) var<storage, read_write> actuator_table: array<GpuActuator>;
@group(0) @binding(4) var<storage, read> positions: array<Words>;
@group(0) @binding(5) var<storage, read> velocities: array<Words>;
@group(0) @binding(6) var<storage, read_write> forces: array<atomic<Fixed>>;
@group(0) @binding(7) var<storage, read_write> status: array<atomic<u32>, 4>;
// Per invocation running (dissipated, compensation, injected, compensation), J.
@group(0) @binding(8) var<storage, read_write> slots: array<vec4<f32>>;
@group(0) @binding(9) var<uniform> chunk: GpuChunk;
@group(1) @binding(0) var<uniform> step: GpuStep;

fn elastic(k: f32, rest: f32, len: f32) -> f32 {
    return 0.5 * k * (len - rest) * (len - rest);
}

fn scatter(mass: u32, q: vec3<Fixed>) {
    let i = 3u * mass;
    atomicAdd(&forces[i], q.x);
    atomicAdd(&forces[i + 1u], q.y);
    atomicAdd(&forces[i + 2u], q.z);
}

@compute @workgroup_size(WORKGROUP_SIZE)
fn springs(
    @builtin(workgroup_id) wg: vec3<u32>,
    @builtin(num_workgroups) groups: vec3<u32>,
    @builtin(local_invocation_index) lid: u32,
) {
    let invocation = workgroup_linear(wg, groups) * WORKGROUP_SIZE + lid;
    let count = arrayLength(&spring_table);
    let first = invocation * SPRINGS_PER_INVOCATION;
    if first >= count {
        return;
    }
    // Passes after a failed step do nothing (see `World::step`); this value does not change
    // during this dispatch, so every invocation agrees.
    if min(atomicLoad(&status[STATUS_BAD_STEP]), atomicLoad(&status[STATUS_OVERFLOW_STEP])) < step.index {
        return;
    }
    let last = min(first + SPRINGS_PER_INVOCATION, count);
    var run_mass = NONE;
    var run_force = vec3<Fixed>(Fixed(0));
    var pa = vec3<f32>(0.0);
    var va = vec3<f32>(0.0);
    var dissipated = 0.0;
    var injected = 0.0;
    for (var s = first; s < last; s += 1u) {
        let sp = words_spring(spring_table[s]);
        if sp.a != run_mass {
            if run_mass != NONE {
                scatter(run_mass, run_force);
            }
            run_mass = sp.a;
            run_force = vec3<Fixed>(Fixed(0));
            pa = words_xyz(positions[sp.a]);
            va = words_xyz(velocities[sp.a]);
        }
        let mat = spring_material(sp);
        let d = pa - words_xyz(positions[sp.b]);
        let len = length(d);
        var rest = bitcast<f32>(sp.rest);
        if is_actuated(sp) {
            let act = actuator_table[sp.rest];
            rest = actuated_rest(act, step.time);
            if TRACK_ENERGY {
                // Work done by the muscle: the change of elastic energy at fixed positions.
                let before = effective(mat, act.current);
                let after = effective(mat, rest);
                injected += elastic(after.x, after.y, len) - elastic(before.x, before.y, len);
            }
            actuator_table[sp.rest].current = rest;
        }
        let ke = effective(mat, rest);
        if len > 0.0 {
            let n = d / len;
            let vrel = dot(va - words_xyz(velocities[sp.b]), n);
            let f = (ke.x * (len - ke.y) + mat.damping * vrel) * n;
            if TRACK_ENERGY {
                dissipated += mat.damping * vrel * vrel * params.dt;
            }
            let big = max(max(abs(f.x), abs(f.y)), abs(f.z));
            if !(big <= SPRING_FORCE_LIMIT) {
                atomicMin(&status[STATUS_OVERFLOW_STEP], step.index);
                atomicMin(&status[STATUS_OVERFLOW_SPRING], chunk.first + s);
            } else {
                let q = vec3<Fixed>(round(f * FIXED_SCALE));
                run_force -= q;
                scatter(sp.b, q);
            }
        }
    }
    scatter(run_mass, run_force);
    if TRACK_ENERGY && invocation < arrayLength(&slots) {
        let slot = slots[invocation];
        slots[invocation] = vec4<f32>(kahan_add(slot.xy, dissipated), kahan_add(slot.zw, injected));
    }
}
