//! The physics model: masses, springs, actuators, ground contact and global parameters.
//!
//! A [`Model`] is a plain description. It is simulated by the double-precision CPU reference
//! ([`crate::CpuWorld`]) or by the GPU `World`; both run exactly the force laws written
//! here. Units are SI throughout (m, kg, s, N), z is up.

use std::ops::Range;

use glam::DVec3;
use serde::{Deserialize, Serialize};

use crate::error::{Error, Result};

/// Standard gravity along -z, in m/s^2.
pub const STANDARD_GRAVITY: DVec3 = DVec3::new(0.0, 0.0, -9.81);

/// A point mass.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct Mass {
    /// Mass in kg. Must be finite and > 0.
    pub mass: f64,
    /// Initial position in m.
    pub position: DVec3,
    /// Initial velocity in m/s. Ignored (treated as zero) for a fixed mass.
    pub velocity: DVec3,
    /// A fixed mass never moves: its position is never updated and its velocity is zero.
    pub fixed: bool,
    /// Constant external force on this mass, in N (seed 000 "nudging"; change it between steps
    /// with `set_external_force`).
    pub external_force: DVec3,
    /// Optional friction oscillator (seed 002 inchworm) that overrides the ground friction
    /// coefficients of this mass.
    pub friction_oscillator: Option<FrictionOscillator>,
}

impl Default for Mass {
    fn default() -> Self {
        Self {
            mass: 0.1,
            position: DVec3::ZERO,
            velocity: DVec3::ZERO,
            fixed: false,
            external_force: DVec3::ZERO,
            friction_oscillator: None,
        }
    }
}

impl Mass {
    /// A free mass of `mass` kg at rest at `position` (m).
    #[must_use]
    pub fn new(mass: f64, position: DVec3) -> Self {
        Self {
            mass,
            position,
            ..Self::default()
        }
    }

    /// The same mass, fixed in place.
    #[must_use]
    pub fn fixed(self) -> Self {
        Self {
            fixed: true,
            ..self
        }
    }

    /// The same mass with initial velocity `velocity` (m/s).
    #[must_use]
    pub fn with_velocity(self, velocity: DVec3) -> Self {
        Self { velocity, ..self }
    }
}

/// The force law of a spring. In every law the force on end `a` is `-f n`, with
/// `n = (p_a - p_b) / L` and `L = |p_a - p_b|`, and end `b` feels the opposite force.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum SpringLaw {
    /// Hooke's law, `f = k (L - L0)`, `k` in N/m (seeds 000, 002, 003, 004).
    /// Elastic energy `k (L - L0)^2 / 2`.
    #[default]
    Hooke,
    /// Material form, `f = k (L / L0 - 1)`, `k` in N (a stiffness per unit strain, seed 001), so
    /// that springs cut from one material behave the same at any length. Needs `L0 > 0`.
    /// Elastic energy `k (L - L0)^2 / (2 L0)`.
    Material,
    /// Zero rest length, force vector `-k (p_a - p_b)` on `a`, `k` in N/m (seed 001). The rest
    /// length is ignored. Elastic energy `k L^2 / 2`.
    ZeroLength,
}

/// A damped spring between masses `a` and `b`.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct Spring {
    /// Index of the first mass.
    pub a: u32,
    /// Index of the second mass; must differ from `a`.
    pub b: u32,
    /// The force law.
    #[serde(default)]
    pub law: SpringLaw,
    /// Stiffness: N/m for [`SpringLaw::Hooke`] and [`SpringLaw::ZeroLength`], N for
    /// [`SpringLaw::Material`]. Finite and >= 0.
    pub stiffness: f64,
    /// Axial damping coefficient `c` in N*s/m: the force on `a` is `-c ((v_a - v_b) . n) n`
    /// (seeds 001, 002, 004). Finite and >= 0.
    #[serde(default)]
    pub damping: f64,
    /// Rest length `L0` in m (the base length when an actuator drives the spring). Finite and >= 0;
    /// > 0 for the material law.
    pub rest_length: f64,
}

impl Spring {
    /// A Hooke spring of stiffness `k` (N/m) between `a` and `b`, rest length `rest_length` (m),
    /// undamped.
    #[must_use]
    pub fn hooke(a: u32, b: u32, k: f64, rest_length: f64) -> Self {
        Self {
            a,
            b,
            law: SpringLaw::Hooke,
            stiffness: k,
            damping: 0.0,
            rest_length,
        }
    }

