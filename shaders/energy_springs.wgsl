// hooke::energy_springs: elastic energy of every spring at its current rest length, and the
// dissipated and injected work the spring pass booked in its per-invocation slots, reduced to one
// partial sum per workgroup in a fixed tree order (the host adds the partials in f64). Invocations
// cover the masses (and so the links) exactly as in `springs.wgsl`, so slot i belongs to
// invocation i here too. `links`, `link_materials`, `slots` and `partials` are bound to one chunk
// of the tables.

@group(0) @binding(0) var<uniform> params: GpuParams;
@group(0) @binding(1) var<storage, read> links: array<Link>;
@group(0) @binding(2) var<storage, read> link_materials: array<u32>;
@group(0) @binding(3) var<storage, read> material_table: array<GpuMaterial>;
@group(0) @binding(4) var<storage, read> actuator_table: array<GpuActuator>;
@group(0) @binding(5) var<storage, read> runs: array<vec2<u32>>;
@group(0) @binding(6) var<storage, read> positions: array<vec4<Real>>;
// Per invocation of the spring pass: (dissipated, compensation, injected, compensation), J.
@group(0) @binding(7) var<storage, read> slots: array<vec4<Real>>;
// Per workgroup: its sums, J.
@group(0) @binding(8) var<storage, read_write> partials: array<GpuSpringPartial>;
@group(0) @binding(9) var<uniform> chunk: GpuChunk;

// Mirror of `GpuSpringPartial`: one workgroup's elastic energy, and the dissipated and injected
// work booked by its invocations' slots, J.
struct GpuSpringPartial {
    elastic: Real,
    dissipated: Real,
    injected: Real,
    pad0: Real,
}

var<workgroup> partial: array<vec4<Real>, WORKGROUP_SIZE>;

@compute @workgroup_size(WORKGROUP_SIZE)
fn energy_springs(
    @builtin(workgroup_id) wg: vec3<u32>,
    @builtin(num_workgroups) groups: vec3<u32>,
    @builtin(local_invocation_index) lid: u32,
) {
    let group = workgroup_linear(wg, groups);
    let invocation = group * WORKGROUP_SIZE + lid;
    let base = spring_pass_mass(group, lid, 0u);
    var e = vec4<Real>(0.0);
    if base < chunk.end_mass {
        for (var j = 0u; j < SPRING_MASSES_PER_INVOCATION; j += 1u) {
            let a = spring_pass_mass(group, lid, j);
            if a >= chunk.end_mass {
                break;
            }
            let pa = positions[a].xyz;
            let run = runs[a];
            for (var s = run.x; s < run.y; s += 1u) {
                let i = s - chunk.first;
                let link = words_link(links[i]);
                let mat = link_material(i);
                var rest = link_rest(links[i]);
                if is_actuated(link) {
                    rest = actuator_table[link.rest].current;
                }
                let ke = effective(mat, rest);
                let len = distance(pa, positions[link_mass(link)].xyz);
                e.x += 0.5 * ke.x * (len - ke.y) * (len - ke.y);
            }
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
        let p = partial[0];
        partials[group] = GpuSpringPartial(p.x, p.y, p.z, 0.0);
    }
}
