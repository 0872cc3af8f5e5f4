//! The CPU-vs-GPU comparison harness and its tolerance derivation.
//!
//! # Where the GPU may differ from the CPU, and by how much
//! The GPU runs the model's physics in f32 (unit roundoff `u = 2^-24`); the CPU in f64 (which we
//! treat as exact). The GPU trajectory is the exact trajectory of a slightly different problem:
//! 1. **Parameters rounded once** to f32 (masses, stiffness, rest lengths, dt, gravity, the
//!    obstacles' contact, friction and geometry...): a
//!    systematic change of the system, not of the state. Its effect `D_param(t)` is measured
//!    exactly by a CPU run of the model with every parameter rounded to f32 ("param shadow").
//! 2. **The state perturbed every step** by rounding: each step rounds each position and velocity
//!    once, and each force term (spring force, its fixed-point encoding with at most half a
//!    quantum per spring, gravity, contact). Perturbations of this size behave linearly while they
//!    stay small, so the error at step N is at most the sum over steps of each step's perturbation
//!    carried forward to t. A perturbation the size of one rounding of the whole state, injected at
//!    t = 0, grows to `D_state(t)` (a CPU run from the initial state rounded to f32: "state shadow");
//!    one injected later is carried over a shorter time, so it grows to at most
//!    `max_{tau <= t} D_state(tau)`. One step's rounding is at most `R = 4` such roundings (the
//!    position, the velocity, the force sum and the fixed-point quantum, each bounded by one
//!    rounding of the state it feeds, see `tolerance` for the floor that covers a state shadow that
//!    happens to round exactly). Hence, for positions (and likewise velocities):
//!
//!    `tol_x(t) = D_param(t) + R * N(t) * max(max_{tau <= t} D_state(tau), u * X)`
//!
//!    with `X` the largest |position| (m) seen so far (so `u * X` is one rounding of a position)
//!    and, for velocities, `u * (V + A dt)`: one rounding of the largest speed plus of the largest
//!    per-step velocity change seen so far.
//! 3. **Contact events of the restitution model** (Anderson) are thresholds (`z <= 0`): a mass
//!    whose height is within `tol_x` of the ground (plus one step of travel) may be in contact in
//!    one run and not in the other, a one-step shift of the event that the linear argument of (2)
//!    cannot see. One step of contact changes a velocity by at most the impulse `(1 + e) |v_z|`,
//!    the normal force `|F_z| dt / m <= (|v_z| + g dt)`-sized cancellation, and friction `mu_s`
//!    times both: `J_v = (1 + e)(1 + mu_s)(V_c + g dt)` with `V_c` the largest speed of such a mass
//!    seen so far. Such kicks do not accumulate (the next contact step resets the normal velocity
//!    in both runs), so `J_v` is added to `tol_v` and `J_v dt` (one step of travel) to `tol_x`.
//!    The penalty model has no such threshold in force (it is continuous in `z`), so `J = 0` there.
//!    Obstacles with restitution are such surfaces too, with `z` replaced by the signed distance
//!    from the obstacle; the largest `(1 + e)(1 + mu_s)` of all of them is used.
//! 4. **Energy** terms are functions of the state: their tolerance follows from `tol_x` and
//!    `tol_v` by the first-order expansion written in `energy_tolerance`, plus `u` relative for
//!    each term's f32 evaluation and reduction (`log2(n)` roundings in a tree of `n` items; we
//!    bound it by `n u |term|`, cheap and safe). Dissipated and injected energy are integrals over
//!    the run: their error is bounded by the largest mechanical-energy tolerance seen so far (what
//!    the trajectories disagree on flows through them) plus `N u` relative accumulation error.
//!
//! The worst-case linear sum in (2) is an upper bound; the observed errors are typically 10-100x
//! smaller, which the tests print so that a drifting margin is visible.
//!
//! # In f64 (`Precision::F64`)
//! The same argument with the GPU in f64: the parameters are held exactly (`D_param = 0`), and
//! each step perturbs the state by the f64 roundings of the position, velocity and force terms
//! (the unit `u = 2^-52` covers a rounding of a result whose inputs were rounded, as an FMA or a
//! different order of operations gives) and by the fixed-point sum: each spring's force is off by
//! at most half a quantum `q` at each end, so a mass's velocity by at most
//! `dv_q = n_max q dt / m_min` per step (`n_max` springs at the busiest mass, `m_min` the lightest
//! mass). The state shadow starts from the initial state perturbed by one such step (each position
//! coordinate by `u |x|`, each velocity by `u |v| + dv_q`, alternating in sign from mass to mass),
//! and the floors are `u X` and `u (V + A dt) + dv_q`. Contact thresholds are handled as in f32.

