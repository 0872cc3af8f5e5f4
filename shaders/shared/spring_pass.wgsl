// hooke: the bindings and helpers shared by both variants of the spring pass (`springs.wgsl`,
// which walks the link table, and `springs_stencil.wgsl`), prepended to them after
// `spring_common.wgsl`, the words file and the scatter file. A spring gives the same bits
// whichever variant computes it. `links`, `link_materials` and `slots` are bound to one chunk of
// the tables (see `GpuChunk`).

@group(0) @binding(0) var<uniform> params: GpuParams;
// `GpuLink` records of this chunk, read as `Link` words (see words_*.wgsl); link i of the table
// is `links[i - chunk.first]`.
@group(0) @binding(1) var<storage, read> links: array<Link>;
// Material index of each link of this chunk (read only when the model has several materials).
@group(0) @binding(2) var<storage, read> link_materials: array<u32>;
@group(0) @binding(3) var<storage, read> material_table: array<GpuMaterial>;
@group(0) @binding(4) var<storage, read_write> actuator_table: array<GpuActuator>;
// The springs of mass a that the pass walks in the link table are links runs[a].x .. runs[a].y
// (one load per mass): all of a's springs, or in the stencil variant those outside the stencil.
@group(0) @binding(5) var<storage, read> runs: array<vec2<u32>>;
// Binding 6, `state` (each mass's position and velocity in one 32-byte `State`, written by
// `integrate`, so a spring reads its second mass in one load), and the per-step record `step`
// are declared by the kernel's own file (read-only and a uniform in the spring pass; written and
// a private copy in the fused steps kernel, steps.wgsl).
// Binding 7, the fixed-point force sums, and `scatter` are declared by scatter_*.wgsl.
@group(0) @binding(8) var<storage, read_write> status: GpuStatus;
// Per invocation running (dissipated, compensation, injected, compensation), J.
@group(0) @binding(9) var<storage, read_write> slots: array<vec4<Real>>;
@group(0) @binding(10) var<uniform> chunk: GpuChunk;
// The command of each commanded actuator (relative rest-length change), written by the host in
// one upload per `World::set_commands`; read only when HAS_COMMANDS.
@group(0) @binding(11) var<storage, read> commands: array<Real>;

// A spring's force on its second mass `b` in fixed point (its first mass gets -q), and the damping
// power c vrel^2 (W) it dissipates.
struct SpringForce {
    q: vec3<Fixed>,
    power: Real,
    // False when a component passed SPRING_FORCE_LIMIT or is not a number (q is then zero).
    ok: bool,
}

// The elastic and axial damping force of a spring from a (position pa, m; velocity va, m/s) to b
// (state sb), of effective stiffness ke.x (N/m), effective rest length ke.y (m) and damping
// coefficient `damping` (N s/m), whose length is `len` (m, = |pa - pb|), as `spring_force` in
// src/model/spring_law/: f_b = (k (L - L0) + c vrel) n with n = (pa - pb) / L. A spring of zero
// length has no direction and exerts no force (as on the CPU).
fn spring_force(d: vec3<Real>, len: Real, dv: vec3<Real>, ke: vec2<Real>, damping: Real) -> SpringForce {
    let n = d * select(0.0, 1.0 / len, len > 0.0);
    let vrel = dot(dv, n);
    let f = (ke.x * (len - ke.y) + damping * vrel) * n;
    // Not `<=` for NaN as well as for forces past the bound.
    let ok = max(max(abs(f.x), abs(f.y)), abs(f.z)) <= SPRING_FORCE_LIMIT;
    let q = vec3<Fixed>(round(select(vec3<Real>(0.0), f, ok) * FIXED_SCALE));
    return SpringForce(q, damping * vrel * vrel, ok);
}

// Elastic energy (J) of a spring of stiffness k (N/m) and rest length `rest` (m) at length `len`
// (the CPU's: `elastic` in src/model/spring_law/).
fn elastic(k: Real, rest: Real, len: Real) -> Real {
    return 0.5 * k * (len - rest) * (len - rest);
}

// A spring's share (J) of the energy semi-implicit Euler conserves, at length `len` (m) and rate
// of lengthening `vrel` (m/s): its elastic energy plus dt/2 times the power of its elastic force,
// k (L - L0)^2 / 2 - dt/2 k (L - L0) vrel (the CPU's: `shadow_elastic` in src/model/spring_law/).
fn shadow_elastic(k: Real, rest: Real, len: Real, vrel: Real) -> Real {
    return elastic(k, rest, len) - 0.5 * params.dt * (k * (len - rest)) * vrel;
}

// The rate of lengthening (m/s) of a spring from a to b with d = pa - pb of length `len` (m) and
// dv = va - vb (m/s); 0 for a spring of zero length, which has no direction.
fn lengthening(d: vec3<Real>, len: Real, dv: vec3<Real>) -> Real {
    return dot(dv, d * select(0.0, 1.0 / len, len > 0.0));
}

// A spring of the link table as the spring pass computes it: its second mass, its force, and the
// work its actuator injected this step (J; 0 without actuator or energy tracking).
struct LinkSpring {
    b: u32,
    force: SpringForce,
    injected: Real,
}