    /// The same spring with axial damping `c` (N*s/m).
    #[must_use]
    pub fn with_damping(self, c: f64) -> Self {
        Self { damping: c, ..self }
    }

    /// The same spring with another law.
    #[must_use]
    pub fn with_law(self, law: SpringLaw) -> Self {
        Self { law, ..self }
    }

    /// Scalar tension `f` of this spring at length `length` (m) with rest length `rest` (m), in N,
    /// positive when stretched, for [`SpringLaw::Hooke`] and [`SpringLaw::Material`]. For
    /// [`SpringLaw::ZeroLength`] it is `k L`.
    #[must_use]
    pub fn tension(&self, length: f64, rest: f64) -> f64 {
        match self.law {
            SpringLaw::Hooke => self.stiffness * (length - rest),
            SpringLaw::Material => self.stiffness * (length / rest - 1.0),
            SpringLaw::ZeroLength => self.stiffness * length,
        }
    }

    /// Elastic energy stored at length `length` (m) with rest length `rest` (m), in J.
    #[must_use]
    pub fn elastic_energy(&self, length: f64, rest: f64) -> f64 {
        match self.law {
            SpringLaw::Hooke => 0.5 * self.stiffness * (length - rest) * (length - rest),
            SpringLaw::Material => 0.5 * self.stiffness * (length - rest) * (length - rest) / rest,
            SpringLaw::ZeroLength => 0.5 * self.stiffness * length * length,
        }
    }
}

/// Active/rest duty cycle of an actuator (seed 002): with cycle `c = active + rest` and
/// `u = t + offset`, the actuator is active while `u mod c < active`. Its oscillator clock only
/// runs while active, so the rest length holds its last value during the rest period and resumes
/// smoothly: the clock is `tau = floor(u / c) * active + min(u mod c, active)`.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct DutyCycle {
    /// Time spent active in each cycle, in s. Finite and > 0.
    pub active: f64,
    /// Time spent at rest in each cycle, in s. Finite and >= 0.
    pub rest: f64,
    /// Offset of this actuator in the cycle, in s (seed 002's phase `p`).
    #[serde(default)]
    pub offset: f64,
}

impl DutyCycle {
    /// The oscillator clock (s) at simulation time `t` (s).
    #[must_use]
    pub fn clock(&self, t: f64) -> f64 {
        let cycle = self.active + self.rest;
        let u = t + self.offset;
        let cycles = (u / cycle).floor();
        let within = u - cycles * cycle;
        cycles * self.active + within.min(self.active)
    }
}

/// A muscle: drives the rest length of one spring as
/// `L0(t) = L_base (1 + amplitude sin(omega tau + 2 pi phase))` (seeds 000, 002), where `L_base`
/// is the spring's `rest_length` and `tau` is `t`, or the duty-cycle clock when `duty` is set.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct Actuator {
    /// The spring it drives (index into the model's springs).
    pub spring: u32,
    /// Relative amplitude (0.1 = 10 % of the base length). Finite, and `|amplitude| < 1` so that
    /// the rest length stays positive.
    pub amplitude: f64,
    /// Angular frequency `omega` in rad/s. Finite.
    pub omega: f64,
    /// Phase in cycles (fractions of a full period), seed 002's `p`.
    #[serde(default)]
    pub phase: f64,
    /// Optional active/rest duty cycle.
    #[serde(default)]
    pub duty: Option<DutyCycle>,
}

impl Actuator {
    /// Rest length in m at time `t` (s) for base length `base` (m).
    #[must_use]
    pub fn rest_length(&self, base: f64, t: f64) -> f64 {
        let tau = match &self.duty {
            Some(d) => d.clock(t),
            None => t,
        };
        base * (1.0
            + self.amplitude * (self.omega * tau + std::f64::consts::TAU * self.phase).sin())
    }
}

/// Friction oscillator of one mass (seed 002 inchworm): its ground friction coefficient is
/// `max` when `cos(omega t + phase) > 0` and `min` otherwise. It replaces both the static and the
/// kinetic coefficient of [`Friction`] for that mass.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct FrictionOscillator {
    /// Coefficient during the low half of the cycle. Finite and >= 0.
    pub min: f64,
    /// Coefficient during the high half. Finite and >= 0.
    pub max: f64,
    /// Angular frequency in rad/s.
    pub omega: f64,
    /// Phase in rad.
    #[serde(default)]
    pub phase: f64,
}

