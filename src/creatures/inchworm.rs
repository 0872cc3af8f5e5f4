//! Facey's inchworm: a segmented body that stretches and contracts while its feet toggle
//! between high and low friction, so it crawls forward.

use std::f64::consts::PI;

use glam::{DMat3, DVec3};
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use super::creature::Creature;
use super::deformation::Deformation;
use crate::error::Result;
use crate::model::{Contact, Friction, FrictionOscillator, Mass, Params, Part};
use crate::validate::{at_least, buildable, fraction, non_negative, positive};

/// A crawling inchworm (Facey): a row of box segments that stretches and contracts along x,
/// with friction oscillators on its feet.
///
/// Geometry: `segments + 1` cross-sections at `x = j segment_length`, each four masses at
/// `y = +-width / 2` and `z = 0` (the feet) and `z = height` (the back). Every pair of masses
/// within a cross-section and between neighbouring cross-sections is joined by a damped Hooke
/// spring (a chain of 8-corner, 28-spring boxes, like Lipson's cube).
///
/// Muscles: every spring that joins two cross-sections is an actuator following one
/// [`Deformation`]: the body stretches along x by `stretch sin(omega t)` (relative), the
/// accordion of Facey. Friction: each foot has a [`FrictionOscillator`] of angular
/// frequency `omega`, whose coefficient is `friction_max` when `cos(omega t + p) > 0` and
/// `friction_min` otherwise. The rear feet (`x` behind the middle) have `p = 0`, so they grip
/// while the body stretches (`cos(omega t) > 0` is exactly when `sin(omega t)` grows) and the
/// front slides forward; the front feet have `p = pi` and grip while the body contracts, pulling
/// the rear forward. Feet of the middle cross-section (an even segment count) keep
/// `friction_min`, the coefficient of [`Params::friction`] here. Without slip each cycle would
/// move the worm forward by the full stroke of its body, `2 stretch segments segment_length`
/// (0.12 m with the defaults, 1.8 m in 10 s); the gripping feet slip a little and the sliding
/// ones drag, so it makes about 60 % of that.
///
/// Measured on the CPU reference with the defaults (0.4 m long): 1.09 m in 10 s.
/// `tests/integration/creatures.rs` asserts at least one body length (0.4 m) in 10 s and at most the
/// no-slip stroke distance, and that with `friction_max = friction_min` (no toggling) the worm
/// stays put.
///
/// # Examples
///
/// ```
/// use hooke::creatures::Inchworm;
///
/// let worm = Inchworm::default().build()?;
/// // 5 cross-sections of 4 masses, 0.1 m apart.
/// assert_eq!((worm.part.masses.len(), worm.length), (20, 0.4));
/// // At t = 0 the tail's feet grip (friction_max) and the head's slide (friction_min).
/// let tail_foot = worm.part.masses[0].friction_oscillator.unwrap();
/// let head_foot = worm.part.masses[16].friction_oscillator.unwrap();
/// assert_eq!((tail_foot.coefficient(0.0), head_foot.coefficient(0.0)), (1.0, 0.05));
/// // The middle cross-section's feet keep the ground's friction: 8 of the 10 feet toggle.
/// let toggling = worm.part.masses.iter().filter(|m| m.friction_oscillator.is_some());
/// assert_eq!(toggling.count(), 8);
/// # Ok::<(), hooke::Error>(())
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(default, deny_unknown_fields)]
pub struct Inchworm {
    /// Number of segments (default 4); at least 2.
    pub segments: u32,
    /// Segment length along x in m (default 0.1). Finite and > 0.
    pub segment_length: f64,
    /// Width along y in m (default 0.1). Finite and > 0.
    pub width: f64,
    /// Height in m (default 0.05). Finite and > 0.
    pub height: f64,
    /// Mass of every point in kg (default 0.05). Finite and > 0.
    pub mass: f64,
    /// Spring stiffness in N/m (default 5000). Finite and >= 0.
    pub stiffness: f64,
    /// Axial spring damping in N*s/m (default 1). Finite and >= 0.
    pub damping: f64,
    /// Relative amplitude of the body's stretch along x (default 0.15). Finite, in [0, 0.5).
    pub stretch: f64,
    /// Angular frequency of stretch and friction oscillators in rad/s (default 3 pi, 1.5 Hz).
    /// Finite and > 0.
    pub omega: f64,
    /// Friction coefficient of a foot in its gripping half cycle (default 1.0). Finite and >= 0.
    pub friction_max: f64,
    /// Friction coefficient of a foot in its sliding half cycle (default 0.05). Finite and >= 0.
    pub friction_min: f64,
    /// Ground contact (default penalty, k_c = 100 000 N/m, 20 N*s/m normal damping). Not in
    /// scene files: a scene's `params` apply.
    #[serde(skip)]
    pub contact: Contact,
    /// Time step in s (default 1e-4). Finite and > 0. Not in scene files.
    #[serde(skip)]
    pub dt: f64,
}

impl Default for Inchworm {
    fn default() -> Self {
        Self {
            segments: 4,
            segment_length: 0.1,
            width: 0.1,
            height: 0.05,
            mass: 0.05,
            stiffness: 5000.0,
            damping: 1.0,
            stretch: 0.15,
            omega: 3.0 * PI,
            friction_max: 1.0,
            friction_min: 0.05,
            contact: Contact::Penalty {
                stiffness: 100_000.0,
                damping: 20.0,
            },
            dt: 1e-4,
        }
    }
}

