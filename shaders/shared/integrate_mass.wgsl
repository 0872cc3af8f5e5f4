// hooke: the per-mass update of the integrate pass (CPU twin: `ground`, `integrate_mass` in
// src/cpu/integrate.rs), shared by `integrate.wgsl` and the fused steps kernel (`steps.wgsl`).
// The kernel that includes it declares `params`, `mass_table`, `oscillator_table`, `state`
// (read-write), `touch`, `contacts`, the obstacle bindings, `step`, and `take_force(i)`, which
// returns mass i's fixed-point spring-force sum (4 words as the spring pass's scatter left them)
// and clears it.

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
    let sum = take_force(i);
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
