// hooke::springs, stencil variant: for models whose springs mostly join masses a fixed index
// offset apart (lattices, cloth grids, ropes, voxel bodies), chosen by `Stencil` (src/gpu/kernels/springs_stencil.rs)
// when the World is built. The Rust side generates the lines marked `//@` below from the model's
// offsets, with the constants STENCIL_SLOTS (offsets), STENCIL_WORDS (`Words` of rest lengths per
// mass), STENCIL_CODE (the link count: overflow codes at and above it name stencil slots),
// HAS_REMAINDER (whether some springs are outside the stencil) and SLOT_MATERIAL_<k> (the
// material of slot k's springs: one per offset).
//
// Slot k of mass a is the spring from a to a + offset_k: element k of a's STENCIL_WORDS words in
// `stencil` is its rest length (m), -1 when a has no such spring, or -(2 + i) when actuator i
// drives it (the slot then evaluates the actuator each step, as the link table does). When the
// World books no energy (MUSCLES_SET, a generated constant), each invocation first writes the
// rest lengths of the muscles in its masses' slots into those slots (springs_stencil_muscles.wgsl),
// so the walk sees plain springs and has no actuator branch. Each invocation walks
// SPRING_MASSES_PER_INVOCATION consecutive masses. The offsets group into chains of consecutive
// offsets (base, base + 1, ...; the first chain has base 0, the walked mass itself), and for each
// chain the invocation keeps in registers the states of masses a + base + j and the fixed-point
// forces summed for them so far. Moving from a to a + 1 shifts each chain by one: the state of one
// new mass is loaded per chain and the one finished force sum per chain is added to the device
// (its target receives nothing more from this invocation). So per mass the pass loads one state
// and scatters one sum per chain, where the link-table variant loads one state and scatters one
// sum per spring. The sums are integers, so they are the same bits as adding spring by spring.
// A spring listed from its higher mass sits in the lower mass's slot: p_lo - p_hi is exactly the
// negated p_hi - p_lo in floating point, so its force is exactly negated and the sums are the same. Springs
// outside the stencil (duplicate or irregular ones, or of another material than their offset's)
// are walked in the link table as in `springs.wgsl`. Bindings and the per-spring
// helpers: shared/spring_pass.wgsl.

// Rest lengths (or actuator codes) of the stencil slots, STENCIL_WORDS `Words` (4 reals each)
// per mass: binding 12, read-only, or read-write when MUSCLES_SET (see springs_stencil_muscles.wgsl).
// Then `state` and `step` (see shared/spring_pass.wgsl): read-only and a uniform here; written
// and a private copy when this walk is part of the fused steps kernel (steps.wgsl).
//@ bindings

//@ constants

@compute @workgroup_size(WORKGROUP_SIZE)
fn springs(
    @builtin(workgroup_id) wg: vec3<u32>,
    @builtin(num_workgroups) groups: vec3<u32>,
    @builtin(local_invocation_index) lid: u32,
) {
    let group = workgroup_linear(wg, groups);
    let invocation = group * WORKGROUP_SIZE + lid;
    let a0 = chunk.first_mass + invocation * SPRING_MASSES_PER_INVOCATION;
    if a0 >= chunk.end_mass || earlier_step_failed() {
        return;
    }
    let count = min(SPRING_MASSES_PER_INVOCATION, chunk.end_mass - a0);
    walk_masses(invocation, a0, count, params.masses - 1u);
}

// The springs of masses a0 .. a0 + count (count >= 1) for invocation `invocation`, with the
// states of masses past `last_mass` never loaded (clamped to it; what a slot beyond it would
// read is masked out) and no sum added past it. Returns whether a spring force passed the
// fixed-point bound (reported to the status as well).
fn walk_masses(invocation: u32, a0: u32, count: u32, last_mass: u32) -> bool {
    // With MUSCLES_SET: the rest lengths of the muscles in this invocation's slots.
//@ muscles
    let zero = vec3<Fixed>(Fixed(0));
    var dissipated: Real = 0.0;
    var injected: Real = 0.0;
    // Lowest code of a spring whose force passed the fixed-point bound: its link index, or
    // STENCIL_CODE + a * STENCIL_SLOTS + k for slot k of mass a.
    var overflow = NONE;
    // Per chain c and position j: `s<c>_<j>`, the state of mass a + base_c + j (clamped to the
    // last mass; what a slot beyond it reads is masked out), and `f<c>_<j>`, its force sum.
//@ declare
    for (var j = 0u; j < count; j += 1u) {
        let a = a0 + j;
        let pa = state_position(s0_0);
        let va = state_velocity(s0_0);
        let code = STENCIL_CODE + a * STENCIL_SLOTS;
        // Per slot k, from chain c at position j: stencil_slot(.., SLOT_MATERIAL_<k>, ..), then
        // f0_0 -= q, f<c>_<j> += q.
//@ slots
        if HAS_REMAINDER {
            let run = runs[a];
            let run_sum = walk_run(run.x, run.y, pa, va);
            dissipated += run_sum.dissipated;
            injected += run_sum.injected;
            overflow = min(overflow, run_sum.overflow);
            f0_0 += run_sum.fa;
        }
        // Per chain: add f<c>_0 to mass a + base_c, shift, load the state of the chain's next mass.
//@ shift
    }
    // The sums this invocation holds for masses after its last: next + base_c + j.
    let next = a0 + count;
//@ finish
    finish_invocation(invocation, overflow, dissipated, injected);
    return overflow != NONE;
}

// One stencil slot from a (position pa, m; velocity va, m/s) to the mass of state sb, holding
// `code`: the rest length (m) of a plain spring (>= 0), -1 for no spring, or -(2 + i) for the
// spring that actuator i drives (its rest length evaluated by `actuate`, as in the link table;
// with MUSCLES_SET the slot already holds that rest length). An absent slot gives zero force, power and work and is always ok.
fn stencil_slot(pa: vec3<Real>, va: vec3<Real>, sb: State, mat: GpuMaterial, code: Real) -> SlotSpring {
    let d = pa - state_position(sb);
    let len = length(d);
    var rest = code;
    var injected: Real = 0.0;
    var present = code >= 0.0;
    let dv = va - state_velocity(sb);
    if HAS_ACTUATORS && !MUSCLES_SET && code < -1.5 {
        let moved = actuate(u32(-code) - 2u, mat, len, lengthening(d, len, dv));
        rest = moved.x;
        injected = moved.y;
        present = true;
    }
    let sf = spring_force(d, len, dv, effective(mat, rest), mat.damping);
    return SlotSpring(
        SpringForce(
            select(vec3<Fixed>(Fixed(0)), sf.q, present),
            select(0.0, sf.power, present),
            sf.ok || !present,
        ),
        injected,
    );
}

// What a stencil slot adds: its spring's force and the work its actuator injected (J).
struct SlotSpring {
    force: SpringForce,
    injected: Real,
}
