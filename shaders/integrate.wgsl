// hooke::integrate: MASSES_PER_INVOCATION masses per invocation (see `walk`). For each mass it
// reads and clears the fixed-point spring force, adds gravity, external, drag-spring and air-drag
// forces, ground contact and Coulomb (or naive) friction, then contact and friction with each
// obstacle (shared/obstacles.wgsl), the collision force (collide.wgsl), updates velocity and position, and reports masses that
// turned non-finite or passed the blow-up speed bound (CPU twin: `ground`, `integrate_mass` and
// `integrate` in src/cpu/integrate.rs, `obstacles` in src/cpu/obstacles.rs).

@group(0) @binding(0) var<uniform> params: GpuParams;
// `GpuMass` records, read as `Record`s (see shared/words_*.wgsl).
@group(0) @binding(1) var<storage, read> mass_table: array<Record>;
@group(0) @binding(2) var<storage, read> oscillator_table: array<GpuOscillator>;
// The interleaved state the spring pass and this pass read and write (position, velocity: one
// `State` per mass). The public position and velocity buffers are written from it once per
// `World::step` call (`publish.wgsl`).
@group(0) @binding(3) var<storage, read_write> state: array<State>;
// The spring pass's fixed-point sums, 4 words per mass (x, y, z, unused; with PACKED_FORCES the
// 64-bit pair (y * 2^32 + x, z) of shared/scatter_packed.wgsl), read and cleared in one access each.
// This pass runs after the spring pass has finished (a separate dispatch), so plain loads and
// stores see the complete sums.
@group(0) @binding(4) var<storage, read_write> forces: array<vec4<Fixed>>;
@group(0) @binding(5) var<storage, read_write> status: GpuStatus;
// Per invocation running (dissipated, compensation, injected, compensation), J.
@group(0) @binding(6) var<storage, read_write> slots: array<vec4<Real>>;
// The obstacle table (OBSTACLES records) and the obstacle words (shared/obstacles.wgsl).
@group(0) @binding(7) var<storage, read> obstacle_table: array<GpuObstacle>;
@group(0) @binding(8) var<storage, read> obstacle_words: array<u32>;
// The collision pass's force on each mass, two vec4 per mass (conservative, dissipative; see
// shared/collisions.wgsl), written by `collide` before this pass; read only with COLLISIONS.
@group(0) @binding(9) var<storage, read> touch: array<vec4<Real>>;
// Each mass's contact over the step for the sensors: (normal force N, 1 if touching else 0);
// written only with CONTACTS (else a placeholder).
@group(0) @binding(10) var<storage, read_write> contacts: array<vec4<Real>>;
@group(1) @binding(0) var<uniform> step: GpuStep;

// Ground contact and friction for a mass m (kg) at x (m) moving at v (m/s) under the net
// non-ground force f (N). Twin of `cpu::ground`.
fn ground(mu_s: Real, mu_k: Real, m: Real, x: vec3<Real>, v: vec3<Real>, f: vec3<Real>) -> Ground {
    var out = no_ground();
    let dt = params.dt;
    var normal: Real = 0.0;
    if params.contact == CONTACT_PENALTY {
        if x.z >= 0.0 {
            return out;
        }
        let spring = -params.contact_stiffness * x.z;
        normal = max(spring - params.contact_damping * v.z, 0.0);
        out.conservative.z = spring;
        out.dissipative.z = normal - spring;
        out.normal.z = normal;
    } else if params.contact == CONTACT_RESTITUTION {
        if x.z > 0.0 {
            return out;
        }
        normal = max(-f.z, 0.0);
        var impulse: Real = 0.0;
        if v.z < 0.0 {
            impulse = -m * (1.0 + params.restitution) * v.z / dt;
        }
        out.dissipative.z = normal + impulse;
        out.normal.z = normal + impulse;
    } else {
        return out;
    }
    out.touching = true;
    let ft = vec3<Real>(f.x, f.y, 0.0);
    let vt = vec3<Real>(v.x, v.y, 0.0);
    out.dissipative += friction(params.friction_rule, params.rest_speed, mu_s, mu_k, normal, m, vt,
        ft);
    return out;
}

// What integrating one mass reports: its (dissipated, injected) work over the step (J), and
// whether its new position or velocity is not finite or its new speed is over the blow-up bound.
struct Integrated {
    energy: vec2<Real>,
    bad: bool,
}

