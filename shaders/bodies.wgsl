// hooke::bodies: one workgroup per body. Sums m p, m v and m over the body's masses in a fixed
// order, so the host gets each body's centre of mass and mean velocity without reading masses.

@group(0) @binding(0) var<uniform> params: GpuParams;
@group(0) @binding(1) var<storage, read> body_table: array<GpuBody>;
@group(0) @binding(2) var<storage, read> mass_table: array<GpuMass>;
@group(0) @binding(3) var<storage, read> positions: array<vec4<Real>>;
@group(0) @binding(4) var<storage, read> velocities: array<vec4<Real>>;
// Per body: its sums.
@group(0) @binding(5) var<storage, read_write> sums: array<GpuBodySum>;

// Mirror of `GpuBodySum`: sum of m p (kg m), sum of m (kg), sum of m v (kg m/s).
struct GpuBodySum {
    moment: vec3<Real>,
    mass: Real,
    momentum: vec3<Real>,
    pad0: Real,
}

var<workgroup> moment: array<vec4<Real>, WORKGROUP_SIZE>;
var<workgroup> momentum: array<vec4<Real>, WORKGROUP_SIZE>;

@compute @workgroup_size(WORKGROUP_SIZE)
fn bodies(
    @builtin(workgroup_id) wg: vec3<u32>,
    @builtin(num_workgroups) groups: vec3<u32>,
    @builtin(local_invocation_index) lid: u32,
) {
    let body = workgroup_linear(wg, groups);
    var mp = vec4<Real>(0.0);
    var mv = vec4<Real>(0.0);
    if body < params.bodies {
        let b = body_table[body];
        for (var j = lid; j < b.count; j += WORKGROUP_SIZE) {
            let i = b.first + j;
            let m = mass_table[i].mass;
            mp += vec4<Real>(m * positions[i].xyz, m);
            mv += vec4<Real>(m * velocities[i].xyz, 0.0);
        }
    }
    moment[lid] = mp;
    momentum[lid] = mv;
    workgroupBarrier();
    for (var half = WORKGROUP_SIZE / 2u; half > 0u; half = half / 2u) {
        if lid < half {
            moment[lid] = moment[lid] + moment[lid + half];
            momentum[lid] = momentum[lid] + momentum[lid + half];
        }
        workgroupBarrier();
    }
    if lid == 0u && body < params.bodies {
        sums[body] = GpuBodySum(moment[0].xyz, moment[0].w, momentum[0].xyz, 0.0);
    }
}
