//! Facey's whirligig (6 spokes) and pinwheel (10 spokes): spoked wheels whose spokes kick in
//! turn on active/rest duty cycles, so that the wheel rolls forward.

use std::f64::consts::PI;

use glam::DVec3;
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use super::creature::Creature;
use crate::error::Result;
use crate::model::{Actuator, Contact, DutyCycle, Friction, Mass, Params, Part, Spring};
use crate::validate::{buildable, fraction, non_negative, positive, require};

/// A spoked wheel that rolls forward (+x) by kicking its spokes in turn (Facey).
///
/// Geometry: two identical layers at `y = -width / 2` and `y = +width / 2`, each a hub mass and
/// `spokes` rim masses at distance `radius` from it in the x-z plane, spoke `i` pointing along
/// `(sin phi_i, 0, cos phi_i)` with `phi_i = (2 i + 1) pi / spokes` (angle from +z toward +x).
/// So the wheel stands on the flat rim segment between spokes `spokes / 2 - 1` and `spokes / 2`,
/// both of which reach the ground. Springs (all damped Hooke springs): in each layer the spokes
/// (hub to rim) and the rim (neighbouring rim masses), and between the layers the axle
/// (hub to hub), rungs (rim mass to its twin), crossed rim braces and crossed spokes (hub of one
/// layer to the rim masses of the other), so the wheel stands upright on its own.
///
/// Muscles: spoke `i`, its twin in the other layer and the two crossed spokes to its rim masses
/// are actuators with the active/rest duty cycle of Facey. The schedule assumes the wheel
/// rolls forward by one spoke every `step_time` seconds (cycle `spokes * step_time`). Each spoke
/// is active for `active_steps` steps centred on the moment it should point straight down, and
/// while active its rest length runs once through `L0 (1 - kick sin(omega tau))`,
/// `omega = 2 pi / (active_steps step_time)`: it shortens while it is in front of the lowest
/// point and lengthens once it is behind it; it rests at `L0` the rest of the cycle (Facey's
/// "rest periods": a spoke at the top never moves, which keeps the wheel from unbalancing
/// itself). A short spoke in front and a long one behind put the hub ahead of the contact, so
/// gravity tips the wheel forward. If the wheel runs ahead of the schedule the pattern shifts
/// behind the contact and brakes it; if it lags, the pattern pushes harder: the wheel locks onto
/// the schedule at `2 radius sin(pi / spokes) / step_time` m/s. Spokes whose window is open at
/// t = 0 start at their t = 0 rest length, so no muscle jumps at the first step.
///
/// Measured on the CPU reference with the defaults: the whirligig rolls 2.19 m in 10 s and the
/// pinwheel 1.52 m (locked speeds 0.222 m/s and 0.137 m/s after a start-up of about a second;
/// extended spokes make the effective rim a little longer). The lock is not unconditional: with
/// other step times and kicks a wheel can slip out of step for a few seconds before it locks
/// again. `tests/integration/creatures.rs` asserts at least half of the locked distance,
/// `5 s * 2 radius sin(pi / spokes) / step_time` (1.11 m and 0.69 m), and at most `1 + kick`
/// times the full locked distance; with `kick = 0` a wheel stays put.
///
/// # Examples
///
/// ```
/// use hooke::creatures::Wheel;
///
/// let whirligig = Wheel::whirligig().build()?;
/// // Two layers of a hub and 6 rim masses; each spoke, its twin and the two crossed spokes to
/// // their rim masses are muscles.
/// assert_eq!(whirligig.part.masses.len(), 2 * (1 + 6));
/// assert_eq!(whirligig.part.actuators.len(), 6 * 4);
/// assert!(whirligig.part.min_z().unwrap().abs() < 1e-12); // standing on its rim
///
/// let pinwheel = Wheel::pinwheel().build()?;
/// assert_eq!(pinwheel.part.actuators.len(), 10 * 4);
/// # Ok::<(), hooke::Error>(())
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(default, deny_unknown_fields)]
pub struct Wheel {
    /// Number of spokes per layer (6 for the whirligig, 10 for the pinwheel). Even and at least 4.
    pub spokes: u32,
    /// Resting spoke length in m (default 0.1). Finite and > 0.
    pub radius: f64,
    /// Distance between the two layers along y in m (default 0.1). Finite and > 0.
    pub width: f64,
    /// Mass of every rim mass in kg (default 0.05). Finite and > 0.
    pub mass: f64,
    /// Mass of each of the two hub masses in kg (default 0.05). Finite and > 0.
    pub hub_mass: f64,
    /// Stiffness of spokes, crossed spokes, axle and rungs in N/m (default 5000). Finite and >= 0.
    pub stiffness: f64,
    /// Stiffness of the rim springs and rim braces in N/m (default 1000; softer, so the spokes can
    /// push the rim out). Finite and >= 0.
    pub rim_stiffness: f64,
    /// Axial damping of every spring in N*s/m (default 1). Finite and >= 0.
    pub damping: f64,
    /// Relative amplitude of a spoke's contraction and extension (default 0.3: a 0.1 m spoke
    /// shrinks to 0.07 m and then reaches 0.13 m). Finite, in [0, 1).
    pub kick: f64,
    /// Time in s for the wheel to roll by one spoke (default 0.45): each spoke's active window is
    /// `active_steps` of every `spokes` steps. Finite and > 0.
    pub step_time: f64,
    /// Length of each spoke's active window in steps (default 3): the spoke contracts during the
    /// first half, while it is in front of the lowest point, and extends during the second half.
    /// Finite, > 0 and < `spokes`.
    pub active_steps: f64,
    /// Ground friction (default Coulomb, mu_s = 1.0, mu_k = 0.8). Not in scene files: a
    /// scene's `params` apply.
    #[serde(skip)]
    pub friction: Friction,
    /// Ground contact (default penalty, k_c = 100 000 N/m, 20 N*s/m normal damping). Not in
    /// scene files.
    #[serde(skip)]
    pub contact: Contact,
    /// Time step in s (default 1e-4). Finite and > 0. Not in scene files.
    #[serde(skip)]
    pub dt: f64,
}