use hooke::{Contact, CpuWorld, DVec3, Energy, Friction, Model, Obstacle, Precision, Shape, World};

/// f32 unit roundoff.
pub const U: f64 = f32::EPSILON as f64 / 2.0;
/// The f64 rounding unit of the f64 comparison (see the module docs).
pub const U64: f64 = f64::EPSILON;
/// Roundings per step (see the module docs).
pub const R: f64 = 4.0;

fn r32(x: f64) -> f64 {
    f64::from(x as f32)
}

fn r32v(v: DVec3) -> DVec3 {
    v.as_vec3().as_dvec3()
}

/// `model` with its initial state rounded to f32.
pub fn state_rounded(model: &Model) -> Model {
    let mut m = model.clone();
    for mass in &mut m.masses {
        mass.position = r32v(mass.position);
        mass.velocity = r32v(mass.velocity);
    }
    m
}

/// `model` with every parameter (not the state) rounded to f32.
pub fn params_rounded(model: &Model) -> Model {
    let mut m = model.clone();
    let p = &mut m.params;
    p.dt = r32(p.dt);
    p.gravity = r32v(p.gravity);
    p.air_drag = r32(p.air_drag);
    round_friction(&mut p.friction);
    p.contact = round_contact(p.contact);
    p.collision.stiffness = r32(p.collision.stiffness);
    p.collision.damping = r32(p.collision.damping);
    p.collision.friction = r32(p.collision.friction);
    for c in &mut m.class_collisions {
        c.collision.stiffness = r32(c.collision.stiffness);
        c.collision.damping = r32(c.collision.damping);
        c.collision.friction = r32(c.collision.friction);
    }
    for mass in &mut m.masses {
        mass.mass = r32(mass.mass);
        mass.external_force = r32v(mass.external_force);
        mass.collision_radius = r32(mass.collision_radius);
    }
    for s in &mut m.springs {
        s.stiffness = r32(s.stiffness);
        s.damping = r32(s.damping);
        s.rest_length = r32(s.rest_length);
    }
    for a in &mut m.actuators {
        a.amplitude = r32(a.amplitude);
        a.omega = r32(a.omega);
    }
    for ob in &mut m.obstacles {
        round_obstacle(ob);
    }
    m
}

/// `c` with its values rounded to f32.
fn round_contact(c: Contact) -> Contact {
    match c {
        Contact::None => Contact::None,
        Contact::Penalty { stiffness, damping } => Contact::Penalty {
            stiffness: r32(stiffness),
            damping: r32(damping),
        },
        Contact::Restitution { restitution } => Contact::Restitution {
            restitution: r32(restitution),
        },
    }
}

/// `f` with its coefficients and rest speed rounded to f32.
fn round_friction(f: &mut Friction) {
    f.static_coefficient = r32(f.static_coefficient);
    f.kinetic_coefficient = r32(f.kinetic_coefficient);
    f.rest_speed = r32(f.rest_speed);
}

/// `ob` with what the device holds in f32 rounded (its contact, friction and geometry; a plane's
/// normal after normalising, as the device stores it).
fn round_obstacle(ob: &mut Obstacle) {
    ob.contact = round_contact(ob.contact);
    round_friction(&mut ob.friction);
    match &mut ob.shape {
        Shape::Plane { normal, offset } => {
            *normal = r32v(normal.normalize());
            *offset = r32(*offset);
        }
        Shape::Box {
            centre,
            half_extents,
        }
        | Shape::OrientedBox {
            centre,
            half_extents,
            ..
        } => {
            *centre = r32v(*centre);
            *half_extents = r32v(*half_extents);
        }
        Shape::Sphere { centre, radius } => {
            *centre = r32v(*centre);
            *radius = r32(*radius);
        }
        Shape::Capsule { a, b, radius } => {
            *a = r32v(*a);
            *b = r32v(*b);
            *radius = r32(*radius);
        }
        Shape::Heightfield(h) => {
            h.origin = r32v(h.origin);
            h.spacing = h.spacing.as_vec2().as_dvec2();
            for z in &mut h.heights {
                *z = r32(*z);
            }
        }
    }
}

/// The surfaces with restitution contact: the ground (`None`) and obstacles, with their
/// coefficients of restitution and static friction.
fn restitution_surfaces(model: &Model) -> Vec<(Option<&Shape>, f64, f64)> {
    let mut out = Vec::new();
    if let Contact::Restitution { restitution } = model.params.contact {
        out.push((None, restitution, model.params.friction.static_coefficient));
    }
    for ob in &model.obstacles {
        if let Contact::Restitution { restitution } = ob.contact {
            out.push((Some(&ob.shape), restitution, ob.friction.static_coefficient));
        }
    }
    out
}

