//! Springs and their force laws.

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use crate::error::{Error, Result};

/// The force law of a spring. In every law the force on end `a` is `-f n`, with
/// `n = (p_a - p_b) / L` and `L = |p_a - p_b|`, and end `b` feels the opposite force.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum SpringLaw {
    /// Hooke's law, `f = k (L - L0)`, `k` in N/m (Lipson, Facey, SDL, Anderson).
    /// Elastic energy `k (L - L0)^2 / 2`.
    #[default]
    Hooke,
    /// Material form, `f = k (L / L0 - 1)`, `k` in N (a stiffness per unit strain, CS838), so
    /// that springs cut from one material behave the same at any length. Needs `L0 > 0`.
    /// Elastic energy `k (L - L0)^2 / (2 L0)`.
    Material,
    /// Zero rest length, force vector `-k (p_a - p_b)` on `a`, `k` in N/m (CS838). The rest
    /// length is ignored. Elastic energy `k L^2 / 2`.
    ZeroLength,
}

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
    /// positive when stretched, for [`SpringLaw::Hooke`] and [`SpringLaw::Material`]. For
    /// [`SpringLaw::ZeroLength`] it is `k L`.
    #[must_use]
    pub fn tension(&self, length: f64, rest: f64) -> f64 {
        match self.law {
            SpringLaw::Hooke => self.stiffness * (length - rest),
            SpringLaw::Material => self.stiffness * (length / rest - 1.0),
            SpringLaw::ZeroLength => self.stiffness * length,
        }
    }

    /// Elastic energy stored at length `length` (m) with rest length `rest` (m), in J.
    #[must_use]
    pub fn elastic_energy(&self, length: f64, rest: f64) -> f64 {
        match self.law {
            SpringLaw::Hooke => 0.5 * self.stiffness * (length - rest) * (length - rest),
            SpringLaw::Material => 0.5 * self.stiffness * (length - rest) * (length - rest) / rest,
            SpringLaw::ZeroLength => 0.5 * self.stiffness * length * length,
        }
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
        if self.law == SpringLaw::Material && self.rest_length == 0.0 {
            return Err(Error::ZeroRestLength { spring: index });
        }
        Ok(())
    }
}
