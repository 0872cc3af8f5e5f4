//! Springs: the model's record of one, its checks, and its tension and elastic energy at a
//! length (the law's formulas are `spring_law/`'s).

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use super::spring_law::{divides_by_rest, effective, elastic, SpringLaw};
use crate::error::{Error, Result};

/// A damped spring between masses `a` and `b`.
///
/// # Examples
///
/// ```
/// use hooke::{Spring, SpringLaw};
///
/// // Between masses 0 and 1: k = 1000 N/m, rest length 0.5 m, damping 2 N*s/m.
/// let s = Spring::hooke(0, 1, 1000.0, 0.5).with_damping(2.0);
/// // Stretched to 0.6 m it pulls with k (L - L0) = 100 N and stores k (L - L0)^2 / 2 = 5 J.
/// assert!((s.tension(0.6, 0.5) - 100.0).abs() < 1e-9);
/// assert!((s.elastic_energy(0.6, 0.5) - 5.0).abs() < 1e-9);
///
/// // The material law takes k per unit strain (N): a 20 % stretch pulls with 0.2 k at any length.
/// let m = s.with_law(SpringLaw::Material);
/// assert!((m.tension(0.6, 0.5) - 200.0).abs() < 1e-9);
/// assert!((m.tension(1.2, 1.0) - 200.0).abs() < 1e-9);
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
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
    /// (Anderson). Finite and >= 0.
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
    /// positive when stretched: `k_eff (L - L0)` with the law's effective stiffness and rest
    /// length (for [`SpringLaw::ZeroLength`] `k L`), the elastic force both worlds apply.
    #[must_use]
    pub fn tension(&self, length: f64, rest: f64) -> f64 {
        let (k_eff, rest) = self.effective(rest);
        k_eff * (length - rest)
    }

    /// Elastic energy stored at length `length` (m) with rest length `rest` (m), in J:
    /// `k_eff (L - L0)^2 / 2`, as both worlds book it.
    #[must_use]
    pub fn elastic_energy(&self, length: f64, rest: f64) -> f64 {
        let (k_eff, rest) = self.effective(rest);
        elastic(k_eff, rest, length)
    }

    /// The effective stiffness `k_eff` (N/m) and rest length `L0` (m) of this spring when its
    /// base or actuated rest length is `rest` (m): every law's force is `k_eff (L - L0)` along
    /// the spring. `(k, rest)` for [`SpringLaw::Hooke`], `(k / rest, rest)` for
    /// [`SpringLaw::Material`], `(k, 0)` for [`SpringLaw::ZeroLength`].
    ///
    /// ```
    /// use hooke::{Spring, SpringLaw};
    ///
    /// let s = Spring::hooke(0, 1, 100.0, 0.5).with_law(SpringLaw::Material);
    /// assert_eq!(s.effective(0.5), (200.0, 0.5));
    /// assert_eq!(s.with_law(SpringLaw::ZeroLength).effective(0.5), (100.0, 0.0));
    /// ```
    #[must_use]
    pub fn effective(&self, rest: f64) -> (f64, f64) {
        effective(self.law, self.stiffness, rest)
    }
}

impl Spring {
    /// Checks spring `index` of a model with `masses` masses: both ends exist and differ, its
    /// stiffness, damping and rest length are finite and >= 0, and a material-law spring has a
    /// rest length > 0.
    pub(super) fn check(&self, index: usize, masses: usize) -> Result<()> {
        for mass in [self.a, self.b] {
            if mass as usize >= masses {
                return Err(Error::SpringMassOutOfRange {
                    spring: index,
                    mass,
                    masses,
                });
            }
        }
        if self.a == self.b {
            return Err(Error::SelfSpring {
                spring: index,
                mass: self.a,
            });
        }
        for (name, value) in [
            ("stiffness", self.stiffness),
            ("damping", self.damping),
            ("rest_length", self.rest_length),
        ] {
            if !(value.is_finite() && value >= 0.0) {
                return Err(Error::InvalidSpringParameter {
                    spring: index,
                    name,
                    value,
                });
            }
        }
        if divides_by_rest(self.law) && self.rest_length == 0.0 {
            return Err(Error::ZeroRestLength { spring: index });
        }
        Ok(())
    }
}