/// Signed distance (m) of `x` from a surface of [`restitution_surfaces`] (`None`: the ground);
/// infinite where the shape has no surface.
fn distance(shape: Option<&Shape>, x: DVec3) -> f64 {
    match shape {
        None => x.z,
        Some(s) => s.surface(x).map_or(f64::INFINITY, |s| s.distance),
    }
}

fn max_dist(a: &[DVec3], b: &[DVec3]) -> f64 {
    a.iter()
        .zip(b)
        .map(|(x, y)| (*x - *y).length())
        .fold(0.0, f64::max)
}

fn max_len(a: &[DVec3]) -> f64 {
    a.iter().map(|x| x.length()).fold(0.0, f64::max)
}

/// Mechanical-energy tolerances (J) for kinetic, gravity, elastic and ground terms at the CPU
/// state of `cpu`, given position and velocity tolerances `tx` (m) and `tv` (m/s). First order in
/// the state error plus the second-order term, plus `n u |term|` for the f32 evaluation and sum:
/// - kinetic: `sum m (|v| tv + tv^2 / 2)`;
/// - gravity: `sum m |g| tx`;
/// - elastic: each spring's length is off by at most `2 tx`, so `sum (|f| 2 tx + k (2 tx)^2 / 2)`
///   with `f = k_eff (L - L0)` its tension;
/// - ground: `sum k_c (|z| + tx) tx` over masses within `tx` of the ground or below it, and
///   likewise `k (|d| + tx) tx` with the signed distance `d` from each penalty obstacle.
pub fn energy_tolerance(model: &Model, cpu: &CpuWorld, tx: f64, tv: f64) -> [f64; 4] {
    energy_tolerance_in(model, cpu, tx, tv, U)
}

/// [`energy_tolerance`] with the GPU's rounding unit `u` (f32: [`U`]; f64: [`U64`]).
fn energy_tolerance_in(model: &Model, cpu: &CpuWorld, tx: f64, tv: f64, u: f64) -> [f64; 4] {
    let e = cpu.energy().unwrap();
    let g = model.params.gravity.length();
    let (pos, vel) = (cpu.position_slice(), cpu.velocity_slice());
    let n = model.masses.len() as f64;
    let mut kin = n * u * e.kinetic.abs();
    let mut grav = n * u * e.gravity.abs() + u * 1.0;
    for (m, v) in model.masses.iter().zip(vel) {
        kin += m.mass * (v.length() * tv + 0.5 * tv * tv);
        grav += m.mass * g * tx;
    }
    let rest = cpu.rest_lengths().unwrap();
    let mut elastic = model.springs.len() as f64 * u * e.elastic.abs();
    for (s, &l0) in model.springs.iter().zip(&rest) {
        let len = pos[s.a as usize].distance(pos[s.b as usize]);
        let (k, l0) = s.effective(l0);
        elastic += (k * (len - l0)).abs() * 2.0 * tx + 0.5 * k * 4.0 * tx * tx;
    }
    let mut ground = n * u * e.ground.abs();
    if let Contact::Penalty { stiffness, .. } = model.params.contact {
        for p in pos {
            if p.z < tx {
                ground += stiffness * (p.z.abs() + tx) * tx;
            }
        }
    }
    for ob in &model.obstacles {
        if let Contact::Penalty { stiffness, .. } = ob.contact {
            for p in pos {
                let d = ob.shape.surface(*p).map_or(f64::INFINITY, |s| s.distance);
                if d < tx {
                    ground += stiffness * (d.abs() + tx) * tx;
                }
            }
        }
    }
    for (overlap, [a, b]) in colliding_pairs_within(model, pos, 2.0 * tx) {
        let k = model
            .collision_between(&model.masses[a], &model.masses[b])
            .stiffness;
        ground += k * (overlap.max(0.0) + 2.0 * tx) * 2.0 * tx;
    }
    [kin, grav, elastic, ground]
}

