//! Host tables: the model turned into the device's records, once, when a World is built (and
//! the few records the setters rebuild: parameters, actuators, mass flags).

use super::obstacles::{check_obstacles, ObstacleTable};
use std::collections::HashMap;

use glam::DVec3;

use super::layout::{
    self, array_bytes, GpuActuator, GpuBody, GpuLink, GpuLink64, GpuMass, GpuMaterial,
    GpuOscillator, GpuParams, GpuSpring, Run,
};
use super::real::Precision;
use super::orient;
use super::plan::Plan;
use super::stencil::{MuscleSlots, Stencil};
use crate::error::{Error, Result};
use crate::model::DragSpring;
use crate::model::{
    effective_stiffness, Actuator, Contact, FrictionRule, Integrator, Mass, Model, Params,
    SpringLaw,
};

/// An f64 vector as a record's triple.
pub(crate) fn v3(v: DVec3) -> [f64; 3] {
    v.to_array()
}

/// `GpuMass::flags` of a mass that is `fixed` or not.
pub(crate) fn mass_flags(fixed: bool) -> u32 {
    if fixed {
        layout::MASS_FIXED
    } else {
        0
    }
}

/// Bytes of one link of the device's link table in `precision`.
pub(crate) fn link_bytes(precision: Precision) -> u64 {
    match precision {
        Precision::F32 => array_bytes::<GpuLink>(1),
        Precision::F64 => array_bytes::<GpuLink64>(1),
    }
}

impl GpuSpring {
    /// The device's link record of this spring in `precision`: a [`GpuLink`] (the rest length
    /// rounded to f32, or the actuator index) or a [`GpuLink64`].
    pub(crate) fn link(&self, precision: Precision) -> Vec<u8> {
        let b = self.b
            | if self.actuated {
                layout::LINK_ACTUATED
            } else {
                0
            };
        match precision {
            Precision::F32 => {
                let rest = if self.actuated {
                    self.actuator
                } else {
                    (self.rest as f32).to_bits()
                };
                bytemuck::bytes_of(&GpuLink { b, rest }).to_vec()
            }
            Precision::F64 => {
                let bits = self.rest.to_bits();
                let link: GpuLink64 = [b, self.actuator, bits as u32, (bits >> 32) as u32];
                bytemuck::bytes_of(&link).to_vec()
            }
        }
    }
}

/// Where each spring sits in the device's link table, which groups the springs by their first
/// mass (stable: springs of one mass keep model order). Builders emit springs mass by mass, so the
/// order is usually the model's own and no permutation is stored.
#[derive(Debug)]
pub(crate) struct Links {
    /// The links of mass `m` are `offsets[m]..offsets[m + 1]` (masses + 1 entries).
    pub(crate) offsets: Vec<u32>,
    /// Model index of each link, when the order differs from the model's.
    model_of: Option<Vec<u32>>,
    /// Link index of each model spring, when the order differs from the model's.
    link_of: Option<Vec<u32>>,
    /// Whether each model spring is walked from its second mass `b` (its link then names `a`),
    /// when some are (see `orient.rs`).
    from_b: Option<Vec<bool>>,
}

impl Links {
    /// The table of `springs` over `masses` masses, each spring walked from its first mass `a`,
    /// or from `b` where `from_b` says so; with `held` (springs in the stencil), each mass's
    /// springs outside the stencil come first, so that they form a run of their own.
    pub(crate) fn new(
        springs: &[GpuSpring],
        masses: usize,
        held: Option<&[bool]>,
        from_b: Option<Vec<bool>>,
    ) -> Self {
        let walker = |i: usize| match &from_b {
            Some(f) if f[i] => springs[i].b,
            _ => springs[i].a,
        };
        let mut offsets = vec![0u32; masses + 1];
        for i in 0..springs.len() {
            offsets[walker(i) as usize + 1] += 1;
        }
        for m in 0..masses {
            offsets[m + 1] += offsets[m];
        }
        let key = |i: usize| (walker(i), held.is_some_and(|h| h[i]));
        if (1..springs.len()).all(|i| key(i - 1) <= key(i)) {
            return Self {
                offsets,
                model_of: None,
                link_of: None,
                from_b,
            };
        }
        let mut next = offsets.clone();
        let mut model_of = vec![0u32; springs.len()];
        let mut link_of = vec![0u32; springs.len()];
        for pass in [false, true] {
            for i in 0..springs.len() {
                if held.is_some_and(|h| h[i]) != pass {
                    continue;
                }
                let slot = &mut next[walker(i) as usize];
                model_of[*slot as usize] = i as u32;
                link_of[i] = *slot;
                *slot += 1;
            }
        }
        Self {
            offsets,
            model_of: Some(model_of),
            link_of: Some(link_of),
            from_b,
        }
    }

