//! The walking robot with commanded leg muscles and touch sensors on its feet: the body for
//! closed-loop control (`examples/reflex_walker.rs`).

use glam::DVec3;

use super::creature::Creature;
use super::walker::WalkingRobot;
use crate::error::Result;
use crate::model::Actuator;

/// One leg of a [`CommandedWalker`]: its muscles and its feet.
#[derive(Clone, Debug, PartialEq)]
pub struct Leg {
    /// Trot group: 0 for back-right and front-left, 1 for back-left and front-right (facing +x,
    /// left is +y); the two groups swing half a period apart.
    pub group: u32,
    /// Whether the leg is on the robot's left (+y) side.
    pub left: bool,
    /// The leg's muscles: `(actuator, direction)`, the actuator index in the creature's part
    /// (also its command index: every actuator of the walker is commanded) and the unit vector
    /// along its spring at construction.
    pub muscles: Vec<(usize, DVec3)>,
    /// The masses at the bottom of the leg (its foot), indices into the creature's part.
    pub feet: Vec<usize>,
}

impl Leg {
    /// Writes into `commands` the strain of each of this leg's muscles for a leg deformation of
    /// vertical stretch `lift` and shear `shear` (dimensionless: a point at height `z` of the leg
    /// moves `shear z` along x, `shear > 0` pushes the foot backward), to first order:
    /// `lift n_z^2 + shear n_x n_z` for a muscle along `n`.
    pub fn command(&self, lift: f64, shear: f64, commands: &mut [f64]) {
        for &(actuator, n) in &self.muscles {
            commands[actuator] = lift * n.z * n.z + shear * n.x * n.z;
        }
    }
}

/// [`WalkingRobot`] with every leg muscle commanded from outside (instead of following its built-in
/// sine), and its legs and feet listed, for a controller that senses the feet's ground contact.
#[derive(Clone, Debug, PartialEq)]
pub struct CommandedWalker {
    /// The robot: every leg spring drives a commanded actuator of amplitude
    /// `lift + stride` (the largest strain the gait asks for), at its built length when the
    /// command is 0.
    pub creature: Creature,
    /// The four legs, in the order back-right, front-left (group 0), back-left, front-right
    /// (group 1), facing +x with +y on the left.
    pub legs: Vec<Leg>,
}

impl WalkingRobot {
    /// This robot with commanded leg muscles ([`CommandedWalker`]): the same masses and springs as
    /// [`WalkingRobot::build`], each leg spring's rest length `L (1 + command)` with `L` its built
    /// length, so that `Leg::command(lift sin(omega t + pi g), -stride cos(omega t + pi g))`
    /// reproduces the built-in trot.
    ///
    /// # Errors
    /// Those of [`WalkingRobot::build`].
    pub fn commanded(&self) -> Result<CommandedWalker> {
        let mut creature = self.build()?;
        let part = &mut creature.part;
        let (x_mid, y_mid) = part.masses.iter().fold((0.0f64, 0.0f64), |(x, y), m| {
            (x.max(m.position.x), y.max(m.position.y))
        });
        let (x_mid, y_mid) = (0.5 * x_mid, 0.5 * y_mid);
        let leg_of = |p: DVec3| match (p.x > x_mid, p.y > y_mid) {
            (false, false) => 0,
            (true, true) => 1,
            (false, true) => 2,
            (true, false) => 3,
        };
        let mut legs: Vec<Leg> = (0..4)
            .map(|l| Leg {
                group: l / 2,
                left: l == 1 || l == 2,
                muscles: Vec::new(),
                feet: Vec::new(),
            })
            .collect();
        let amplitude = self.lift + self.stride;
        for (index, actuator) in part.actuators.iter_mut().enumerate() {
            let spring = &mut part.springs[actuator.spring as usize];
            let (a, b) = (
                part.masses[spring.a as usize].position,
                part.masses[spring.b as usize].position,
            );
            spring.rest_length = (b - a).length();
            *actuator = Actuator::commanded(actuator.spring, amplitude);
            legs[leg_of(0.5 * (a + b))]
                .muscles
                .push((index, (b - a).normalize()));
        }
        for (i, m) in part.masses.iter().enumerate() {
            if m.position.z <= 0.0 {
                legs[leg_of(m.position)].feet.push(i);
            }
        }
        Ok(CommandedWalker { creature, legs })
    }
}
