//! The blow-up bound both worlds check every mass against after every step: a speed that no
//! stable run of the model reaches.
//!
//! # The bound
//! A stable run cannot create energy: the model's mechanical energy (kinetic, elastic, ground
//! penalty and, with a ground, gravitational above it) only changes by what damping, friction
//! and contact take out, what external forces, muscles, the drag spring and the setters put in,
//! and the integrator's error, which stays small (relative `O(omega dt)`) below the stable time
//! step. So one mass of `m` kg cannot hold more kinetic energy than the model started with plus
//! what was put in. Mass `i` is over the limit after a step ending at time `t` when
//!
//! ```text
//! |v_i| > S (1 m/s + A t) + S sqrt(2 E / m_i)
//! ```
//!
//! with `S = 10` (a hundredfold margin on energy) and
//! - `E`, J: the initial mechanical energy (kinetic energy of the free masses, elastic energy at
//!   the initial rest lengths, ground and obstacle penalty energy, the penalty energy of masses
//!   that start inside one another (added by `CpuWorld::new`, which has the collision grid), and
//!   with a ground `m |g_z| z` of every mass above it), plus for every actuator the elastic energy of one full stroke,
//!   `k_eff (2 |a| L_base)^2 / 2`, plus what the setters inject (below);
//! - `A`, m/s^2, for the energy that driving forces add over time, which no initial budget holds:
//!   `|g|` (free fall without a ground, sliding under a tilted gravity), plus the largest
//!   `|F| / sqrt(m_i m_min)` over the external forces `F` on masses `m_i`, plus the same for the
//!   largest sum of actuator force amplitudes `k_eff |a| L_base` at one mass (a muscle driven at
//!   resonance grows its amplitude linearly in time). A force `F` alone accelerates its own mass
//!   by `F / m_i`; the `sqrt(m_i / m_min)` allows for springs handing its work on to the lightest
//!   mass `m_min` (a whip). This part is an estimate with the same margin, not a theorem;
//! - `S * 1 m/s` keeps rounding noise of a model at rest from counting.
//!
//! For a passive model (no external force, muscle or drag spring) the energy part holds for every
//! stable run; the margin covers the integrator's error. Setters raise the bound and never lower
//! it (until reset): a larger external force raises `A`; a drag spring adds `k d^2 / 2` to `E`
//! with `d` its current stretch; a new rest length adds the most the length change can inject,
//! `k d_L^2 / 2 + |d_L| sqrt(2 k E)`; a new actuator adds its stroke and force.
//!
//! An unstable run grows geometrically (by `|lambda| > 1` per step), so it passes the bound a few
//! steps after the state leaves the physical range, long before it turns non-finite. The check
//! costs one squared length and a compare per mass and step while speeds stay below
//! `S (1 m/s + A t)`.

use glam::DVec3;

use super::spring_law::{holds_rest_at_zero, stretch_energy};
use super::stable_dt::{effective_stiffness, shrink_factors};
use super::{Actuator, Contact, Model, Spring, StableDt};
use crate::error::Error;

/// The factor `S` on speeds (a hundredfold margin on energy).
pub(crate) const BLOW_UP_FACTOR: f64 = 10.0;

/// `S * 1 m/s`: the part of the limit that keeps rounding noise from counting, m/s.
pub(crate) const BLOW_UP_FLOOR_SPEED: f64 = BLOW_UP_FACTOR * 1.0;

/// The blow-up bound of one world, raised by its setters (see the module docs).
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) struct SpeedLimit {
    /// `E`, J.
    energy: f64,
    /// `|g|`, m/s^2.
    gravity: f64,
    /// Largest `|F| / sqrt(m_i m_min)` of the external forces, m/s^2.
    force: f64,
    /// Largest actuator force amplitude at one mass over `sqrt(m_i m_min)`, m/s^2.
    drive: f64,
    /// `m_min`, the lightest mass, kg.
    lightest: f64,
}

impl SpeedLimit {
    /// Its five numbers in a fixed order (energy, gravity, force, drive, lightest mass), for
    /// snapshots.
    pub(crate) fn to_array(self) -> [f64; 5] {
        [
            self.energy,
            self.gravity,
            self.force,
            self.drive,
            self.lightest,
        ]
    }

    /// The bound [`SpeedLimit::to_array`] gave.
    pub(crate) fn from_array(a: [f64; 5]) -> Self {
        Self {
            energy: a[0],
            gravity: a[1],
            force: a[2],
            drive: a[3],
            lightest: a[4],
        }
    }