    /// The link record of model spring `s` (`sp`, as the device holds it) in `precision`: its
    /// other end than the mass that walks it, and its rest length or actuator.
    pub(crate) fn record(&self, s: usize, sp: &GpuSpring, precision: Precision) -> Vec<u8> {
        match &self.from_b {
            Some(f) if f[s] => GpuSpring { b: sp.a, ..*sp }.link(precision),
            _ => sp.link(precision),
        }
    }

    /// Model indices of the springs in link-table order.
    pub(crate) fn model_order(&self) -> impl Iterator<Item = u32> + '_ {
        let count = self.offsets.last().copied().unwrap_or(0);
        (0..count).map(|i| self.model_of.as_ref().map_or(i, |m| m[i as usize]))
    }

    /// Link index of model spring `s`.
    pub(crate) fn link(&self, s: usize) -> u64 {
        u64::from(self.link_of.as_ref().map_or(s as u32, |l| l[s]))
    }

    /// (first, end) link of every mass's springs.
    pub(crate) fn runs(&self) -> Vec<Run> {
        self.offsets.windows(2).map(|w| [w[0], w[1]]).collect()
    }

    /// (first, end) link of every mass's springs that are not `held` (they come first in each
    /// mass's run), and whether there are any.
    pub(crate) fn runs_outside(&self, held: &[bool]) -> (Vec<Run>, bool) {
        let mut any = false;
        let runs = self
            .offsets
            .windows(2)
            .map(|w| {
                let outside = (w[0]..w[1])
                    .take_while(|&i| !held[self.spring(i) as usize])
                    .count() as u32;
                any |= outside > 0;
                [w[0], w[0] + outside]
            })
            .collect();
        (runs, any)
    }

    /// Model index of link `i`.
    pub(crate) fn spring(&self, i: u32) -> u32 {
        self.model_of.as_ref().map_or(i, |m| m[i as usize])
    }
}

/// The springs as the host keeps them: device records in model order, their laws and the
/// deduplicated materials, and which actuator drives which spring.
#[derive(Debug)]
pub(crate) struct SpringTable {
    pub(crate) springs: Vec<GpuSpring>,
    /// `GpuMaterial::law` tag of each spring.
    pub(crate) laws: Vec<u32>,
    pub(crate) materials: Vec<GpuMaterial>,
    /// The actuator driving each actuated spring (the last one naming it, as on the CPU).
    pub(crate) spring_actuator: HashMap<u32, u32>,
    /// The model's rest length of every actuated spring, m.
    pub(crate) actuated_base: HashMap<u32, f64>,
}

impl SpringTable {
    /// The springs of `model`.
    pub(crate) fn new(model: &Model) -> Self {
        let mut materials: Vec<GpuMaterial> = Vec::new();
        let mut material_index: HashMap<(u32, u64, u64), u32> = HashMap::new();
        let mut spring_actuator: HashMap<u32, u32> = HashMap::new();
        for (i, a) in model.actuators.iter().enumerate() {
            spring_actuator.insert(a.spring, i as u32);
        }
        let mut laws = Vec::with_capacity(model.springs.len());
        let springs = model
            .springs
            .iter()
            .enumerate()
            .map(|(i, sp)| {
                let law = match sp.law {
                    SpringLaw::Hooke => layout::LAW_HOOKE,
                    SpringLaw::Material => layout::LAW_MATERIAL,
                    SpringLaw::ZeroLength => layout::LAW_ZERO_LENGTH,
                };
                laws.push(law);
                let key = (law, sp.stiffness.to_bits(), sp.damping.to_bits());
                let next = materials.len() as u32;
                let material = *material_index.entry(key).or_insert_with(|| {
                    materials.push(GpuMaterial {
                        stiffness: sp.stiffness,
                        damping: sp.damping,
                        law,
                        pad0: 0,
                    });
                    next
                });
                let actuator = spring_actuator.get(&(i as u32)).copied();
                GpuSpring {
                    a: sp.a,
                    b: sp.b,
                    rest: sp.rest_length,
                    actuator: actuator.unwrap_or(0),
                    material,
                    actuated: actuator.is_some(),
                }
            })
            .collect();
        let actuated_base = spring_actuator
            .keys()
            .map(|&s| (s, model.springs[s as usize].rest_length))
            .collect();
        Self {
            springs,
            laws,
            materials,
            spring_actuator,
            actuated_base,
        }
    }
}