impl Inchworm {
    /// Builds the inchworm lying on the ground (`z = 0`), tail at `x = 0`, facing +x, with the
    /// parameters it was tuned for. Masses are numbered by cross-section, within one as
    /// `(y-, z=0), (y+, z=0), (y-, z=height), (y+, z=height)`.
    ///
    /// # Errors
    /// [`Error::InvalidParameter`](crate::Error::InvalidParameter) for fewer than 2 segments, a
    /// segment length, width, height, mass, omega or dt that is not finite and > 0, a negative or
    /// non-finite stiffness, damping or friction coefficient, `stretch` outside [0, 0.5); the
    /// errors of [`Params::validate`] for a bad contact.
    pub fn build(&self) -> Result<Creature> {
        at_least(
            "inchworm.segments",
            self.segments as usize,
            2,
            "must be at least 2",
        )?;
        let segments = f64::from(self.segments);
        buildable("inchworm.segments", segments, 64.0 * segments)?;
        for (name, value, expected) in [
            (
                "inchworm.segment_length",
                self.segment_length,
                "must be finite and > 0 (m)",
            ),
            ("inchworm.width", self.width, "must be finite and > 0 (m)"),
            ("inchworm.height", self.height, "must be finite and > 0 (m)"),
            ("inchworm.mass", self.mass, "must be finite and > 0 (kg)"),
            (
                "inchworm.omega",
                self.omega,
                "must be finite and > 0 (rad/s)",
            ),
        ] {
            positive(name, value, expected)?;
        }
        for (name, value, expected) in [
            (
                "inchworm.stiffness",
                self.stiffness,
                "must be finite and >= 0 (N/m)",
            ),
            (
                "inchworm.damping",
                self.damping,
                "must be finite and >= 0 (N*s/m)",
            ),
            (
                "inchworm.friction_max",
                self.friction_max,
                "must be finite and >= 0",
            ),
            (
                "inchworm.friction_min",
                self.friction_min,
                "must be finite and >= 0",
            ),
        ] {
            non_negative(name, value, expected)?;
        }
        fraction(
            "inchworm.stretch",
            self.stretch,
            0.5,
            "must lie in [0, 0.5)",
        )?;
        let params = Params {
            dt: self.dt,
            friction: Friction::coulomb(self.friction_min, self.friction_min),
            contact: self.contact,
            ..Params::default()
        };
        params.validate()?;

        let n = self.segments;
        let mut part = Part::new();
        let (hw, h) = (0.5 * self.width, self.height);
        for j in 0..=n {
            let x = f64::from(j) * self.segment_length;
            // Rear feet grip while stretching (phase 0), front feet while contracting (phase pi).
            let oscillator = match (2 * j).cmp(&n) {
                std::cmp::Ordering::Less => Some(0.0),
                std::cmp::Ordering::Greater => Some(PI),
                std::cmp::Ordering::Equal => None,
            }
            .map(|phase| FrictionOscillator {
                min: self.friction_min,
                max: self.friction_max,
                omega: self.omega,
                phase,
            });
            for (y, z) in [(-hw, 0.0), (hw, 0.0), (-hw, h), (hw, h)] {
                let mut m = Mass::new(self.mass, DVec3::new(x, y, z));
                if z == 0.0 {
                    m.friction_oscillator = oscillator;
                }
                part.add_mass(m);
            }
        }
        let (k, c) = (self.stiffness, self.damping);
        for j in 0..=n {
            let base = 4 * j;
            for a in 0..4 {
                for b in a + 1..4 {
                    part.connect(base + a, base + b, k, c);
                }
            }
            if j < n {
                for a in 0..4 {
                    for b in 0..4 {
                        part.connect(base + a, base + 4 + b, k, c);
                    }
                }
            }
        }
        let stretch = Deformation {
            sin_part: DMat3::from_diagonal(DVec3::new(self.stretch, 0.0, 0.0)),
            cos_part: DMat3::ZERO,
            omega: self.omega,
            phase: 0.0,
            duty: None,
        };
        let springs = 0..part.springs.len() as u32;
        stretch.actuate(&mut part, springs);
        Ok(Creature::new("inchworm", part, params))
    }
}

#[cfg(test)]
mod herd_tests {
    use super::Inchworm;

    #[test]
    fn five_hundred_inchworms_are_the_benchmark_herd() {
        let worm = Inchworm::default().build().unwrap();
        let model = worm.herd(500, 0.6).unwrap();
        let actuated: std::collections::BTreeSet<u32> =
            model.actuators.iter().map(|a| a.spring).collect();
        assert_eq!(model.masses.len(), 10_000);
        assert_eq!(model.springs.len(), 47_000);
        assert_eq!(actuated.len(), 32_000);
        assert_eq!(model.bodies.len(), 500);
        model.validate().unwrap();
        // Copies are translated, never overlapping: the second copy's first mass is one
        // spacing along x from the first's.
        let d = model.masses[20].position - model.masses[0].position;
        assert!((d.x - 0.6).abs() < 1e-12 && d.y.abs() < 1e-12);
    }

    #[test]
    fn empty_herd_is_an_error() {
        let worm = Inchworm::default().build().unwrap();
        assert!(worm.herd(0, 0.6).is_err());
        assert!(worm.herd(2, f64::NAN).is_err());
    }
}