/// Every pair of masses that may collide (radii, groups and masks, spring neighbours, bodies
/// without self-collision, both fixed: the rules of `hooke::Collision`) closer than the sum of
/// their radii plus `band` (m), as (overlap `r_a + r_b - d` (m, negative when apart), [a, b]).
/// Brute force, O(n^2): the test scenes are small.
pub fn colliding_pairs_within(model: &Model, pos: &[DVec3], band: f64) -> Vec<(f64, [usize; 2])> {
    let ms = &model.masses;
    let members: Vec<usize> = (0..ms.len())
        .filter(|&i| ms[i].collision_radius > 0.0)
        .collect();
    if members.is_empty() {
        return Vec::new();
    }
    let mut body = vec![usize::MAX; ms.len()];
    for (b, range) in model.bodies.iter().enumerate() {
        if !range.self_collision {
            body[range.masses.clone()].fill(b);
        }
    }
    let joined: std::collections::HashSet<(usize, usize)> = model
        .springs
        .iter()
        .map(|s| (s.a.min(s.b) as usize, s.a.max(s.b) as usize))
        .collect();
    let mut out = Vec::new();
    for (x, &a) in members.iter().enumerate() {
        for &b in &members[x + 1..] {
            let overlap = ms[a].collision_radius + ms[b].collision_radius - pos[a].distance(pos[b]);
            let excluded = (ms[a].fixed && ms[b].fixed)
                || !ms[a].collides_with(&ms[b])
                || (body[a] != usize::MAX && body[a] == body[b])
                || joined.contains(&(a, b));
            if overlap > -band && !excluded {
                out.push((overlap, [a, b]));
            }
        }
    }
    out
}

/// What a parity run observed, for printing.
#[derive(Debug, Default)]
pub struct Margins {
    /// Largest (observed error / tolerance) over the run, per quantity.
    pub position: f64,
    pub velocity: f64,
    pub energy: f64,
}

/// How a GPU World's state is perturbed each step, by its precision: the rounding unit, the
/// state shadow's model, the parameter shadow's model, and the velocity floor's quantum term.
struct Rounding {
    u: f64,
    state_shadow: Model,
    param_shadow: Model,
    dv_quantum: f64,
}

impl Rounding {
    fn of(model: &Model, gpu: &World) -> Self {
        match gpu.precision() {
            Precision::F32 => Self {
                u: U,
                state_shadow: state_rounded(model),
                param_shadow: params_rounded(model),
                dv_quantum: 0.0,
            },
            Precision::F64 => {
                let mut incidence = vec![0u32; model.masses.len()];
                for s in &model.springs {
                    incidence[s.a as usize] += 1;
                    incidence[s.b as usize] += 1;
                }
                let n_max = f64::from(incidence.iter().copied().max().unwrap_or(0));
                let m_min = model.masses.iter().map(|m| m.mass).fold(f64::MAX, f64::min);
                let dv_quantum = n_max * gpu.fixed_point().quantum * model.params.dt / m_min;
                let mut shadow = model.clone();
                for (i, m) in shadow.masses.iter_mut().enumerate() {
                    let sign = if i % 2 == 0 { 1.0 } else { -1.0 };
                    m.position += sign * U64 * m.position.abs();
                    m.velocity += sign * (U64 * m.velocity.abs() + DVec3::splat(dv_quantum));
                }
                Self {
                    u: U64,
                    state_shadow: shadow,
                    param_shadow: model.clone(),
                    dv_quantum,
                }
            }
        }
    }
}

/// Steps `model` on the CPU and on `gpu` for `steps` steps, comparing every `every` steps:
/// positions, velocities and every energy term, with tolerances derived as the module docs say.
/// Panics with the details of the first disagreement. Returns the margins used.
pub fn compare(name: &str, model: &Model, gpu: &mut World, steps: u64, every: u64) -> Margins {
    compare_with_edits(name, model, gpu, steps, every, |_, _| {})
}