    /// The bound of `model` (validated) at its initial state.
    pub(crate) fn of_model(model: &Model) -> Self {
        let lightest = model
            .masses
            .iter()
            .map(|m| m.mass)
            .fold(f64::INFINITY, f64::min);
        let lightest = if lightest.is_finite() { lightest } else { 1.0 };
        let mut limit = Self {
            energy: initial_energy(model),
            gravity: model.params.gravity.length(),
            force: 0.0,
            drive: 0.0,
            lightest,
        };
        for m in &model.masses {
            limit.external_force(m.mass, m.external_force);
        }
        let shrink = shrink_factors(model);
        let mut drive = vec![0.0; model.masses.len()];
        for a in &model.actuators {
            let s = a.spring as usize;
            let sp = &model.springs[s];
            let k = effective_stiffness(sp, shrink[s]);
            limit.energy += stroke_energy(k, a, sp.rest_length);
            for end in [sp.a, sp.b] {
                drive[end as usize] += k * a.amplitude.abs() * sp.rest_length;
            }
        }
        for (m, d) in model.masses.iter().zip(drive) {
            limit.drive = limit.drive.max(d / (m.mass * lightest).sqrt());
        }
        limit
    }

    /// A bound that does not depend on the model: `E = energy` J and `A = growth` m/s^2 for
    /// every mass, the lightest taken as 1 kg (populations pin it so that no robot's bound
    /// depends on the others').
    pub(crate) fn pinned(energy: f64, growth: f64) -> Self {
        Self {
            energy,
            gravity: growth,
            force: 0.0,
            drive: 0.0,
            lightest: 1.0,
        }
    }

    /// `S^2 E`, J: what the GPU's step uniform carries.
    pub(crate) fn scaled_energy(&self) -> f64 {
        BLOW_UP_FACTOR * BLOW_UP_FACTOR * self.energy
    }

    /// `S A`, m/s^2: what the GPU's step uniform carries.
    pub(crate) fn scaled_growth(&self) -> f64 {
        BLOW_UP_FACTOR * (self.gravity + self.force + self.drive)
    }

    /// The speed limit of a mass of `mass` kg after a step ending at time `t` (s), m/s.
    pub(crate) fn speed(&self, mass: f64, t: f64) -> f64 {
        // Evaluated as the WGSL does (integrate.wgsl), from the scaled values.
        let base = BLOW_UP_FLOOR_SPEED + self.scaled_growth() * t;
        base + (2.0 * self.scaled_energy() / mass).sqrt()
    }

    /// Whether a mass of `mass` kg moving at `v` (m/s) after a step ending at time `t` (s) is
    /// over the limit. The per-step part `S (1 m/s + A t)` is tried first without a square
    /// root or a division (typical speeds are far below it), as the WGSL does.
    pub(crate) fn over(&self, mass: f64, t: f64, v: DVec3) -> bool {
        let base = self.floor_speed(t);
        v.length_squared() > base * base && v.length() > self.speed(mass, t)
    }

    /// The per-step part of the limit after a step ending at time `t` (s), m/s: no mass is over
    /// the limit at or below this speed (the cheap test of [`SpeedLimit::over`]).
    pub(crate) fn floor_speed(&self, t: f64) -> f64 {
        BLOW_UP_FLOOR_SPEED + self.scaled_growth() * t
    }

    /// A mass of `mass` kg now feels the external force `force` (N).
    pub(crate) fn external_force(&mut self, mass: f64, force: DVec3) {
        self.force = self
            .force
            .max(force.length() / (mass * self.lightest).sqrt());
    }

    /// `energy` (J) was injected (negative values are ignored).
    pub(crate) fn inject(&mut self, energy: f64) {
        if energy > 0.0 {
            self.energy += energy;
        }
    }