// The spring at index `i` of the bound chunk of the link table, from mass a (position pa, m;
// velocity va, m/s). An actuated spring's rest length is evaluated at the step's time (for a
// commanded actuator, from its command) and recorded in its actuator's `current`.
fn link_spring(i: u32, pa: vec3<Real>, va: vec3<Real>) -> LinkSpring {
    let link = words_link(links[i]);
    let b = link_mass(link);
    let mat = link_material(i);
    let sb = state[b];
    let d = pa - state_position(sb);
    let len = length(d);
    var rest = link_rest(links[i]);
    var injected: Real = 0.0;
    let dv = va - state_velocity(sb);
    if is_actuated(link) {
        let moved = actuate(link.rest, mat, len, lengthening(d, len, dv));
        rest = moved.x;
        injected = moved.y;
    }
    let force = spring_force(d, len, dv, effective(mat, rest), mat.damping);
    return LinkSpring(b, force, injected);
}

// The rest length (m, .x) of the spring that actuator `i` drives, evaluated at the step's time
// (for a commanded actuator, from its command) and recorded in the actuator's `current`, and the
// work (J, .y; 0 without energy tracking) the change did at the spring's length `len` (m), rate
// of lengthening `vrel` (m/s) and material `mat`. Both variants of the spring pass call it, so
// an actuated spring gives the same bits in the link table and in a stencil slot.
fn actuate(i: u32, mat: GpuMaterial, len: Real, vrel: Real) -> vec2<Real> {
    let rest = muscle_rest(i);
    var injected: Real = 0.0;
    if TRACK_ENERGY {
        // Work done by the muscle: the change of shadow elastic energy at fixed positions and
        // velocities.
        let before = effective(mat, actuator_table[i].current);
        let after = effective(mat, rest);
        injected = shadow_elastic(after.x, after.y, len, vrel)
            - shadow_elastic(before.x, before.y, len, vrel);
    }
    actuator_table[i].current = rest;
    return vec2<Real>(rest, injected);
}

// The rest length (m) of the spring that actuator `i` drives at the step's time: from its
// command for a commanded actuator, else its waveform. Loads only the fields it uses (each a
// load per invocation on CPU adapters), the duty cycle's only when the actuator has one.
fn muscle_rest(i: u32) -> Real {
    let base = actuator_table[i].base;
    let amplitude = actuator_table[i].amplitude;
    if HAS_COMMANDS {
        let command = actuator_table[i].command;
        if command != NONE {
            return commanded_rest(base, amplitude, commands[command]);
        }
    }
    var tau = step.time;
    let on = actuator_table[i].duty_active;
    if on > 0.0 {
        tau = duty_clock(tau, on, actuator_table[i].duty_rest, actuator_table[i].duty_offset);
    }
    return wave_rest(base, amplitude, actuator_table[i].omega, actuator_table[i].phase, tau);
}

// What walking one run of the link table adds up: the fixed-point sum for the run's first mass
// (its springs' negated forces), the damping power (W) and actuator work (J) booked, and the
// lowest overflowing link index (NONE if none).
struct RunSum {
    fa: vec3<Fixed>,
    dissipated: Real,
    injected: Real,
    overflow: u32,
}

// Walks links first..last of the table, the springs from mass a (position pa, m; velocity va,
// m/s): each spring's force is scattered to its second mass; a's side is summed and returned.
fn walk_run(first: u32, last: u32, pa: vec3<Real>, va: vec3<Real>) -> RunSum {
    var sum = RunSum(vec3<Fixed>(Fixed(0)), 0.0, 0.0, NONE);
    for (var s = first; s < last; s += 1u) {
        let ls = link_spring(s - chunk.first, pa, va);
        if TRACK_ENERGY {
            // c vrel^2, W; times dt once per invocation, in `finish_invocation`.
            sum.dissipated += ls.force.power;
            sum.injected += ls.injected;
        }
        sum.overflow = select(min(sum.overflow, s), sum.overflow, ls.force.ok);
        sum.fa -= ls.force.q;
        scatter(ls.b, ls.force.q);
    }
    return sum;
}

// The end of a spring-pass invocation: reports the lowest overflowing spring code, if any, and
// adds the invocation's dissipated power sum (W, times dt here) and injected work (J) to its
// energy slot.
fn finish_invocation(invocation: u32, overflow: u32, dissipated: Real, injected: Real) {
    if overflow != NONE {
        atomicMin(&status.overflow_step, step.index);
        atomicMin(&status.overflow_spring, overflow);
    }
    if TRACK_ENERGY && invocation < arrayLength(&slots) {
        let slot = slots[invocation];
        slots[invocation] = vec4<Real>(
            kahan_add(slot.xy, dissipated * params.dt),
            kahan_add(slot.zw, injected),
        );
    }
}

// Whether a step before this one failed, so this pass does nothing (see `World::step`); the
// value does not change during a dispatch, so every invocation agrees.
fn earlier_step_failed() -> bool {
    return min(atomicLoad(&status.bad_step), atomicLoad(&status.overflow_step)) < step.index;
}