// Integrates mass i.
fn integrate_mass(i: u32) -> Integrated {
    var energy = vec2<Real>(0.0, 0.0);
    let sum = forces[i];
    forces[i] = vec4<Fixed>(Fixed(0));
    var q = sum.xyz;
    if PACKED_FORCES {
        // The high half of y * 2^32 + x is y minus the borrow of a negative x.
        q.y = sum.y - (sum.x >> 31u);
    }
    let spring_force = vec3<Real>(q) / FIXED_SCALE;
    let record = mass_table[i];
    let props = words_mass(record_lo(record), record_hi(record));
    if (props.flags & MASS_FIXED) != 0u {
        if CONTACTS {
            contacts[i] = vec4<Real>(0.0);
        }
        return Integrated(energy, false);
    }
    let m = props.mass;
    let dt = params.dt;
    let st = state[i];
    let x = state_position(st);
    let v = state_velocity(st);
    var applied = props.external_force;
    if i == params.drag_mass {
        applied += params.drag_stiffness * (params.drag_target - x) - params.drag_damping * v;
    }
    var conservative = spring_force + m * params.gravity + applied;
    // The collision force: its penalty part with the conservative forces (ground and obstacle
    // friction see it), its damping and friction with the dissipative ones.
    var touch_dissipative = vec3<Real>(0.0);
    if COLLISIONS {
        conservative += touch[2u * i].xyz;
        touch_dissipative = touch[2u * i + 1u].xyz;
    }
    let drag = -params.air_drag * v;
    var mu_s = params.static_friction;
    var mu_k = params.kinetic_friction;
    var oscillated = false;
    var mu: Real = 0.0;
    if HAS_OSCILLATORS && props.oscillator != NONE {
        let o = oscillator_table[props.oscillator];
        mu = o.min;
        if cos_real(o.omega * step.time + o.phase) > 0.0 {
            mu = o.max;
        }
        mu_s = mu;
        mu_k = mu;
        oscillated = true;
    }
    var g = ground(mu_s, mu_k, m, x, v, conservative + drag);
    if OBSTACLES > 0u {
        g = obstacles(oscillated, mu, m, x, v, conservative, drag, g);
    }
    if CONTACTS {
        contacts[i] = vec4<Real>(g.normal, select(Real(0.0), Real(1.0), g.touching));
    }
    let dissipative = drag + g.dissipative + touch_dissipative;
    let total = conservative + g.conservative + dissipative;
    let v_pre = v + total / m * dt;
    let v_new = v_pre * params.damping_factor;
    var x_new: vec3<Real>;
    if params.integrator == INTEGRATOR_SEMI_IMPLICIT {
        x_new = x + v_new * dt;
    } else {
        x_new = x + v * dt;
    }
    if TRACK_ENERGY {
        // As on the CPU: each force's work over the step is F . (v + v_pre) / 2 dt (the
        // exact split of the kinetic-energy change); global damping removes the rest.
        let work = 0.5 * (v + v_pre) * dt;
        energy = vec2<Real>(
            -dot(dissipative, work) + 0.5 * m * dot(v_pre - v_new, v_pre + v_new),
            dot(applied, work),
        );
    }
    // The blow-up bound (`SpeedLimit::over`): the per-step part first, without a square root.
    let base = BLOW_UP_FLOOR_SPEED + step.speed_growth * (step.time + dt);
    var over = false;
    if dot(v_new, v_new) > base * base {
        over = length(v_new) > base + sqrt(2.0 * step.speed_energy / m);
    }
    let bad = non_finite(x_new.x) || non_finite(x_new.y) || non_finite(x_new.z)
        || non_finite(v_new.x) || non_finite(v_new.y) || non_finite(v_new.z) || over;
    state[i] = state_pack(x_new, v_new);
    return Integrated(energy, bad);
}

// Each invocation integrates MASSES_PER_INVOCATION masses (see `walk`) and adds their dissipated
// and injected work to its own running (compensated) slot: no workgroup barrier, and each slot is
// written by one invocation in a fixed order, so the booking is deterministic.
@compute @workgroup_size(WORKGROUP_SIZE)
fn integrate(
    @builtin(workgroup_id) wg: vec3<u32>,
    @builtin(num_workgroups) groups: vec3<u32>,
    @builtin(local_invocation_index) lid: u32,
) {
    let group = workgroup_linear(wg, groups);
    let invocation = group * WORKGROUP_SIZE + lid;
    if walk(group, lid, 0u, MASSES_PER_INVOCATION) >= params.masses {
        return;
    }
    // A step that overflowed is not integrated; after a failed step nothing runs. Neither value
    // changes during this dispatch except to `step.index` itself, so every invocation agrees.
    if atomicLoad(&status.bad_step) < step.index
        || atomicLoad(&status.overflow_step) <= step.index {
        return;
    }
    var energy = vec2<Real>(0.0, 0.0);
    // Lowest mass that turned non-finite, reported once after the loop (no per-mass branch
    // around atomics).
    var bad = NONE;
    for (var j = 0u; j < MASSES_PER_INVOCATION; j += 1u) {
        let i = walk(group, lid, j, MASSES_PER_INVOCATION);
        if i >= params.masses {
            break;
        }
        let out = integrate_mass(i);
        energy += out.energy;
        bad = select(bad, min(bad, i), out.bad);
    }
    if bad != NONE {
        atomicMin(&status.bad_step, step.index);
        atomicMin(&status.bad_mass, bad);
    }
    if TRACK_ENERGY && invocation < arrayLength(&slots) {
        let slot = slots[invocation];
        slots[invocation] = vec4<Real>(kahan_add(slot.xy, energy.x), kahan_add(slot.zw, energy.y));
    }
}
