//! What every generated case must satisfy: an error names the element that was broken, and a
//! step that returns `Ok` leaves every position and velocity finite (a blow-up is reported as
//! the library reports blow-ups, naming the mass).

use hooke::{Error, Simulation};

use super::mutate::Step;

/// Whether `message` names the element at `path`: one of the path's field names, or the index
/// of an element on it (as `[i]` or as a word), or, for a document that is not JSON at all (an
/// empty path: cut short, or a token JSON does not allow), the line and column, or for a document
/// replaced whole, its missing `"version"`.
pub(super) fn names_element(message: &str, path: &[Step]) -> bool {
    let located = message.contains("line ") && message.contains("column ");
    // The whole document replaced (by `{}`, say): the first thing missing is its version.
    let whole = path.is_empty() && message.contains("\"version\"");
    located
        || whole
        || path.iter().any(|step| match step {
            Step::Key(k) => names_word(message, k),
            Step::Index(i) => {
                message.contains(&format!("[{i}]")) || names_word(message, &i.to_string())
            }
            Step::Wrote(value) => names_word(message, value),
        })
}

/// Whether `word` stands in `message` as a word of its own (not inside a longer one).
fn names_word(message: &str, word: &str) -> bool {
    let is_word = |c: char| c.is_alphanumeric() || c == '_';
    message.match_indices(word).any(|(at, _)| {
        let before = message[..at].chars().next_back();
        let after = message[at + word.len()..].chars().next();
        !before.is_some_and(is_word) && !after.is_some_and(is_word)
    })
}

/// Fails unless `error`'s message names the element at `path` (see [`names_element`]).
pub(super) fn check_named(
    error: &impl std::fmt::Display,
    path: &[Step],
    what: &str,
) -> Result<(), String> {
    let message = error.to_string();
    if names_element(&message, path) {
        Ok(())
    } else {
        Err(format!(
            "{what} error does not name the element at {path:?}: {message}"
        ))
    }
}

/// Steps `sim` one step at a time, `steps` times: each `Ok` must leave every position and
/// velocity finite, and a failure must be a blow-up, a non-finite state or a fixed-point
/// overflow naming the mass.
pub(super) fn step_checked(sim: &mut dyn Simulation, steps: u64) -> Result<(), String> {
    for step in 0..steps {
        if let Err(e) = sim.step(1) {
            return failure_reported(&e);
        }
        let positions = sim.positions().map_err(|e| e.to_string())?;
        let velocities = sim.velocities().map_err(|e| e.to_string())?;
        let bad = positions
            .iter()
            .zip(&velocities)
            .position(|(p, v)| !(p.is_finite() && v.is_finite()));
        if let Some(mass) = bad {
            return Err(format!(
                "step {step} returned Ok with mass {mass} at {} moving at {}",
                positions[mass], velocities[mass]
            ));
        }
    }
    Ok(())
}

/// `Ok` when `e` is how the library reports a run that left its bounds, naming the mass.
pub(super) fn failure_reported(e: &Error) -> Result<(), String> {
    let message = e.to_string();
    match e {
        Error::NonFinite { .. } | Error::BlowUp { .. } | Error::FixedPointOverflow { .. }
            if message.contains("mass ") =>
        {
            Ok(())
        }
        _ => Err(format!(
            "a step failed with something other than a reported blow-up: {message}"
        )),
    }
}
