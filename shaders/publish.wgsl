// hooke::publish: copies the interleaved state the passes work on (position, velocity: one
// 32-byte `State` per mass) into the public position and velocity buffers. It runs once at the
// end of each `World::step` call, after the last step's integrate pass, not once per step.

@group(0) @binding(0) var<uniform> params: GpuParams;
@group(0) @binding(1) var<storage, read> state: array<State>;
@group(0) @binding(2) var<storage, read_write> positions: array<Words>;
@group(0) @binding(3) var<storage, read_write> velocities: array<Words>;

@compute @workgroup_size(WORKGROUP_SIZE)
fn publish(
    @builtin(workgroup_id) wg: vec3<u32>,
    @builtin(num_workgroups) groups: vec3<u32>,
    @builtin(local_invocation_index) lid: u32,
) {
    let group = workgroup_linear(wg, groups);
    for (var j = 0u; j < MASSES_PER_INVOCATION; j += 1u) {
        let i = walk(group, lid, j, MASSES_PER_INVOCATION);
        if i >= params.masses {
            break;
        }
        let st = state[i];
        positions[i] = words_pack(vec4<Real>(state_position(st), 1.0));
        velocities[i] = words_pack(vec4<Real>(state_velocity(st), 0.0));
    }
}
