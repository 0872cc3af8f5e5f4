// hooke::energy_masses: kinetic, gravitational and ground-penalty energy of every mass, reduced
// to one partial sum per workgroup in a fixed tree order (the host adds the partials in f64).

@group(0) @binding(0) var<uniform> params: GpuParams;
@group(0) @binding(1) var<storage, read> mass_table: array<GpuMass>;
@group(0) @binding(2) var<storage, read> positions: array<vec4<f32>>;
@group(0) @binding(3) var<storage, read> velocities: array<vec4<f32>>;
// Per workgroup: (kinetic, gravity, ground, 0), J.
@group(0) @binding(4) var<storage, read_write> partials: array<vec4<f32>>;

var<workgroup> partial: array<vec4<f32>, WORKGROUP_SIZE>;

@compute @workgroup_size(WORKGROUP_SIZE)
fn energy_masses(
    @builtin(workgroup_id) wg: vec3<u32>,
    @builtin(num_workgroups) groups: vec3<u32>,
    @builtin(local_invocation_index) lid: u32,
) {
    let group = workgroup_linear(wg, groups);
    let i = group * WORKGROUP_SIZE + lid;
    var e = vec4<f32>(0.0);
    if i < params.masses {
        let m = mass_table[i].mass;
        let p = positions[i].xyz;
        let v = velocities[i].xyz;
        e.x = 0.5 * m * dot(v, v);
        e.y = -m * dot(params.gravity, p);
        if params.contact == CONTACT_PENALTY && p.z < 0.0 {
            e.z = 0.5 * params.contact_stiffness * p.z * p.z;
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