/// Everything the device's tables are made of, built once from the model.
#[derive(Debug)]
pub(crate) struct Tables {
    pub(crate) springs: SpringTable,
    pub(crate) links: Links,
    /// The spring pass's stencil, when the World runs that variant.
    pub(crate) stencil: Option<Stencil>,
    /// With a stencil: (first, end) link of each mass's springs outside it, and whether there
    /// are any.
    pub(crate) outside: Option<(Vec<Run>, bool)>,
    /// With a stencil whose slots hold muscles and no energy booking: the muscles each
    /// spring-pass invocation sets before its walk (see `shaders/springs_stencil_muscles.wgsl`).
    /// With booking (or a list too large for one binding) the slots evaluate their actuators as
    /// they go, to book each one's work.
    pub(crate) muscles: Option<MuscleSlots>,
    /// The link table's bytes in the World's precision, in link order.
    pub(crate) link_records: Vec<u8>,
    /// The material index of each link, in link order (empty when there is one material).
    pub(crate) link_materials: Vec<u32>,
    /// Per-mass properties (external force and flags as the model gives them).
    pub(crate) masses: Vec<GpuMass>,
    pub(crate) oscillators: Vec<GpuOscillator>,
    pub(crate) bodies: Vec<GpuBody>,
    /// The obstacle table and the heightfields' samples.
    pub(crate) obstacles: ObstacleTable,
    /// Entries of the actuator table (the model's actuators; `reset` writes them).
    pub(crate) actuators: usize,
    /// Commanded actuators: entries of the commands buffer.
    pub(crate) commands: usize,
}

/// Logs which variant of the spring pass runs and why (`info`).
fn log_spring_pass(stencil: Option<&Stencil>, plan: &Plan, springs: usize) {
    match stencil {
        Some(st) => log::info!(
            "spring pass: stencil variant ({}), offsets {:?} hold {} of {springs} springs",
            plan.spring_pass_reason,
            st.offsets(),
            st.held()
        ),
        None if plan.want_stencil => log::info!(
            "spring pass: link variant (no stencil fits the model, {})",
            plan.spring_pass_reason
        ),
        None => log::info!("spring pass: link variant ({})", plan.spring_pass_reason),
    }
}

impl Tables {
    /// The tables of `model` (already validated) under `plan`.
    pub(crate) fn new(model: &Model, plan: &Plan) -> Self {
        let springs = SpringTable::new(model);
        let n = model.masses.len();
        let sp = &springs.springs;
        // The stencil variant of the spring pass (see `SpringPass`): a table that fits one
        // binding, and slot codes that fit the u32 overflow report.
        let stencil = if plan.want_stencil {
            Stencil::find(sp, n, &springs.materials)
                .filter(|st| plan.stencil_fits(st.words(), st.codes()))
        } else {
            None
        };
        log_spring_pass(stencil.as_ref(), plan, sp.len());
        let held = stencil.as_ref().map(|st| st.membership(sp.len()));
        // Each spring the link table walks is walked from the end that evens out the runs.
        let from_b = orient::balance(sp, n, held.as_deref());
        let links = Links::new(sp, n, held.as_deref(), from_b);
        let outside = held.as_ref().map(|h| links.runs_outside(h));
        let muscles = stencil
            .as_ref()
            .filter(|_| !plan.track_energy)
            .and_then(|st| st.muscles(sp))
            .filter(|m| plan.binding_fits(std::mem::size_of_val(m.slots.as_slice()) as u64));
        let link_records = links
            .model_order()
            .flat_map(|i| links.record(i as usize, &sp[i as usize], plan.precision))
            .collect();
        let link_materials = if springs.materials.len() > 1 {
            links
                .model_order()
                .map(|i| sp[i as usize].material)
                .collect()
        } else {
            Vec::new()
        };
        let (masses, oscillators) = mass_table(&model.masses);
        let bodies = body_pieces(&model.bodies);
        Self {
            springs,
            links,
            stencil,
            outside,
            muscles,
            link_records,
            link_materials,
            masses,
            oscillators,
            bodies,
            obstacles: ObstacleTable::new(&model.obstacles, plan.precision),
            actuators: model.actuators.len(),
            commands: model.actuators.iter().filter(|a| a.commanded).count(),
        }
    }
}

