//! Muscles: actuators that drive a spring's rest length, and their duty cycles.

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use super::spring_law::formed_rest;
use crate::error::{Error, Result};

/// Active/rest duty cycle of an actuator (Facey): with cycle `c = active + rest` and
/// `u = t + offset`, the actuator is active while `u mod c < active`. Its oscillator clock only
/// runs while active, so the rest length holds its last value during the rest period and resumes
/// smoothly: the clock is `tau = floor(u / c) * active + min(u mod c, active)`.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct DutyCycle {
    /// Time spent active in each cycle, in s. Finite and > 0.
    pub active: f64,
    /// Time spent at rest in each cycle, in s. Finite and >= 0.
    pub rest: f64,
    /// Offset of this actuator in the cycle, in s (Facey's phase `p`).
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
/// `L0(t) = L_base (1 + amplitude sin(omega tau + 2 pi phase))` (Lipson, Facey), where `L_base`
/// is the spring's `rest_length` and `tau` is `t`, or the duty-cycle clock when `duty` is set.
///
/// A *commanded* actuator (`commanded: true`, made by [`Actuator::commanded`]) is driven from
/// outside instead: `L0 = L_base (1 + clamp(c, -|amplitude|, |amplitude|))`, where `c` is its
/// command (a relative rest-length change, dimensionless), set for all commanded actuators at once
/// with [`Simulation::set_commands`](crate::Simulation::set_commands) (0 until set, and after a
/// reset). `omega`, `phase` and `duty` are then ignored (they must still be finite).
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Actuator {
    /// The spring it drives (index into the model's springs).
    pub spring: u32,
    /// Relative amplitude (0.1 = 10 % of the base length). Finite, and `|amplitude| < 1` so that
    /// the rest length stays positive.
    pub amplitude: f64,
    /// Angular frequency `omega` in rad/s. Finite.
    pub omega: f64,
    /// Phase in cycles (fractions of a full period), Facey's `p`.
    #[serde(default)]
    pub phase: f64,
    /// Optional active/rest duty cycle.
    #[serde(default)]
    pub duty: Option<DutyCycle>,
    /// Driven by a command from outside instead of the sine (see the type's docs). Defaults to
    /// `false` in scene files.
    #[serde(default)]
    pub commanded: bool,
}

impl Actuator {
    /// A commanded actuator on spring `spring` whose command is clamped to `[-|amplitude|,
    /// |amplitude|]` (relative rest-length change; `|amplitude| < 1`): rest length
    /// `L_base (1 + clamp(command, -|amplitude|, |amplitude|))`, m. `omega`, `phase` are 0 and
    /// `duty` is `None` (ignored).
    #[must_use]
    pub fn commanded(spring: u32, amplitude: f64) -> Self {
        Self {
            spring,
            amplitude,
            omega: 0.0,
            phase: 0.0,
            duty: None,
            commanded: true,
        }
    }

    /// Rest length in m at time `t` (s) for base length `base` (m), with command 0 for a
    /// commanded actuator (its rest length is then `base`); see [`Actuator::rest_length_with`].
    #[must_use]
    pub fn rest_length(&self, base: f64, t: f64) -> f64 {
        self.rest_length_with(base, t, 0.0)
    }

    /// Rest length in m for base length `base` (m): at time `t` (s) for a sine actuator, with
    /// command `command` (relative rest-length change, clamped to `[-|amplitude|, |amplitude|]`)
    /// for a commanded one. Each ignores the other argument.
    #[must_use]
    pub fn rest_length_with(&self, base: f64, t: f64, command: f64) -> f64 {
        if self.commanded {
            let a = self.amplitude.abs();
            return base * (1.0 + command.clamp(-a, a));
        }
        let tau = match &self.duty {
            Some(d) => d.clock(t),
            None => t,
        };
        let sin = (self.omega * tau + std::f64::consts::TAU * self.phase).sin();
        formed_rest(base, self.amplitude, sin)
    }
}

impl Actuator {
    /// Checks actuator `index` of a model with `springs` springs: its spring exists, its values
    /// are finite, `|amplitude| < 1`, and its duty cycle (if any) is valid (a commanded actuator
    /// ignores omega, phase and duty, but they must be valid all the same).
    pub(crate) fn check(&self, index: usize, springs: usize) -> Result<()> {
        let bad = |reason: String| Error::InvalidActuator {
            actuator: index,
            reason,
        };
        if self.spring as usize >= springs {
            return Err(bad(format!(
                "names spring {}, but the model has only {} springs",
                self.spring, springs
            )));
        }
        if !(self.amplitude.is_finite() && self.amplitude.abs() < 1.0) {
            return Err(bad(format!(
                "amplitude {} must be finite with |amplitude| < 1",
                self.amplitude
            )));
        }
        if !(self.omega.is_finite() && self.phase.is_finite()) {
            return Err(bad("omega and phase must be finite".to_string()));
        }
        if let Some(d) = &self.duty {
            if !(d.active.is_finite() && d.active > 0.0) {
                return Err(bad(format!(
                    "duty.active {} must be finite and > 0 s",
                    d.active
                )));
            }
            if !(d.rest.is_finite() && d.rest >= 0.0) {
                return Err(bad(format!(
                    "duty.rest {} must be finite and >= 0 s",
                    d.rest
                )));
            }
            if !d.offset.is_finite() {
                return Err(bad(format!("duty.offset {} must be finite (s)", d.offset)));
            }
        }
        Ok(())
    }
}

/// The command slot of each actuator of `actuators`: the number of commanded actuators before
/// it for a commanded one (commands are given in actuator order), `None` for a sine one.
pub(crate) fn command_slots(actuators: &[Actuator]) -> Vec<Option<usize>> {
    let mut next = 0;
    actuators
        .iter()
        .map(|a| {
            a.commanded.then(|| {
                next += 1;
                next - 1
            })
        })
        .collect()
}

/// Checks `commands` for `expected` commanded actuators: one finite value each.
///
/// # Errors
/// [`Error::LengthMismatch`] for a wrong length; [`Error::InvalidCommand`] naming the first
/// non-finite command.
pub(crate) fn check_commands(commands: &[f64], expected: usize) -> Result<()> {
    if commands.len() != expected {
        return Err(Error::LengthMismatch {
            what: "commands (one per commanded actuator)",
            expected,
            got: commands.len(),
        });
    }
    match commands.iter().position(|c| !c.is_finite()) {
        Some(command) => Err(Error::InvalidCommand {
            command,
            value: commands[command],
        }),
        None => Ok(()),
    }
}

/// Checks that `new`, replacing actuator `index` (`old`), keeps its kind: the command slots are
/// fixed when a world is built.
///
/// # Errors
/// [`Error::InvalidActuator`] when one is commanded and the other not.
pub(crate) fn check_same_kind(index: usize, old: &Actuator, new: &Actuator) -> Result<()> {
    if old.commanded == new.commanded {
        return Ok(());
    }
    Err(Error::InvalidActuator {
        actuator: index,
        reason: format!(
            "commanded = {}, but it was {}: a world cannot turn a sine actuator into a \
             commanded one or back (the commands are laid out when it is built); build a new world",
            new.commanded, old.commanded
        ),
    })
}
