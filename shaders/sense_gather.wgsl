// hooke::sense_gather: one invocation per requested contact, then per requested spring. A
// contact copies its mass's record from `integrate` (normal force N, touching 0/1); a spring
// writes its current length (m). CPU twin: `CpuWorld::sense` in src/cpu/sense.rs.

@compute @workgroup_size(WORKGROUP_SIZE)
fn sense_gather(
    @builtin(workgroup_id) wg: vec3<u32>,
    @builtin(num_workgroups) groups: vec3<u32>,
    @builtin(local_invocation_index) lid: u32,
) {
    let item = workgroup_linear(wg, groups) * WORKGROUP_SIZE + lid;
    let bodies = requests[0];
    let n_contacts = requests[1];
    let n_springs = requests[2];
    let table = SENSE_HEADER_WORDS + 3u * bodies;
    let base = SENSE_BODY_WORDS * bodies;
    if item < n_contacts {
        let c = contacts[requests[table + item]];
        for (var j = 0u; j < 4u; j += 1u) {
            out[base + 4u * item + j] = c[j];
        }
    } else if item < n_contacts + n_springs {
        let s = item - n_contacts;
        let a = requests[table + n_contacts + 2u * s];
        let b = requests[table + n_contacts + 2u * s + 1u];
        out[base + 4u * n_contacts + s] = length(positions[b].xyz - positions[a].xyz);
    }
}
