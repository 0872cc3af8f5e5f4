// hooke::energy_masses: kinetic, gravitational and ground-penalty energy of every mass (the
// obstacles' and the collisions' penalty energy included), and the
// dissipated and injected work the integrate pass booked in its per-invocation slots, reduced to
// one partial sum per workgroup in a fixed tree order (the host adds the partials in f64).
// Invocations cover the masses exactly as in `integrate.wgsl`, so slot i belongs to invocation i.

@group(0) @binding(0) var<uniform> params: GpuParams;
@group(0) @binding(1) var<storage, read> mass_table: array<GpuMass>;
@group(0) @binding(2) var<storage, read> positions: array<vec4<Real>>;
@group(0) @binding(3) var<storage, read> velocities: array<vec4<Real>>;
// Per invocation of the integrate pass: (dissipated, compensation, injected, compensation), J.
@group(0) @binding(4) var<storage, read> slots: array<vec4<Real>>;
// Per workgroup: its sums, J.
@group(0) @binding(5) var<storage, read_write> partials: array<GpuMassPartial>;
// The obstacle table and the obstacle words (shared/obstacles.wgsl).
@group(0) @binding(6) var<storage, read> obstacle_table: array<GpuObstacle>;
@group(0) @binding(7) var<storage, read> obstacle_words: array<u32>;
// The collision pass's output (shared/collisions.wgsl): `touch[2 i].w` is the penalty energy of
// mass i's pairs with higher-index masses, J; read only with COLLISIONS.
@group(0) @binding(8) var<storage, read> touch: array<vec4<Real>>;

// Mirror of `GpuMassPartial`: one workgroup's kinetic, gravitational and ground energy, and the
// dissipated and injected work booked by its invocations' slots, J.
struct GpuMassPartial {
    kinetic: Real,
    gravity: Real,
    ground: Real,
    pad0: Real,
    dissipated: Real,
    injected: Real,
    pad1: Real,
    pad2: Real,
}

var<workgroup> partial: array<vec4<Real>, WORKGROUP_SIZE>;
var<workgroup> booked: array<vec2<Real>, WORKGROUP_SIZE>;

@compute @workgroup_size(WORKGROUP_SIZE)
fn energy_masses(
    @builtin(workgroup_id) wg: vec3<u32>,
    @builtin(num_workgroups) groups: vec3<u32>,
    @builtin(local_invocation_index) lid: u32,
) {
    let group = workgroup_linear(wg, groups);
    let invocation = group * WORKGROUP_SIZE + lid;
    let first = invocation * MASSES_PER_INVOCATION;
    var e = vec4<Real>(0.0);
    var w = vec2<Real>(0.0);
    if first < params.masses {
        let last = min(first + MASSES_PER_INVOCATION, params.masses);
        for (var i = first; i < last; i += 1u) {
            let m = mass_table[i].mass;
            let p = positions[i].xyz;
            let v = velocities[i].xyz;
            e.x += 0.5 * m * dot(v, v);
            e.y += -m * dot(params.gravity, p);
            if params.contact == CONTACT_PENALTY && p.z < 0.0 {
                e.z += 0.5 * params.contact_stiffness * p.z * p.z;
            }
            if OBSTACLES > 0u {
                e.z += obstacle_energy(p);
            }
            if COLLISIONS {
                e.z += touch[2u * i].w;
            }
        }
        if invocation < arrayLength(&slots) {
            // A compensated slot holds (sum, compensation): its value is sum - compensation.
            let slot = slots[invocation];
            w = vec2<Real>(slot.x - slot.y, slot.z - slot.w);
        }
    }
    partial[lid] = e;
    booked[lid] = w;
    workgroupBarrier();
    for (var half = WORKGROUP_SIZE / 2u; half > 0u; half = half / 2u) {
        if lid < half {
            partial[lid] = partial[lid] + partial[lid + half];
            booked[lid] = booked[lid] + booked[lid + half];
        }
        workgroupBarrier();
    }
    if lid == 0u && group < arrayLength(&partials) {
        let p = partial[0];
        partials[group] = GpuMassPartial(p.x, p.y, p.z, 0.0, booked[0].x, booked[0].y, 0.0, 0.0);
    }
}