    /// The base rest length of `spring` (whose `rest_length` is the old base) becomes `new` (m),
    /// with `actuator` driving it, between masses of `masses` kg. Adds the most the change can
    /// inject, `k d^2 / 2 + |d| sqrt(2 k E)` for a change `d` of the rest length in force (the
    /// spring's stretch is at most `sqrt(2 E / k)`), and for an actuated spring the stroke and
    /// force of its actuator at the new base.
    pub(crate) fn rest_length(
        &mut self,
        spring: &Spring,
        new: f64,
        actuator: Option<&Actuator>,
        masses: [f64; 2],
    ) {
        if holds_rest_at_zero(spring.law) {
            return;
        }
        let swing = 1.0 + actuator.map_or(0.0, |a| a.amplitude.abs());
        let shrink = 2.0 - swing;
        let shorter = Spring {
            rest_length: spring.rest_length.min(new),
            ..*spring
        };
        let k = effective_stiffness(&shorter, shrink);
        let d = (new - spring.rest_length).abs() * swing;
        self.inject(stretch_energy(k, d) + d * (2.0 * k * self.energy).sqrt());
        if let Some(a) = actuator {
            let at_new = Spring {
                rest_length: new,
                ..*spring
            };
            self.actuator(&at_new, a, masses);
        }
    }

    /// Actuator `a` now drives `spring` (base length `rest_length`) between masses of `masses`
    /// kg: adds its stroke energy and force.
    pub(crate) fn actuator(&mut self, spring: &Spring, a: &Actuator, masses: [f64; 2]) {
        let k = effective_stiffness(spring, 1.0 - a.amplitude.abs());
        let base = spring.rest_length;
        self.inject(stroke_energy(k, a, base));
        let lighter = masses[0].min(masses[1]);
        self.drive += k * a.amplitude.abs() * base / (lighter * self.lightest).sqrt();
    }
}

/// Elastic energy of one full stroke of actuator `a` on a spring of effective stiffness `k`
/// (N/m) and base length `base` (m), J.
fn stroke_energy(k: f64, a: &Actuator, base: f64) -> f64 {
    stretch_energy(k, 2.0 * a.amplitude.abs() * base)
}

/// The model's initial mechanical energy as the bound counts it, J.
fn initial_energy(model: &Model) -> f64 {
    let p = &model.params;
    let ground = !matches!(p.contact, Contact::None);
    let k_c = match p.contact {
        Contact::Penalty { stiffness, .. } => stiffness,
        _ => 0.0,
    };
    let mut energy = 0.0;
    for m in model.masses.iter().filter(|m| !m.fixed) {
        let z = m.position.z;
        energy += 0.5 * m.mass * m.velocity.length_squared();
        if ground && z > 0.0 {
            energy += m.mass * (-p.gravity.z).max(0.0) * z;
        }
        if z < 0.0 {
            energy += 0.5 * k_c * z * z;
        }
        for ob in &model.obstacles {
            if let Contact::Penalty { stiffness, .. } = ob.contact {
                if let Some(s) = ob.shape.surface(m.position).filter(|s| s.distance < 0.0) {
                    energy += 0.5 * stiffness * s.distance * s.distance;
                }
            }
        }
    }
    let mut rest: Vec<f64> = model.springs.iter().map(|s| s.rest_length).collect();
    for a in &model.actuators {
        let s = a.spring as usize;
        rest[s] = a.rest_length(model.springs[s].rest_length, 0.0);
    }
    for (sp, rest) in model.springs.iter().zip(rest) {
        let length = model.masses[sp.a as usize]
            .position
            .distance(model.masses[sp.b as usize].position);
        energy += sp.elastic_energy(length, rest);
    }
    energy + super::collision_pairs::initial_energy(model)
}

/// What [`Error::BlowUp`] reports, apart from the model's `dt` and stable-dt estimate.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) struct BlowUp {
    /// The first mass over the limit.
    pub(crate) mass: usize,
    /// The step that produced it (counted from 0 at the initial state).
    pub(crate) step: u64,
    /// Time at the start of that step, s.
    pub(crate) time: f64,
    /// Its speed, m/s.
    pub(crate) speed: f64,
    /// The limit, m/s.
    pub(crate) limit: f64,
}

impl BlowUp {
    /// The error for a world running at `dt` (s) whose model's estimate is `stable`.
    pub(crate) fn error(&self, dt: f64, stable: &StableDt) -> Error {
        let advice = if dt > stable.dt {
            format!(
                "dt is {:.3} times the estimate, {stable}. To fix it, {}.",
                dt / stable.dt,
                stable.advice()
            )
        } else {
            format!(
                "dt is below the estimate, {stable}, so something pumps energy in: check the \
                 external forces, drag spring and actuators near mass {}, or {}.",
                self.mass,
                stable.advice()
            )
        };
        Error::BlowUp {
            mass: self.mass,
            step: self.step,
            time: self.time,
            speed: self.speed,
            limit: self.limit,
            dt,
            stable_dt: stable.dt,
            advice,
        }
    }
}
