// hooke::springs: one invocation per spring. Computes the elastic and axial damping force of the
// spring (CPU twin: `springs` in src/cpu.rs) and scatters it to both masses with integer atomic
// adds on the fixed-point encoding, so the per-mass sums are exact and independent of order.
// `spring_table` and `slots` are bound to one chunk of the tables; `chunk.first` is its offset.

@group(0) @binding(0) var<uniform> params: GpuParams;
@group(0) @binding(1) var<storage, read> spring_table: array<GpuSpring>;
@group(0) @binding(2) var<storage, read> material_table: array<GpuMaterial>;
@group(0) @binding(3) var<storage, read_write> actuator_table: array<GpuActuator>;
@group(0) @binding(4) var<storage, read> positions: array<vec4<f32>>;
@group(0) @binding(5) var<storage, read> velocities: array<vec4<f32>>;
@group(0) @binding(6) var<storage, read_write> forces: array<atomic<Fixed>>;
@group(0) @binding(7) var<storage, read_write> status: array<atomic<u32>, 4>;
// Per-workgroup running (dissipated, compensation, injected, compensation), J.
@group(0) @binding(8) var<storage, read_write> slots: array<vec4<f32>>;
@group(0) @binding(9) var<uniform> chunk: GpuChunk;
@group(1) @binding(0) var<uniform> step: GpuStep;

var<workgroup> partial: array<vec2<f32>, WORKGROUP_SIZE>;

fn elastic(k: f32, rest: f32, len: f32) -> f32 {
    return 0.5 * k * (len - rest) * (len - rest);
}

@compute @workgroup_size(WORKGROUP_SIZE)
fn springs(
    @builtin(workgroup_id) wg: vec3<u32>,
    @builtin(num_workgroups) groups: vec3<u32>,
    @builtin(local_invocation_index) lid: u32,
) {
    let group = workgroup_linear(wg, groups);
    let s = group * WORKGROUP_SIZE + lid;
    // Passes after a failed step do nothing (see `World::step`); this value does not change
    // during this dispatch, so every invocation agrees.
    let halted = min(atomicLoad(&status[STATUS_BAD_STEP]), atomicLoad(&status[STATUS_OVERFLOW_STEP])) < step.index;
    var energy = vec2<f32>(0.0, 0.0);
    if s < arrayLength(&spring_table) && !halted {
        let sp = spring_table[s];
        let mat = material_table[sp.material & ~SPRING_ACTUATED];
        let d = positions[sp.a].xyz - positions[sp.b].xyz;
        let len = length(d);
        var rest = bitcast<f32>(sp.rest);
        if (sp.material & SPRING_ACTUATED) != 0u {
            let act = actuator_table[sp.rest];
            rest = actuated_rest(act, step.time);
            if TRACK_ENERGY {
                // Work done by the muscle: the change of elastic energy at fixed positions.
                let before = effective(mat, act.current);
                let after = effective(mat, rest);
                energy.y = elastic(after.x, after.y, len) - elastic(before.x, before.y, len);
            }
            actuator_table[sp.rest].current = rest;
        }
        let ke = effective(mat, rest);
        if len > 0.0 {
            let n = d / len;
            let vrel = dot(velocities[sp.a].xyz - velocities[sp.b].xyz, n);
            let f = (ke.x * (len - ke.y) + mat.damping * vrel) * n;
            if TRACK_ENERGY {
                energy.x = mat.damping * vrel * vrel * params.dt;
            }
            let big = max(max(abs(f.x), abs(f.y)), abs(f.z));
            if !(big <= SPRING_FORCE_LIMIT) {
                atomicMin(&status[STATUS_OVERFLOW_STEP], step.index);
                atomicMin(&status[STATUS_OVERFLOW_SPRING], chunk.first + s);
            } else {
                let q = vec3<Fixed>(round(f * FIXED_SCALE));
                let ia = 3u * sp.a;
                let ib = 3u * sp.b;
                atomicAdd(&forces[ia], -q.x);
                atomicAdd(&forces[ia + 1u], -q.y);
                atomicAdd(&forces[ia + 2u], -q.z);
                atomicAdd(&forces[ib], q.x);
                atomicAdd(&forces[ib + 1u], q.y);
                atomicAdd(&forces[ib + 2u], q.z);
            }
        }
    }
    if TRACK_ENERGY {
        // Fixed-order tree reduction, then one running slot per workgroup: deterministic.
        partial[lid] = energy;
        workgroupBarrier();
        for (var half = WORKGROUP_SIZE / 2u; half > 0u; half = half / 2u) {
            if lid < half {
                partial[lid] = partial[lid] + partial[lid + half];
            }
            workgroupBarrier();
        }
        if lid == 0u && group < arrayLength(&slots) {
            let slot = slots[group];
            let dissipated = kahan_add(slot.xy, partial[0].x);
            let injected = kahan_add(slot.zw, partial[0].y);
            slots[group] = vec4<f32>(dissipated, injected);
        }
    }
}