impl FrictionOscillator {
    /// The friction coefficient at time `t` (s).
    #[must_use]
    pub fn coefficient(&self, t: f64) -> f64 {
        if (self.omega * t + self.phase).cos() > 0.0 {
            self.max
        } else {
            self.min
        }
    }
}

/// How the ground plane `z = 0` pushes back on a mass below it.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub enum Contact {
    /// No ground: masses fall forever.
    None,
    /// Penalty spring (seed 000): normal force `N = max(0, -k z - c v_z)` while `z < 0`.
    Penalty {
        /// `k_c` in N/m (seed 000 uses 100 000).
        stiffness: f64,
        /// Normal damping `c` in N*s/m (0 for seed 000).
        damping: f64,
    },
    /// Impulsive contact (seed 004): while `z <= 0` the ground cancels the part of the net force
    /// that pushes into it, and a mass moving into the ground leaves the step with normal velocity
    /// `-restitution v_z`.
    Restitution {
        /// Coefficient of restitution epsilon in [0, 1].
        restitution: f64,
    },
}

impl Default for Contact {
    fn default() -> Self {
        Self::Penalty {
            stiffness: 100_000.0,
            damping: 0.0,
        }
    }
}

/// Coulomb friction with the ground (seed 000 advanced feature 2, seed 002, seed 004).
///
/// With `N` the ground's normal force on the mass, `F_t` the tangential part of every other force
/// on it and `v_t` its tangential velocity, the friction force `f` is chosen as follows. Let
/// `f_stop = -(m v_t / dt + F_t)` be the force that leaves the mass at rest tangentially after
/// this step.
/// - Sliding (`|v_t| > rest_speed`): kinetic friction `-mu_k N v_t / |v_t|`, unless
///   `|f_stop| <= mu_k N`, in which case `f = f_stop`: friction stops the mass within the step
///   but never reverses it (seed 002).
/// - At rest: `f = f_stop` while `|f_stop| <= mu_s N` (static friction holds); otherwise the
///   mass breaks free and feels `mu_k N` along `f_stop`.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct Friction {
    /// Static coefficient `mu_s`, finite and >= 0.
    pub static_coefficient: f64,
    /// Kinetic coefficient `mu_k`, finite and >= 0.
    pub kinetic_coefficient: f64,
    /// Tangential speed in m/s below which a mass counts as at rest. Finite and >= 0.
    #[serde(default = "default_rest_speed")]
    pub rest_speed: f64,
}

fn default_rest_speed() -> f64 {
    1e-6
}

impl Friction {
    /// No friction.
    pub const NONE: Self = Self {
        static_coefficient: 0.0,
        kinetic_coefficient: 0.0,
        rest_speed: 1e-6,
    };

    /// Coulomb friction with static coefficient `mu_s` and kinetic coefficient `mu_k`.
    #[must_use]
    pub fn coulomb(mu_s: f64, mu_k: f64) -> Self {
        Self {
            static_coefficient: mu_s,
            kinetic_coefficient: mu_k,
            rest_speed: default_rest_speed(),
        }
    }
}

impl Default for Friction {
    fn default() -> Self {
        Self::NONE
    }
}

/// The time integrator.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Integrator {
    /// Semi-implicit (symplectic) Euler: `v += a dt`, then `p += v dt` with the new `v`.
    #[default]
    SemiImplicitEuler,
    /// Explicit (forward) Euler as seed 001 teaches it: `p += v dt` with the old `v`, then
    /// `v += a dt`. Gains energy on undamped oscillators; provided for teaching and comparison.
    ExplicitEuler,
}

/// Global parameters of a simulation.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct Params {
    /// Gravitational acceleration in m/s^2 (default `(0, 0, -9.81)`).
    pub gravity: DVec3,
    /// Time step in s (default 1e-4). Finite and > 0.
    pub dt: f64,
    /// The integrator.
    pub integrator: Integrator,
    /// Global velocity damping rate `gamma` in 1/s: after each velocity update `v *= exp(-gamma dt)`,
    /// so the physics does not change with `dt`. Seed 000's "multiply v by 0.999 each step" at
    /// `dt = 1e-4` is `gamma = -ln(0.999) / 1e-4 = 10.005 1/s`; see
    /// [`Params::damping_rate_from_factor`]. Finite and >= 0.
    pub velocity_damping: f64,
    /// Viscous air drag coefficient `c_air` in N*s/m: every free mass feels `-c_air v` (seed 004,
    /// with the sign of its eq. 6 corrected). Finite and >= 0.
    pub air_drag: f64,
    /// Ground contact model.
    pub contact: Contact,
    /// Ground friction.
    pub friction: Friction,
}