/// A world an edit is applied to: the CPU reference (and its shadows) or the GPU World.
pub enum Target<'a> {
    /// A CPU world.
    Cpu(&'a mut CpuWorld),
    /// The GPU world.
    Gpu(&'a mut World),
}

/// As [`compare`], calling `edit(steps_done, world)` on every world (CPU, both shadows, GPU) at
/// each checkpoint before stepping on, so setters are compared too.
pub fn compare_with_edits(
    name: &str,
    model: &Model,
    gpu: &mut World,
    steps: u64,
    every: u64,
    edit: impl Fn(u64, Target<'_>),
) -> Margins {
    let rounding = Rounding::of(model, gpu);
    let u = rounding.u;
    let mut cpu = CpuWorld::new(model).unwrap();
    let mut state_shadow = CpuWorld::new(&rounding.state_shadow).unwrap();
    let mut param_shadow = CpuWorld::new(&rounding.param_shadow).unwrap();
    let dt = model.params.dt;
    let (mut d_state_x, mut d_state_v) = (0.0f64, 0.0f64);
    let (mut x_max, mut v_max, mut dv_max) = (0.0f64, 0.0f64, 0.0f64);
    let mut mech_tol_max = 0.0f64;
    let mut v_contact = 0.0f64;
    let mut tol_x_prev = 0.0f64;
    let mut margins = Margins::default();
    let mut done = 0;
    while done < steps {
        edit(done, Target::Cpu(&mut cpu));
        edit(done, Target::Cpu(&mut state_shadow));
        edit(done, Target::Cpu(&mut param_shadow));
        edit(done, Target::Gpu(gpu));
        let n = every.min(steps - done);
        cpu.step(n - 1).unwrap();
        let v_prev: Vec<DVec3> = cpu.velocity_slice().to_vec();
        cpu.step(1).unwrap();
        state_shadow.step(n).unwrap();
        param_shadow.step(n).unwrap();
        gpu.step(n)
            .unwrap_or_else(|e| panic!("{name}: GPU step failed: {e}"));
        done += n;
        let (cp, cv) = (cpu.position_slice(), cpu.velocity_slice());
        x_max = x_max.max(max_len(cp));
        v_max = v_max.max(max_len(cv));
        dv_max = dv_max.max(max_dist(cv, &v_prev));
        d_state_x = d_state_x.max(max_dist(state_shadow.position_slice(), cp));
        d_state_v = d_state_v.max(max_dist(state_shadow.velocity_slice(), cv));
        let steps_f = done as f64;
        let mut tol_x =
            max_dist(param_shadow.position_slice(), cp) + R * steps_f * d_state_x.max(u * x_max);
        let mut tol_v = max_dist(param_shadow.velocity_slice(), cv)
            + R * steps_f * d_state_v.max(u * (v_max + dv_max) + rounding.dv_quantum);
        let surfaces = restitution_surfaces(model);
        if !surfaces.is_empty() {
            let g = model.params.gravity.length();
            let band = tol_x.max(tol_x_prev);
            let mut kick = 0.0f64;
            for &(shape, restitution, mu) in &surfaces {
                for (p, v) in cp.iter().zip(cv) {
                    if distance(shape, *p) <= band + v.length() * dt {
                        v_contact = v_contact.max(v.length());
                    }
                }
                kick = kick.max((1.0 + restitution) * (1.0 + mu));
            }
            let j_v = kick * (v_contact + g * dt);
            tol_v += j_v;
            tol_x += j_v * dt;
        }
        tol_x_prev = tol_x;
        let gp = gpu.positions().unwrap();
        let gv = gpu.velocities().unwrap();
        let ex = max_dist(&gp, cp);
        let ev = max_dist(&gv, cv);
        margins.position = margins.position.max(ex / tol_x);
        margins.velocity = margins.velocity.max(ev / tol_v);
        assert!(
            ex <= tol_x,
            "{name}: positions differ by {ex:e} m > {tol_x:e} m after {done} steps"
        );
        assert!(
            ev <= tol_v,
            "{name}: velocities differ by {ev:e} m/s > {tol_v:e} m/s after {done} steps"
        );
        let tol_e = energy_tolerance_in(model, &cpu, tol_x, tol_v, u);
        let mech: f64 = tol_e.iter().sum();
        mech_tol_max = mech_tol_max.max(mech);
        let (ge, ce): (Energy, Energy) = (gpu.energy().unwrap(), cpu.energy().unwrap());
        let accum = |x: f64| mech_tol_max + steps_f * u * x.abs() + 1e-12;
        let pairs = [
            ("kinetic", ge.kinetic, ce.kinetic, tol_e[0]),
            ("gravity", ge.gravity, ce.gravity, tol_e[1]),
            ("elastic", ge.elastic, ce.elastic, tol_e[2]),
            ("ground", ge.ground, ce.ground, tol_e[3]),
            (
                "dissipated",
                ge.dissipated,
                ce.dissipated,
                accum(ce.dissipated),
            ),
            ("injected", ge.injected, ce.injected, accum(ce.injected)),
        ];
        for (term, g, c, tol) in pairs {
            let err = (g - c).abs();
            margins.energy = margins.energy.max(err / tol.max(1e-300));
            assert!(
                err <= tol,
                "{name}: {term} energy {g} J (GPU) vs {c} J (CPU) differs by {err:e} > {tol:e} J \
                 after {done} steps (dt = {dt})"
            );
        }
    }
    eprintln!(
        "{name}: {steps} steps, worst error/tolerance: positions {:.3}, velocities {:.3}, energy {:.3}",
        margins.position, margins.velocity, margins.energy
    );
    margins
}