/// The per-mass records and the friction oscillators they index.
fn mass_table(masses: &[Mass]) -> (Vec<GpuMass>, Vec<GpuOscillator>) {
    let mut oscillators = Vec::new();
    let records = masses
        .iter()
        .map(|m| GpuMass {
            external_force: v3(m.external_force),
            mass: m.mass,
            flags: mass_flags(m.fixed),
            oscillator: match &m.friction_oscillator {
                Some(o) => {
                    oscillators.push(GpuOscillator {
                        min: o.min,
                        max: o.max,
                        omega: o.omega,
                        phase: o.phase,
                    });
                    oscillators.len() as u32 - 1
                }
                None => layout::NONE,
            },
            body: layout::NONE,
            pad0: 0,
            ..Default::default()
        })
        .collect();
    (records, oscillators)
}

/// The device-side actuator for `a` driving a spring of base length `base` (m), with its booked
/// rest length evaluated at time `time` (s); a commanded actuator reads command slot `slot`,
/// whose value is `command`.
pub(crate) fn gpu_actuator(
    a: &Actuator,
    base: f64,
    time: f64,
    slot: Option<usize>,
    command: f64,
) -> GpuActuator {
    let (active, rest, offset) = match &a.duty {
        Some(d) => (d.active, d.rest, d.offset),
        None => (0.0, 0.0, 0.0),
    };
    GpuActuator {
        base,
        amplitude: a.amplitude,
        omega: a.omega,
        phase: std::f64::consts::TAU * a.phase,
        duty_active: active,
        duty_rest: rest,
        duty_offset: offset,
        command: slot.map_or(layout::NONE, |c| c as u32),
        current: a.rest_length_with(base, time, command),
        ..Default::default()
    }
}

/// The model's element counts the shaders bound their loops with.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Counts {
    pub(crate) masses: u32,
    pub(crate) springs: u32,
    pub(crate) bodies: u32,
}

/// The global parameters uniform for `p` with drag spring `drag`.
pub(crate) fn gpu_params(p: &Params, drag: Option<DragSpring>, counts: Counts) -> GpuParams {
    let (contact, contact_stiffness, contact_damping, restitution) = match p.contact {
        Contact::None => (layout::CONTACT_NONE, 0.0, 0.0, 0.0),
        Contact::Penalty { stiffness, damping } => {
            (layout::CONTACT_PENALTY, stiffness, damping, 0.0)
        }
        Contact::Restitution { restitution } => {
            (layout::CONTACT_RESTITUTION, 0.0, 0.0, restitution)
        }
    };
    GpuParams {
        gravity: v3(p.gravity),
        dt: p.dt,
        drag_target: drag.map_or([0.0; 3], |d| v3(d.target)),
        drag_mass: drag.map_or(layout::NONE, |d| d.mass as u32),
        drag_stiffness: drag.map_or(0.0, |d| d.stiffness),
        drag_damping: drag.map_or(0.0, |d| d.damping),
        air_drag: p.air_drag,
        damping_factor: (-p.velocity_damping * p.dt).exp(),
        contact,
        contact_stiffness,
        contact_damping,
        restitution,
        static_friction: p.friction.static_coefficient,
        kinetic_friction: p.friction.kinetic_coefficient,
        rest_speed: p.friction.rest_speed,
        integrator: match p.integrator {
            Integrator::SemiImplicitEuler => layout::INTEGRATOR_SEMI_IMPLICIT,
            Integrator::ExplicitEuler => layout::INTEGRATOR_EXPLICIT,
        },
        masses: counts.masses,
        springs: counts.springs,
        bodies: counts.bodies,
        friction_rule: match p.friction.rule {
            FrictionRule::Coulomb => layout::FRICTION_COULOMB,
            FrictionRule::Naive => layout::FRICTION_NAIVE,
        },
        ..Default::default()
    }
}

