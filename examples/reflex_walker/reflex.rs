//! The controllers of `reflex_walker`: the open-loop trot replayed as commands, and the same
//! trot with a touch reflex and steering. Also used by `tests/integration/control.rs`.

use std::f64::consts::PI;

use hooke::creatures::{CommandedWalker, WalkingRobot};
use hooke::population::RobotController;
use hooke::{Readings, SensorSpec};

/// Time constant of the closed loop's shear lag, s.
pub(crate) const LAG: f64 = 0.02;
/// Ground reaction (N) above which a foot counts as loaded (the robot weighs 55 N: about 14 N
/// per leg when all four stand, twice that in the trot's stance).
pub(crate) const LOAD: f64 = 5.0;
/// Steering gain: relative change of a side's push per rad of heading error.
pub(crate) const STEER: f64 = 1.0;
/// Steps per control period (1 ms at the robot's dt of 0.1 ms).
pub(crate) const PERIOD: u64 = 10;

/// One walker's controller.
///
/// - open loop (`closed == false`, the twin): the built-in trot replayed as commands: each leg
///   stretches with `lift sin(omega t + pi g)` and shears with `-stride cos(omega t + pi g)`,
///   whatever its foot feels.
/// - closed loop: the same stretch, but the shear follows the foot's touch sensor: while the
///   ground pushes on the foot with more than [`LOAD`] it shears the foot backward (`+stride`),
///   otherwise forward (`-stride`), through a first-order lag of [`LAG`]; and legs on the side
///   the body turned away from push harder (heading from the orientation sensor, gain
///   [`STEER`]), so it keeps walking along +x. No loaded foot ever drags forward, which is where
///   the open-loop gait loses ground.
#[derive(Clone, Debug)]
pub(crate) struct Reflex {
    /// The robot's gait parameters.
    pub(crate) robot: WalkingRobot,
    /// Its legs, muscles and feet.
    pub(crate) walker: CommandedWalker,
    /// Closed loop (reflex) or open loop (the twin).
    pub(crate) closed: bool,
    /// The closed loop's current shear per leg.
    shear: [f64; 4],
}

impl Reflex {
    /// A controller for `walker` (built from `robot`).
    pub(crate) fn new(robot: WalkingRobot, walker: CommandedWalker, closed: bool) -> Self {
        Self {
            robot,
            walker,
            closed,
            shear: [0.0; 4],
        }
    }
}

impl RobotController for Reflex {
    /// The robot's body (with orientation) and its feet, leg after leg.
    fn sensors(&self) -> SensorSpec {
        let contacts = self
            .walker
            .legs
            .iter()
            .flat_map(|leg| leg.feet.clone())
            .collect();
        SensorSpec {
            bodies: vec![0],
            orientation: true,
            contacts,
            ..SensorSpec::default()
        }
    }

    fn reset(&mut self) {
        self.shear = [0.0; 4];
    }

    fn control(&mut self, readings: &Readings, commands: &mut [f64]) {
        let (omega, lift, stride) = (self.robot.omega, self.robot.lift, self.robot.stride);
        let dt = PERIOD as f64 * self.robot.dt;
        // Heading: the body's x axis, turned about z by `yaw` rad.
        let heading = readings.bodies[0]
            .orientation
            .map_or(hooke::DVec3::X, |r| r.x_axis);
        let yaw = heading.y.atan2(heading.x);
        let mut first = 0;
        for (l, leg) in self.walker.legs.iter().enumerate() {
            let phase = omega * readings.time + PI * f64::from(leg.group);
            let feet = &readings.contacts[first..first + leg.feet.len()];
            first += leg.feet.len();
            if !self.closed {
                leg.command(lift * phase.sin(), -stride * phase.cos(), commands);
                continue;
            }
            let side = if leg.left { 1.0 } else { -1.0 };
            let push = stride * (1.0 + STEER * side * yaw).clamp(0.0, 2.0);
            let load: f64 = feet.iter().map(|c| c.normal_force.z).sum();
            let target = if load > LOAD { push } else { -push };
            self.shear[l] += (target - self.shear[l]) * (dt / LAG).min(1.0);
            leg.command(lift * phase.sin(), self.shear[l], commands);
        }
    }
}

/// The two-robot model of the example and the tests: the open-loop twin (body 0) and the
/// closed-loop robot (body 1) 1 m to its left, with their controllers.
pub(crate) fn pair() -> hooke::Result<(hooke::Model, [Reflex; 2])> {
    let robot = WalkingRobot::default();
    let walker = robot.commanded()?;
    let part = &walker.creature.part;
    let mut model = hooke::Model::new(walker.creature.params);
    model.add("open loop", part.clone());
    let mut twin = part.clone();
    twin.translate(hooke::DVec3::new(0.0, 1.0, 0.0));
    model.add("closed loop", twin);
    let controllers = [
        Reflex::new(robot, walker.clone(), false),
        Reflex::new(robot, walker, true),
    ];
    Ok((model, controllers))
}