impl Default for Wheel {
    fn default() -> Self {
        Self::whirligig()
    }
}

impl Wheel {
    /// Facey's whirligig: 6 spokes.
    #[must_use]
    pub fn whirligig() -> Self {
        Self {
            spokes: 6,
            radius: 0.1,
            width: 0.2,
            mass: 0.05,
            hub_mass: 0.05,
            stiffness: 5000.0,
            rim_stiffness: 1000.0,
            damping: 1.0,
            kick: 0.35,
            step_time: 0.45,
            active_steps: 3.0,
            friction: Friction::coulomb(1.0, 0.8),
            contact: Contact::Penalty {
                stiffness: 100_000.0,
                damping: 20.0,
            },
            dt: 1e-4,
        }
    }

    /// Facey's pinwheel: the whirligig with 10 spokes ("with minimal tweaks").
    #[must_use]
    pub fn pinwheel() -> Self {
        Self {
            spokes: 10,
            ..Self::whirligig()
        }
    }

    /// Builds the wheel standing on the ground (`z = 0`), hub above `x = 0`, with the parameters
    /// it was tuned for. Masses: hubs first (layer 0, layer 1), then rim masses, layer 0 spoke 0,
    /// layer 1 spoke 0, layer 0 spoke 1, ...
    ///
    /// # Errors
    /// [`Error::InvalidParameter`](crate::Error::InvalidParameter) for an odd `spokes` or fewer
    /// than 4, a radius, width, mass, step time or dt that is not finite and > 0, a negative or
    /// non-finite stiffness or damping, `kick` outside [0, 1); the errors of [`Params::validate`]
    /// for bad friction or contact.
    pub fn build(&self) -> Result<Creature> {
        let params = self.params()?;
        let part = self.part();
        let n = self.spokes;
        Ok(Creature::new(
            if n == 6 {
                "whirligig"
            } else if n == 10 {
                "pinwheel"
            } else {
                "wheel"
            },
            part,
            params,
        ))
    }

    /// Checks the parameters (see [`Wheel::build`]) and returns the simulation parameters.
    fn params(&self) -> Result<Params> {
        let n = self.spokes;
        require(
            n >= 4 && n.is_multiple_of(2),
            "wheel.spokes",
            f64::from(n),
            "must be even and at least 4",
        )?;
        buildable("wheel.spokes", f64::from(n), 16.0 * f64::from(n))?;
        positive("wheel.radius", self.radius, "must be finite and > 0 (m)")?;
        positive("wheel.width", self.width, "must be finite and > 0 (m)")?;
        positive("wheel.mass", self.mass, "must be finite and > 0 (kg)")?;
        positive(
            "wheel.hub_mass",
            self.hub_mass,
            "must be finite and > 0 (kg)",
        )?;
        positive(
            "wheel.step_time",
            self.step_time,
            "must be finite and > 0 (s)",
        )?;
        non_negative(
            "wheel.stiffness",
            self.stiffness,
            "must be finite and >= 0 (N/m)",
        )?;
        non_negative(
            "wheel.rim_stiffness",
            self.rim_stiffness,
            "must be finite and >= 0 (N/m)",
        )?;
        non_negative(
            "wheel.damping",
            self.damping,
            "must be finite and >= 0 (N*s/m)",
        )?;
        require(
            self.active_steps > 0.0 && self.active_steps < f64::from(n),
            "wheel.active_steps",
            self.active_steps,
            "must be finite, > 0 and < spokes",
        )?;
        fraction("wheel.kick", self.kick, 1.0, "must lie in [0, 1)")?;
        let params = Params {
            dt: self.dt,
            friction: self.friction,
            contact: self.contact,
            ..Params::default()
        };
        params.validate()?;
        Ok(params)
    }

