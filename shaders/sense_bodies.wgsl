// hooke::sense_bodies: one workgroup per piece of a requested body (at most 2^21 masses, so no
// invocation loops past lavapipe's loop limit; the host adds a body's pieces). Sums, relative to
// the body's first mass p (r = x - p, so f32 keeps the body's size however far it is from the
// origin), in a fixed order: m r and m, m v, m r x v, m r r^T (diagonal, then xy xz yz), and with orientation the
// rows of m r (X - C)^T. The host finishes the 3x3 algebra in f64 (src/sensors/frame.rs).
// CPU twin: `CpuWorld::body_sums` in src/cpu/sense.rs.

var<workgroup> partial: array<vec4<Real>, WORKGROUP_SIZE>;

@compute @workgroup_size(WORKGROUP_SIZE)
fn sense_bodies(
    @builtin(workgroup_id) wg: vec3<u32>,
    @builtin(num_workgroups) groups: vec3<u32>,
    @builtin(local_invocation_index) lid: u32,
) {
    let k = workgroup_linear(wg, groups);
    let bodies = requests[0];
    let orientation = requests[3] != 0u;
    var first = 0u;
    var count = 0u;
    var reference = 0u;
    if k < bodies {
        first = requests[SENSE_HEADER_WORDS + 3u * k];
        count = requests[SENSE_HEADER_WORDS + 1u + 3u * k];
        reference = requests[SENSE_HEADER_WORDS + 2u + 3u * k];
    }
    var p = vec3<Real>(0.0);
    if count > 0u {
        p = positions[reference].xyz;
    }
    var acc: array<vec4<Real>, 8>;
    for (var j = lid; j < count; j += WORKGROUP_SIZE) {
        let i = first + j;
        let m = mass_table[i].mass;
        let r = positions[i].xyz - p;
        let v = velocities[i].xyz;
        let mr = m * r;
        acc[0] += vec4<Real>(mr, m);
        acc[1] += vec4<Real>(m * v, 0.0);
        acc[2] += vec4<Real>(cross(mr, v), 0.0);
        acc[3] += vec4<Real>(mr * r, 0.0);
        acc[4] += vec4<Real>(mr.x * r.y, mr.x * r.z, mr.y * r.z, 0.0);
        if orientation {
            let s = model_offsets[i].xyz;
            acc[5] += vec4<Real>(mr.x * s, 0.0);
            acc[6] += vec4<Real>(mr.y * s, 0.0);
            acc[7] += vec4<Real>(mr.z * s, 0.0);
        }
    }
    let base = SENSE_BODY_WORDS * k;
    for (var s = 0u; s < 8u; s += 1u) {
        partial[lid] = acc[s];
        workgroupBarrier();
        for (var half = WORKGROUP_SIZE / 2u; half > 0u; half = half / 2u) {
            if lid < half {
                partial[lid] = partial[lid] + partial[lid + half];
            }
            workgroupBarrier();
        }
        if lid == 0u && k < bodies {
            let sum = partial[0];
            for (var c = 0u; c < 4u; c += 1u) {
                out[base + 4u * s + c] = sum[c];
            }
        }
        workgroupBarrier();
    }
    if lid == 0u && k < bodies {
        out[base + 32u] = p.x;
        out[base + 33u] = p.y;
        out[base + 34u] = p.z;
        out[base + 35u] = 0.0;
    }
}