impl Default for Params {
    fn default() -> Self {
        Self {
            gravity: STANDARD_GRAVITY,
            dt: 1e-4,
            integrator: Integrator::SemiImplicitEuler,
            velocity_damping: 0.0,
            air_drag: 0.0,
            contact: Contact::default(),
            friction: Friction::NONE,
        }
    }
}

impl Params {
    /// The damping rate `gamma` (1/s) equivalent to multiplying every velocity by `factor` each step
    /// of length `dt` (s): `gamma = -ln(factor) / dt`. Seed 000's 0.999 at 1e-4 s gives 10.005 1/s.
    #[must_use]
    pub fn damping_rate_from_factor(factor: f64, dt: f64) -> f64 {
        -factor.ln() / dt
    }

    /// Checks every parameter.
    ///
    /// # Errors
    /// [`Error::InvalidParameter`] naming the first parameter out of range: `dt` not finite or
    /// not positive, non-finite gravity, negative or non-finite damping, drag, contact stiffness or damping,
    /// restitution outside [0, 1], negative or non-finite friction coefficients or rest speed.
    pub fn validate(&self) -> Result<()> {
        let check = |name: &'static str, value: f64, ok: bool, expected: &'static str| {
            if ok {
                Ok(())
            } else {
                Err(Error::InvalidParameter {
                    name,
                    value,
                    expected,
                })
            }
        };
        let non_neg = |v: f64| v.is_finite() && v >= 0.0;
        check(
            "dt",
            self.dt,
            self.dt.is_finite() && self.dt > 0.0,
            "must be finite and > 0 s",
        )?;
        for (name, v) in [
            ("gravity.x", self.gravity.x),
            ("gravity.y", self.gravity.y),
            ("gravity.z", self.gravity.z),
        ] {
            check(name, v, v.is_finite(), "must be finite (m/s^2)")?;
        }
        check(
            "velocity_damping",
            self.velocity_damping,
            non_neg(self.velocity_damping),
            "must be finite and >= 0 (1/s)",
        )?;
        check(
            "air_drag",
            self.air_drag,
            non_neg(self.air_drag),
            "must be finite and >= 0 (N*s/m)",
        )?;
        match self.contact {
            Contact::None => {}
            Contact::Penalty { stiffness, damping } => {
                check(
                    "contact.stiffness",
                    stiffness,
                    non_neg(stiffness),
                    "must be finite and >= 0 (N/m)",
                )?;
                check(
                    "contact.damping",
                    damping,
                    non_neg(damping),
                    "must be finite and >= 0 (N*s/m)",
                )?;
            }
            Contact::Restitution { restitution } => check(
                "restitution",
                restitution,
                (0.0..=1.0).contains(&restitution),
                "must lie in [0, 1]",
            )?,
        }
        let f = &self.friction;
        check(
            "friction.static_coefficient",
            f.static_coefficient,
            non_neg(f.static_coefficient),
            "must be finite and >= 0",
        )?;
        check(
            "friction.kinetic_coefficient",
            f.kinetic_coefficient,
            non_neg(f.kinetic_coefficient),
            "must be finite and >= 0",
        )?;
        check(
            "friction.rest_speed",
            f.rest_speed,
            non_neg(f.rest_speed),
            "must be finite and >= 0 (m/s)",
        )?;
        Ok(())
    }
}

/// A named group of masses and springs added by one builder call. Bodies let a World report
/// per-body centre of mass and mean velocity (many creatures in one World).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Body {
    /// Name given by the builder or the user.
    pub name: String,
    /// The body's masses (indices into the model's masses).
    pub masses: Range<usize>,
    /// The body's springs (indices into the model's springs).
    pub springs: Range<usize>,
}

/// Masses, springs and actuators with indices local to themselves, as a builder makes them, ready
/// to be added to a [`Model`] as one body with [`Model::add`].
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct Part {
    /// The masses.
    pub masses: Vec<Mass>,
    /// The springs; `a` and `b` index `masses`.
    pub springs: Vec<Spring>,
    /// Actuators; `spring` indexes `springs`.
    #[serde(default)]
    pub actuators: Vec<Actuator>,
}