/// [`Error::OutOfF32Range`] unless `value` is finite in f32 (at most `f32::MAX` in magnitude).
pub(crate) fn fits_f32(
    element: impl FnOnce() -> String,
    field: &'static str,
    value: f64,
) -> Result<()> {
    f32_where(f32::is_finite, element, field, value)
}

/// As [`fits_f32`], for a vector (m, m/s, N).
pub(crate) fn fits_f32_vec(
    element: impl Fn() -> String,
    field: &'static str,
    v: DVec3,
) -> Result<()> {
    for c in v.to_array() {
        fits_f32(&element, field, c)?;
    }
    Ok(())
}

/// [`Error::OutOfF32Range`] unless `value` is a normal f32 (a quantity the kernels divide by:
/// mass, dt, material rest length; 0 and subnormals would turn the division infinite).
fn normal_f32(element: impl FnOnce() -> String, field: &'static str, value: f64) -> Result<()> {
    f32_where(f32::is_normal, element, field, value)
}

/// [`Error::OutOfF32Range`] unless `value`, rounded to f32, passes `ok`.
fn f32_where(
    ok: fn(f32) -> bool,
    element: impl FnOnce() -> String,
    field: &'static str,
    value: f64,
) -> Result<()> {
    if ok(value as f32) {
        Ok(())
    } else {
        Err(Error::OutOfF32Range {
            element: element(),
            field,
            value,
        })
    }
}

/// Checks that every value of `model` (validated) that the device holds in f32 is representable
/// there, so that a model valid in f64 fails here, naming the element, and not with an opaque
/// pipeline error or a non-finite first step: magnitudes up to `f32::MAX` (3.4e38), and masses,
/// `dt` and material-law rest lengths (which the kernels divide by) at least `f32::MIN_POSITIVE`
/// (1.2e-38); a material spring's effective stiffness `k / L0` (at an actuator's shortest rest
/// length) must fit too.
///
/// # Errors
/// [`Error::OutOfF32Range`] naming the first element and field that does not fit.
pub(crate) fn check_f32(model: &Model) -> Result<()> {
    check_params(&model.params)?;
    check_obstacles(&model.obstacles, Precision::F32)?;
    for (i, m) in model.masses.iter().enumerate() {
        let element = || format!("mass {i}");
        normal_f32(element, "mass", m.mass)?;
        fits_f32_vec(element, "position", m.position)?;
        fits_f32_vec(element, "velocity", m.velocity)?;
        fits_f32_vec(element, "external_force", m.external_force)?;
        if let Some(o) = &m.friction_oscillator {
            let element = || format!("friction oscillator of mass {i}");
            for (field, v) in [
                ("min", o.min),
                ("max", o.max),
                ("omega", o.omega),
                ("phase", o.phase),
            ] {
                fits_f32(element, field, v)?;
            }
        }
    }
    let mut shrink = vec![1.0; model.springs.len()];
    for (i, a) in model.actuators.iter().enumerate() {
        let element = || format!("actuator {i}");
        let duty = a.duty.map_or([0.0; 3], |d| [d.active, d.rest, d.offset]);
        for (field, v) in [
            ("omega", a.omega),
            ("phase", std::f64::consts::TAU * a.phase),
            ("duty.active", duty[0]),
            ("duty.rest", duty[1]),
            ("duty.offset", duty[2]),
        ] {
            fits_f32(element, field, v)?;
        }
        shrink[a.spring as usize] = 1.0 - a.amplitude.abs();
    }
    for (i, s) in model.springs.iter().enumerate() {
        let element = || format!("spring {i}");
        fits_f32(element, "stiffness", s.stiffness)?;
        fits_f32(element, "damping", s.damping)?;
        fits_f32(element, "rest_length", s.rest_length * (2.0 - shrink[i]))?;
        if s.law == SpringLaw::Material {
            normal_f32(element, "rest_length", s.rest_length * shrink[i])?;
            fits_f32(
                element,
                "stiffness / rest_length",
                effective_stiffness(s, shrink[i]),
            )?;
        }
    }
    Ok(())
}