    /// The wheel's masses, springs and kicking spokes (parameters already checked), its lowest
    /// rim masses on the ground.
    fn part(&self) -> Part {
        let n = self.spokes;
        let r = self.radius;
        // Lowest rim masses (spokes n/2 - 1 and n/2) on the ground.
        let hub_z = r * (PI / f64::from(n)).cos();
        let ys = [-0.5 * self.width, 0.5 * self.width];
        let mut part = Part::new();
        let hub = ys.map(|y| part.add_mass(Mass::new(self.hub_mass, DVec3::new(0.0, y, hub_z))));
        let mut rim = vec![[0u32; 2]; n as usize];
        for (i, pair) in rim.iter_mut().enumerate() {
            let phi = (2 * i + 1) as f64 * PI / f64::from(n);
            for (l, &y) in ys.iter().enumerate() {
                let p = DVec3::new(r * phi.sin(), y, hub_z + r * phi.cos());
                pair[l] = part.add_mass(Mass::new(self.mass, p));
            }
        }
        let (k, kr, c) = (self.stiffness, self.rim_stiffness, self.damping);
        part.connect(hub[0], hub[1], k, c);
        let cycle = f64::from(n) * self.step_time;
        let active = self.active_steps * self.step_time;
        let omega = 2.0 * PI / active;
        let mut duties = Vec::with_capacity(n as usize);
        for i in 0..n as usize {
            let next = (i + 1) % n as usize;
            let ([a0, a1], [b0, b1]) = (rim[i], rim[next]);
            part.connect(a0, b0, kr, c);
            part.connect(a1, b1, kr, c);
            part.connect(a0, a1, k, c);
            part.connect(a0, b1, kr, c);
            part.connect(a1, b0, kr, c);
            // Spoke i points straight down (phi = pi) after rolling n/2 - 1/2 - i steps; its
            // active window is centred on that time.
            let down = ((n / 2) as f64 - 0.5 - i as f64).rem_euclid(f64::from(n)) * self.step_time;
            let start = (down - 0.5 * active).rem_euclid(cycle);
            let duty = DutyCycle {
                active,
                rest: cycle - active,
                // Active while (t + offset) mod cycle < active, i.e. from t = start on.
                offset: cycle - start,
            };
            for l in 0..2 {
                for h in [hub[l], hub[1 - l]] {
                    let s = part.connect(h, rim[i][l], k, c);
                    kick_actuator(&mut part, s, self.kick, omega, duty);
                }
            }
            duties.push(duty);
        }
        // Spokes whose window is open at t = 0 start at their t = 0 rest length (so no muscle
        // jumps at the first step); rim springs keep the round wheel's rest lengths.
        for (i, duty) in duties.iter().enumerate() {
            let factor = Actuator {
                spring: 0,
                amplitude: self.kick,
                omega,
                phase: 0.5,
                duty: Some(*duty),
                commanded: false,
            }
            .rest_length(1.0, 0.0);
            for l in 0..2 {
                let hub_p = part.masses[hub[l] as usize].position;
                let m = &mut part.masses[rim[i][l] as usize];
                m.position = hub_p + (m.position - hub_p) * factor;
            }
        }
        let lowest = part.min_z().unwrap_or(0.0);
        part.translate(DVec3::new(0.0, 0.0, -lowest));
        part
    }
}

/// Makes spring `s` (a spoke or a crossed spoke) a kicking muscle: while active its rest length
/// runs through `L0 (1 - a sin(omega tau))`, shorter for the first half of the window and longer
/// for the second. For the spoke proper `a = kick`; a crossed spoke of length `L' = sqrt(r^2 +
/// w^2)` (in-plane part `r`) gets `a = kick r^2 / L'^2`, the change of its length when the spoke
/// proper changes by `kick r`, to first order.
fn kick_actuator(part: &mut Part, s: u32, kick: f64, omega: f64, duty: DutyCycle) {
    let sp: Spring = part.springs[s as usize];
    let d = part.masses[sp.b as usize].position - part.masses[sp.a as usize].position;
    let inplane2 = d.x * d.x + d.z * d.z;
    part.actuators.push(Actuator {
        spring: s,
        amplitude: kick * inplane2 / d.length_squared(),
        omega,
        // sin(omega tau + pi) = -sin(omega tau): contract first, then extend.
        phase: 0.5,
        duty: Some(duty),
        commanded: false,
    });
}
