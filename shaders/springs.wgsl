// hooke::springs: each invocation takes SPRING_MASSES_PER_INVOCATION masses and walks the springs
// whose first mass (`a`) they are, in the link table (springs grouped by `a`; links `runs[a].x`
// to `runs[a].y`). For each spring it computes the elastic and axial damping force (CPU
// twin: `springs` in src/cpu.rs) and adds it to `b` in fixed point with integer atomic adds; `a`'s
// side is summed in registers (as integers, so the sum is the same as adding each spring on its
// own) and added once per mass. The per-sum results are exact and independent of order.
// Masses are assigned by `walk` (common.wgsl): lanes in lockstep groups take neighbouring masses
// and each group walks its block in order. Every lane loads and scatters its own `a` at the same
// point of the loop, so on adapters that run lanes in SIMD (lavapipe) no lane pays for another's
// per-mass work in a divergent branch.
// Energy: each invocation adds its springs' dissipated and injected work to its own running
// (compensated) slot: no workgroup barrier, and every slot is written by one invocation in a fixed
// order, so the booking is deterministic. `energy_springs` reduces the slots when energy is read.
// `links`, `link_materials` and `slots` are bound to one chunk of the tables (see `GpuChunk`).

@group(0) @binding(0) var<uniform> params: GpuParams;
// `GpuLink` records of this chunk, read as `Link` words (see words_*.wgsl); link i of the table
// is `links[i - chunk.first]`.
@group(0) @binding(1) var<storage, read> links: array<Link>;
// Material index of each link of this chunk (read only when the model has several materials).
@group(0) @binding(2) var<storage, read> link_materials: array<u32>;
@group(0) @binding(3) var<storage, read> material_table: array<GpuMaterial>;
@group(0) @binding(4) var<storage, read_write> actuator_table: array<GpuActuator>;
// The springs of mass a are links runs[a].x .. runs[a].y (one load per mass).
@group(0) @binding(5) var<storage, read> runs: array<vec2<u32>>;
// Each mass's position and velocity in one 32-byte `State` (written by `integrate`), so a
// spring reads its second mass in one load.
@group(0) @binding(6) var<storage, read> state: array<State>;
// Binding 7, the fixed-point force sums, and `scatter` are declared by scatter_*.wgsl.
@group(0) @binding(8) var<storage, read_write> status: array<atomic<u32>, 4>;
// Per invocation running (dissipated, compensation, injected, compensation), J.
@group(0) @binding(9) var<storage, read_write> slots: array<vec4<f32>>;
@group(0) @binding(10) var<uniform> chunk: GpuChunk;
@group(1) @binding(0) var<uniform> step: GpuStep;

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
    let invocation = group * WORKGROUP_SIZE + lid;
    let base = spring_pass_mass(group, lid, 0u);
    if base >= chunk.end_mass {
        return;
    }
    // Passes after a failed step do nothing (see `World::step`); this value does not change
    // during this dispatch, so every invocation agrees.
    if min(atomicLoad(&status[STATUS_BAD_STEP]), atomicLoad(&status[STATUS_OVERFLOW_STEP])) < step.index {
        return;
    }
    var dissipated = 0.0;
    var injected = 0.0;
    // Lowest link index whose force passed the fixed-point bound (reported once, after the
    // loop, so the loop has no per-spring branch around atomics).
    var overflow = NONE;
    for (var j = 0u; j < SPRING_MASSES_PER_INVOCATION; j += 1u) {
        let a = spring_pass_mass(group, lid, j);
        if a >= chunk.end_mass {
            break;
        }
        let run = runs[a];
        let first = run.x;
        let last = run.y;
        if first == last {
            continue;
        }
        let sa = state[a];
        let pa = state_position(sa);
        let va = state_velocity(sa);
        var fa = vec3<Fixed>(Fixed(0));
        for (var s = first; s < last; s += 1u) {
            let i = s - chunk.first;
            let link = words_link(links[i]);
            let b = link_mass(link);
            let mat = link_material(i);
            let sb = state[b];
            let d = pa - state_position(sb);
            let len = length(d);
            var rest = bitcast<f32>(link.rest);
            if is_actuated(link) {
                let act = actuator_table[link.rest];
                rest = actuated_rest(act, step.time);
                if TRACK_ENERGY {
                    // Work done by the muscle: the change of elastic energy at fixed positions.
                    let before = effective(mat, act.current);
                    let after = effective(mat, rest);
                    injected += elastic(after.x, after.y, len) - elastic(before.x, before.y, len);
                }
                actuator_table[link.rest].current = rest;
            }
            let ke = effective(mat, rest);
            // A spring of zero length has no direction and exerts no force (as on the CPU).
            let n = d * select(0.0, 1.0 / len, len > 0.0);
            let vrel = dot(va - state_velocity(sb), n);
            let f = (ke.x * (len - ke.y) + mat.damping * vrel) * n;
            if TRACK_ENERGY {
                // c vrel^2, W; times dt once per invocation, after the loop.
                dissipated += mat.damping * vrel * vrel;
            }
            // Not `<=` for NaN as well as for forces past the bound.
            let ok = max(max(abs(f.x), abs(f.y)), abs(f.z)) <= SPRING_FORCE_LIMIT;
            overflow = select(min(overflow, s), overflow, ok);
            let q = vec3<Fixed>(round(select(vec3<f32>(0.0), f, ok) * FIXED_SCALE));
            fa -= q;
            scatter(b, q);
        }
        scatter(a, fa);
    }
    if overflow != NONE {
        atomicMin(&status[STATUS_OVERFLOW_STEP], step.index);
        atomicMin(&status[STATUS_OVERFLOW_SPRING], overflow);
    }
    if TRACK_ENERGY && invocation < arrayLength(&slots) {
        let slot = slots[invocation];
        slots[invocation] = vec4<f32>(
            kahan_add(slot.xy, dissipated * params.dt),
            kahan_add(slot.zw, injected),
        );
    }
}