/// The parameters' part of [`check_f32`].
fn check_params(p: &Params) -> Result<()> {
    let element = || "params".to_string();
    normal_f32(element, "dt", p.dt)?;
    fits_f32_vec(element, "gravity", p.gravity)?;
    let (stiffness, damping) = match p.contact {
        Contact::Penalty { stiffness, damping } => (stiffness, damping),
        Contact::None | Contact::Restitution { .. } => (0.0, 0.0),
    };
    for (field, v) in [
        ("air_drag", p.air_drag),
        ("contact.stiffness", stiffness),
        ("contact.damping", damping),
        ("friction.static_coefficient", p.friction.static_coefficient),
        (
            "friction.kinetic_coefficient",
            p.friction.kinetic_coefficient,
        ),
        ("friction.rest_speed", p.friction.rest_speed),
    ] {
        fits_f32(element, field, v)?;
    }
    Ok(())
}

/// Most masses in one piece of a body in the `bodies` reduction (one workgroup of at least 64
/// invocations per piece): each invocation loops over at most 32 768 of them, half the 65 535
/// loop iterations lavapipe lets one invocation run (its loops end silently past that, so a
/// body of more than ~4.2 M masses in one workgroup was summed short).
pub(crate) const BODY_PIECE_MASSES: usize = 1 << 21;

/// Pieces of a body of `masses` masses in the `bodies` reduction (one for an empty body, so each
/// body has a sum).
pub(crate) fn body_piece_count(masses: usize) -> usize {
    masses.div_ceil(BODY_PIECE_MASSES).max(1)
}

/// The `bodies` kernel's table: each body cut into [`body_piece_count`] consecutive pieces of
/// at most [`BODY_PIECE_MASSES`] masses, bodies in order; `World::bodies` adds each body's
/// pieces' sums in order.
pub(crate) fn body_pieces(bodies: &[crate::model::Body]) -> Vec<GpuBody> {
    bodies
        .iter()
        .flat_map(|b| pieces_of(b.masses.clone()))
        .collect()
}

/// The pieces of the body of masses `masses`, in order (one, empty, for an empty body): what
/// the `bodies` kernel and the body sensor (`sense_bodies`) each give one workgroup.
pub(crate) fn pieces_of(masses: std::ops::Range<usize>) -> impl Iterator<Item = GpuBody> {
    let (start, end) = (masses.start, masses.end);
    (0..body_piece_count(masses.len())).map(move |k| {
        let first = (start + k * BODY_PIECE_MASSES).min(end);
        let last = (first + BODY_PIECE_MASSES).min(end);
        GpuBody {
            first: first as u32,
            count: (last - first) as u32,
        }
    })
}

#[cfg(test)]
mod tests {
    use super::{body_pieces, BODY_PIECE_MASSES};
    use crate::model::Body;

    fn body(masses: std::ops::Range<usize>) -> Body {
        Body {
            name: String::new(),
            masses,
            springs: 0..0,
            self_collision: true,
        }
    }

    /// A body of two and a bit pieces' masses is cut into consecutive pieces, an empty body is
    /// one empty piece, and a small one stays whole.
    #[test]
    fn bodies_are_cut_into_pieces_the_loop_limit_allows() {
        let p = BODY_PIECE_MASSES;
        let bodies = [body(3..3 + 2 * p + 5), body(7..7), body(10..20)];
        let pieces: Vec<(u32, u32)> = body_pieces(&bodies)
            .iter()
            .map(|g| (g.first, g.count))
            .collect();
        let (first, p32) = (3u32, p as u32);
        assert_eq!(
            pieces,
            [
                (first, p32),
                (first + p32, p32),
                (first + 2 * p32, 5),
                (7, 0),
                (10, 10)
            ]
        );
    }
}
