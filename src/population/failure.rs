//! [`RobotFailure`]: why one robot of a population stopped, told in the robot's own terms (its
//! own mass numbering, its own steps), so the report does not depend on the other robots.

use std::fmt;

use glam::DVec3;
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use crate::error::Error;
use crate::readable_time::readable_time;

/// What went wrong with a robot.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum FailureKind {
    /// A mass's position or velocity turned non-finite.
    NonFinite,
    /// A mass moved faster than any stable run of the robot can (its own blow-up bound, see
    /// [`Evaluation`](super::Evaluation)): `dt` too large for its springs.
    BlowUp,
    /// A spring force passed the GPU's fixed-point bound ([`Error::FixedPointOverflow`]).
    FixedPointOverflow,
    /// The fitness function returned a value that is not finite.
    Fitness,
}

/// Why one robot of a population was stopped. Its robot was frozen (every mass fixed) and the
/// evaluation rerun without it; the other robots' results are not affected.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct RobotFailure {
    /// What happened.
    pub kind: FailureKind,
    /// The step (counted from 1) after which it was seen.
    pub step: u64,
    /// Simulation time when it was seen, s: the end of that step (for a fixed-point overflow,
    /// whose step is not integrated, its start).
    pub time: f64,
    /// The mass, numbered within the robot's own part (`None` for [`FailureKind::Fitness`]).
    pub mass: Option<usize>,
    /// For a blow-up, the mass's speed and the robot's bound, m/s; otherwise `None`.
    pub speed: Option<[f64; 2]>,
}

impl fmt::Display for RobotFailure {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let at = format!("at step {} (t = {} s)", self.step, readable_time(self.time));
        let mass = self.mass.map_or(String::new(), |m| format!("mass {m} "));
        match self.kind {
            FailureKind::NonFinite => write!(f, "{mass}became non-finite {at}"),
            FailureKind::BlowUp => match self.speed {
                Some([v, limit]) => write!(
                    f,
                    "blew up {at}: {mass}moves at {v:.3e} m/s, above the {limit:.3e} m/s no \
                     stable run of this robot reaches (dt too large for its springs?)"
                ),
                None => write!(
                    f,
                    "blew up {at}: {mass}moved faster than any stable run reaches (dt too \
                     large for its springs?)"
                ),
            },
            FailureKind::FixedPointOverflow => write!(
                f,
                "a spring at {mass}passed the GPU's fixed-point force bound in step {} (which \
                 starts at t = {} s; raise the evaluation's fixed_point_force, \
                 `evaluation.fixed_point_force` in a population file, or the robot exploded)",
                self.step,
                readable_time(self.time)
            ),
            FailureKind::Fitness => write!(f, "its fitness is not finite"),
        }
    }
}

impl RobotFailure {
    /// The failure a world error reports, with the failing mass's model index, or `None` for an
    /// error that is not about one mass (device errors and the like).
    /// `time` is the world's time once stopped, s.
    pub(super) fn of_error(e: &Error, time: f64) -> Option<(usize, Self)> {
        let (mass, kind, step, speed) = match *e {
            Error::NonFinite { mass, step, .. } => (mass, FailureKind::NonFinite, step, None),
            // The world's own bound is pinned far above any robot's (see evaluate.rs): it only
            // catches runs that explode within one control period.
            Error::BlowUp {
                mass,
                step,
                speed,
                limit,
                ..
            } => (mass, FailureKind::BlowUp, step, Some([speed, limit])),
            Error::FixedPointOverflow { mass, step, .. } => {
                (mass, FailureKind::FixedPointOverflow, step, None)
            }
            _ => return None,
        };
        Some((
            mass,
            Self {
                kind,
                step,
                time,
                mass: Some(mass),
                speed,
            },
        ))
    }

    /// The failure of a robot whose mass `mass` (robot numbering) has position `x` and velocity
    /// `v` after step `step` ending at `time`, against the speed bound `limit` (m/s), if any.
    pub(super) fn of_state(
        mass: usize,
        x: DVec3,
        v: DVec3,
        limit: f64,
        step: u64,
        time: f64,
    ) -> Option<Self> {
        let failure = |kind, speed| Self {
            kind,
            step,
            time,
            mass: Some(mass),
            speed,
        };
        if !(x.is_finite() && v.is_finite()) {
            Some(failure(FailureKind::NonFinite, None))
        } else if v.length() > limit {
            Some(failure(FailureKind::BlowUp, Some([v.length(), limit])))
        } else {
            None
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_blow_up_the_world_reports_keeps_its_speed_in_the_message() {
        // Regression: the world's blow-up error became "moves at NaN m/s" in a robot's report.
        let e = Error::BlowUp {
            mass: 3,
            step: 7,
            time: 0.0006,
            speed: 120.0,
            limit: 80.0,
            dt: 1e-4,
            stable_dt: 5e-5,
            advice: String::new(),
        };
        let (mass, failure) = RobotFailure::of_error(&e, 0.0007).unwrap();
        assert_eq!((mass, failure.speed), (3, Some([120.0, 80.0])));
        let text = failure.to_string();
        assert!(
            text.contains("1.200e2 m/s") && !text.contains("NaN"),
            "{text}"
        );
        let unknown = RobotFailure {
            speed: None,
            ..failure
        };
        assert!(!unknown.to_string().contains("NaN"), "{unknown}");
    }
}