impl Part {
    /// An empty part.
    #[must_use]
    pub fn new() -> Self {
        Self::default()
    }

    /// Adds a mass and returns its index in this part.
    pub fn add_mass(&mut self, mass: Mass) -> u32 {
        self.masses.push(mass);
        (self.masses.len() - 1) as u32
    }

    /// Adds a spring (indices local to this part) and returns its index in this part.
    pub fn add_spring(&mut self, spring: Spring) -> u32 {
        self.springs.push(spring);
        (self.springs.len() - 1) as u32
    }

    /// Adds a Hooke spring between masses `a` and `b` with stiffness `k` (N/m) and damping `c`
    /// (N*s/m), its rest length the current distance between them. Returns its index.
    ///
    /// # Panics
    /// If `a` or `b` is not a mass of this part.
    pub fn connect(&mut self, a: u32, b: u32, k: f64, c: f64) -> u32 {
        let rest = self.masses[a as usize]
            .position
            .distance(self.masses[b as usize].position);
        self.add_spring(Spring::hooke(a, b, k, rest).with_damping(c))
    }

    /// Moves every mass by `offset` (m).
    pub fn translate(&mut self, offset: DVec3) {
        for m in &mut self.masses {
            m.position += offset;
        }
    }

    /// Sets every mass's velocity to `velocity` (m/s).
    pub fn set_velocity(&mut self, velocity: DVec3) {
        for m in &mut self.masses {
            m.velocity = velocity;
        }
    }

    /// Lowest z over all masses (m), or `None` for an empty part.
    #[must_use]
    pub fn min_z(&self) -> Option<f64> {
        self.masses
            .iter()
            .map(|m| m.position.z)
            .min_by(|a, b| a.total_cmp(b))
    }

    /// Total mass in kg.
    #[must_use]
    pub fn total_mass(&self) -> f64 {
        self.masses.iter().map(|m| m.mass).sum()
    }
}

/// A complete mass-spring system: what both the CPU reference and the GPU World simulate.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct Model {
    /// Global parameters.
    pub params: Params,
    /// All masses.
    pub masses: Vec<Mass>,
    /// All springs; `a` and `b` index `masses`.
    pub springs: Vec<Spring>,
    /// Actuators; `spring` indexes `springs`.
    pub actuators: Vec<Actuator>,
    /// Bodies, in the order they were added.
    pub bodies: Vec<Body>,
}

impl Model {
    /// An empty model with parameters `params`.
    #[must_use]
    pub fn new(params: Params) -> Self {
        Self {
            params,
            ..Self::default()
        }
    }

    /// Adds `part` as a new body named `name` and returns the body's index. Spring and actuator
    /// indices of the part are offset to the model's numbering; nothing is validated until the
    /// model is simulated (or [`Model::validate`] is called).
    pub fn add(&mut self, name: impl Into<String>, part: Part) -> usize {
        let m0 = self.masses.len();
        let s0 = self.springs.len();
        self.masses.extend(part.masses);
        self.springs
            .extend(part.springs.into_iter().map(|s| Spring {
                a: s.a + m0 as u32,
                b: s.b + m0 as u32,
                ..s
            }));
        self.actuators
            .extend(part.actuators.into_iter().map(|a| Actuator {
                spring: a.spring + s0 as u32,
                ..a
            }));
        self.bodies.push(Body {
            name: name.into(),
            masses: m0..self.masses.len(),
            springs: s0..self.springs.len(),
        });
        self.bodies.len() - 1
    }

    /// Adds one mass outside any body and returns its index.
    pub fn add_mass(&mut self, mass: Mass) -> u32 {
        self.masses.push(mass);
        (self.masses.len() - 1) as u32
    }

    /// Adds one spring (model-wide mass indices) outside any body and returns its index.
    pub fn add_spring(&mut self, spring: Spring) -> u32 {
        self.springs.push(spring);
        (self.springs.len() - 1) as u32
    }

    /// Adds an actuator (model-wide spring index) and returns its index.
    pub fn add_actuator(&mut self, actuator: Actuator) -> u32 {
        self.actuators.push(actuator);
        (self.actuators.len() - 1) as u32
    }

    /// Total mass in kg.
    #[must_use]
    pub fn total_mass(&self) -> f64 {
        self.masses.iter().map(|m| m.mass).sum()
    }

