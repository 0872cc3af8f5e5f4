//! Host tables: the model turned into the device's records, once, when a World is built (and
//! the few records the setters rebuild: parameters, actuators, mass flags). The first stage of
//! the build (model -> tables -> plan -> buffers -> bindings -> pipelines): a function of the
//! model alone.

mod collisions;
pub(crate) mod f32_range;

use std::collections::HashMap;

use glam::DVec3;

pub(crate) use collisions::CollisionTables;
use f32_range::{fits_f32, fits_f32_vec, normal_f32};

use crate::error::Result;
use crate::gpu::layout::{
    self, GpuActuator, GpuBody, GpuMass, GpuMaterial, GpuOscillator, GpuParams, GpuSpring,
};
use crate::gpu::obstacles::{check_obstacles, ObstacleTable};
use crate::gpu::real::Precision;
use crate::model::spring_law::divides_by_rest;
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

/// The springs as the host keeps them: device records in model order, their laws and the
/// deduplicated materials, and which actuator drives which spring.
#[derive(Debug)]
pub(crate) struct SpringTable {
    pub(crate) springs: Vec<GpuSpring>,
    /// The law of each spring (its `GpuMaterial::law` is the law's tag).
    pub(crate) laws: Vec<SpringLaw>,
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
                let law = sp.law.tag();
                laws.push(sp.law);
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

/// The model as device records, built once from the model alone (no device, no option but the
/// precision of the heightfield samples): the first stage of building a World (see
/// `world/build.rs`). How the springs are laid out for the spring pass is the plan's
/// (`plan/springs.rs`).
#[derive(Debug)]
pub(crate) struct Tables {
    pub(crate) springs: SpringTable,
    /// Per-mass properties (external force and flags as the model gives them).
    pub(crate) masses: Vec<GpuMass>,
    pub(crate) oscillators: Vec<GpuOscillator>,
    /// The `bodies` kernel's table: each body in pieces (see [`body_pieces`]).
    pub(crate) bodies: Vec<GpuBody>,
    /// The obstacle table and the heightfields' samples.
    pub(crate) obstacles: ObstacleTable,
    /// The colliding masses, when a mass has a collision radius.
    pub(crate) collisions: Option<CollisionTables>,
    /// Entries of the actuator table (the model's actuators; `reset` writes them).
    pub(crate) actuators: usize,
    /// Commanded actuators: entries of the commands buffer.
    pub(crate) commands: usize,
}

impl Tables {
    /// The tables of `model` (already validated), heightfield samples in `precision`.
    pub(crate) fn new(model: &Model, precision: Precision) -> Self {
        let (masses, oscillators) = mass_table(&model.masses);
        Self {
            springs: SpringTable::new(model),
            masses,
            oscillators,
            bodies: body_pieces(&model.bodies),
            obstacles: ObstacleTable::new(&model.obstacles, precision),
            collisions: CollisionTables::new(model),
            actuators: model.actuators.len(),
            commands: model.actuators.iter().filter(|a| a.commanded).count(),
        }
    }

    /// The element counts the shaders bound their loops with.
    pub(crate) fn counts(&self) -> Counts {
        Counts {
            masses: self.masses.len() as u32,
            springs: self.springs.springs.len() as u32,
            // Pieces of bodies (see `body_pieces`): the `bodies` kernel's workgroups.
            bodies: self.bodies.len() as u32,
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
        if divides_by_rest(s.law) {
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
