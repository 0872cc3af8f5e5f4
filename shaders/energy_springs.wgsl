// hooke::energy_springs: elastic energy of every spring at its current rest length, and the
// dissipated and injected work the spring pass booked in its per-invocation slots, reduced to one
// partial sum per workgroup in a fixed tree order (the host adds the partials in f64). Invocations
// cover the springs exactly as in `springs.wgsl`, so slot i belongs to invocation i here too.
// `spring_table`, `slots` and `partials` are bound to one chunk of the tables.

@group(0) @binding(0) var<uniform> params: GpuParams;
@group(0) @binding(1) var<storage, read> spring_table: array<GpuSpring>;
@group(0) @binding(2) var<storage, read> material_table: array<GpuMaterial>;
@group(0) @binding(3) var<storage, read> actuator_table: array<GpuActuator>;
@group(0) @binding(4) var<storage, read> positions: array<vec4<f32>>;
// Per invocation of the spring pass: (dissipated, compensation, injected, compensation), J.
@group(0) @binding(5) var<storage, read> slots: array<vec4<f32>>;
// Per workgroup: (elastic, dissipated, injected, 0), J.
@group(0) @binding(6) var<storage, read_write> partials: array<vec4<f32>>;

var<workgroup> partial: array<vec4<f32>, WORKGROUP_SIZE>;

@compute @workgroup_size(WORKGROUP_SIZE)
fn energy_springs(
    @builtin(workgroup_id) wg: vec3<u32>,
    @builtin(num_workgroups) groups: vec3<u32>,
    @builtin(local_invocation_index) lid: u32,
) {
    let group = workgroup_linear(wg, groups);
    let invocation = group * WORKGROUP_SIZE + lid;
    let count = arrayLength(&spring_table);
    let first = invocation * SPRINGS_PER_INVOCATION;
    var e = vec4<f32>(0.0);
    if first < count {
        let last = min(first + SPRINGS_PER_INVOCATION, count);
        for (var s = first; s < last; s += 1u) {
            let sp = spring_table[s];
            let mat = spring_material(sp);
            var rest = bitcast<f32>(sp.rest);
            if is_actuated(sp) {
                rest = actuator_table[sp.rest].current;
            }
            let ke = effective(mat, rest);
            let len = distance(positions[sp.a].xyz, positions[sp.b].xyz);
            e.x += 0.5 * ke.x * (len - ke.y) * (len - ke.y);
        }
        if invocation < arrayLength(&slots) {
            // A compensated slot holds (sum, compensation): its value is sum - compensation.
            let slot = slots[invocation];
            e.y = slot.x - slot.y;
            e.z = slot.z - slot.w;
        }
    }
    partial[lid] = e;
    workgroupBarrier();
    for (var half = WORKGROUP_SIZE / 2u; half > 0u; half = half / 2u) {
        if lid < half {
            partial[lid] = partial[lid] + partial[lid + half];
        }
        workgroupBarrier();
    }
    if lid == 0u && group < arrayLength(&partials) {
        partials[group] = partial[0];
    }
}