    /// Checks the whole model.
    ///
    /// # Errors
    /// The first problem found, naming the element: [`Params::validate`]'s errors; a mass that is
    /// non-finite or <= 0 ([`Error::InvalidMass`]); a non-finite position, velocity or external
    /// force ([`Error::NonFiniteInitialState`]); a spring naming a missing mass
    /// ([`Error::SpringMassOutOfRange`]) or joining a mass to itself ([`Error::SelfSpring`]); a
    /// negative or non-finite stiffness, damping or rest length
    /// ([`Error::InvalidSpringParameter`]); a material-law spring with rest length 0
    /// ([`Error::ZeroRestLength`]); an actuator naming a missing spring or with non-finite values or
    /// `|amplitude| >= 1` ([`Error::InvalidActuator`]); a friction oscillator with negative or
    /// non-finite values ([`Error::InvalidFrictionOscillator`]); a body whose ranges pass the end.
    pub fn validate(&self) -> Result<()> {
        self.params.validate()?;
        for (i, m) in self.masses.iter().enumerate() {
            if !(m.mass.is_finite() && m.mass > 0.0) {
                return Err(Error::InvalidMass {
                    mass: i,
                    value: m.mass,
                });
            }
            for (quantity, v) in [
                ("position", m.position),
                ("velocity", m.velocity),
                ("external force", m.external_force),
            ] {
                if !v.is_finite() {
                    return Err(Error::NonFiniteInitialState {
                        mass: i,
                        quantity,
                        value: v.to_array(),
                    });
                }
            }
            if let Some(o) = &m.friction_oscillator {
                let bad = |reason: &str| Error::InvalidFrictionOscillator {
                    mass: i,
                    reason: reason.to_string(),
                };
                if !(o.min.is_finite() && o.min >= 0.0 && o.max.is_finite() && o.max >= 0.0) {
                    return Err(bad("min and max must be finite and >= 0"));
                }
                if !(o.omega.is_finite() && o.phase.is_finite()) {
                    return Err(bad("omega and phase must be finite"));
                }
            }
        }
        let n = self.masses.len();
        for (i, s) in self.springs.iter().enumerate() {
            for mass in [s.a, s.b] {
                if mass as usize >= n {
                    return Err(Error::SpringMassOutOfRange {
                        spring: i,
                        mass,
                        masses: n,
                    });
                }
            }
            if s.a == s.b {
                return Err(Error::SelfSpring {
                    spring: i,
                    mass: s.a,
                });
            }
            for (name, value) in [
                ("stiffness", s.stiffness),
                ("damping", s.damping),
                ("rest_length", s.rest_length),
            ] {
                if !(value.is_finite() && value >= 0.0) {
                    return Err(Error::InvalidSpringParameter {
                        spring: i,
                        name,
                        value,
                    });
                }
            }
            if s.law == SpringLaw::Material && s.rest_length == 0.0 {
                return Err(Error::ZeroRestLength { spring: i });
            }
        }
        for (i, a) in self.actuators.iter().enumerate() {
            let bad = |reason: String| Error::InvalidActuator {
                actuator: i,
                reason,
            };
            if a.spring as usize >= self.springs.len() {
                return Err(bad(format!(
                    "names spring {}, but the model has only {} springs",
                    a.spring,
                    self.springs.len()
                )));
            }
            if !(a.amplitude.is_finite() && a.amplitude.abs() < 1.0) {
                return Err(bad(format!(
                    "amplitude {} must be finite with |amplitude| < 1",
                    a.amplitude
                )));
            }
            if !(a.omega.is_finite() && a.phase.is_finite()) {
                return Err(bad("omega and phase must be finite".to_string()));
            }
            if let Some(d) = &a.duty {
                if !(d.active.is_finite() && d.active > 0.0) {
                    return Err(bad(format!(
                        "duty.active {} must be finite and > 0 s",
                        d.active
                    )));
                }
                if !(d.rest.is_finite() && d.rest >= 0.0 && d.offset.is_finite()) {
                    return Err(bad(format!(
                        "duty.rest {} must be finite and >= 0 s, offset finite",
                        d.rest
                    )));
                }
            }
        }
        for b in &self.bodies {
            if b.masses.end > n || b.springs.end > self.springs.len() {
                return Err(Error::InvalidParameter {
                    name: "body range",
                    value: b.masses.end as f64,
                    expected: "body ranges must lie within the model's masses and springs",
                });
            }
        }
        Ok(())
    }
}
