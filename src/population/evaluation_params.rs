//! The world parameters a population is evaluated with when the caller does not give them all:
//! [`Params::robots`], the preset walking robots need, not [`Params::default`] (Lipson's
//! bouncing cube, a frictionless ground on which no robot moves: every distance fitness would
//! be zero). The one place [`Evaluation::default`](super::Evaluation), population files,
//! evolution settings files, `hooke eval`, `hooke evolve` and Python take them from.

use serde::de::Error as _;
use serde::{Deserialize, Deserializer};

use crate::model::Params;

/// The parameters of a population evaluation that sets none: [`Params::robots`] (`dt = 1e-4`
/// s, a damped penalty ground, Coulomb friction `mu_s = 1.0`, `mu_k = 0.8`).
#[must_use]
pub(crate) fn evaluation_params() -> Params {
    Params::robots()
}

/// Reads an evaluation's `params` object: each field it gives as in scene files, each field it
/// leaves out from [`evaluation_params`] (so `{ "dt": 2e-4 }` keeps the robots' friction).
///
/// # Errors
/// A value that is not an object, an unknown field or a bad value, as for [`Params`].
pub(crate) fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<Params, D::Error> {
    let given = serde_json::Map::<String, serde_json::Value>::deserialize(d)?;
    let mut value = serde_json::to_value(evaluation_params()).map_err(D::Error::custom)?;
    if let Some(fields) = value.as_object_mut() {
        fields.extend(given);
    }
    serde_json::from_value(value).map_err(D::Error::custom)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::Friction;

    fn params(json: &str) -> Result<Params, serde_json::Error> {
        deserialize(&mut serde_json::Deserializer::from_str(json))
    }

    #[test]
    fn fields_left_out_are_the_robots_presets() {
        let p = params(r#"{ "dt": 2e-4 }"#).unwrap();
        assert_eq!(
            p,
            Params {
                dt: 2e-4,
                ..Params::robots()
            }
        );
        assert_eq!(params("{}").unwrap(), Params::robots());
    }

    #[test]
    fn a_field_given_replaces_the_presets_whole() {
        let p =
            params(r#"{ "friction": { "static_coefficient": 0.5, "kinetic_coefficient": 0.4 } }"#)
                .unwrap();
        assert_eq!(p.friction, Friction::coulomb(0.5, 0.4));
        assert_eq!(p.contact, Params::robots().contact);
        // A frictionless ground is still there for whoever asks for it.
        let frictionless =
            params(r#"{ "friction": { "static_coefficient": 0, "kinetic_coefficient": 0 } }"#);
        assert_eq!(frictionless.unwrap().friction, Friction::NONE);
    }

    #[test]
    fn unknown_fields_and_non_objects_are_refused_by_name() {
        let e = params(r#"{ "dtt": 1e-4 }"#).unwrap_err().to_string();
        assert!(e.contains("dtt"), "{e}");
        assert!(params("[1]").is_err());
    }
}
