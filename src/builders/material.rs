//! [`Material`]: Young's modulus, density and a damping ratio, and their conversion to the
//! springs, masses and damping of hooke's cubic lattices (the derivation is in the guide,
//! `hooke::guide::materials`).

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use super::invalid;
use crate::error::Result;
use crate::validate::{non_negative, positive};

/// The Poisson's ratio every central-spring cubic lattice has (the Cauchy relation
/// `C12 = C44` with isotropy gives `lambda = mu`, so `nu = 1/4`): the only one a [`Material`]
/// accepts.
pub const LATTICE_POISSON_RATIO: f64 = 0.25;

/// An isotropic elastic solid: Young's modulus `E` (Pa), density `rho` (kg/m^3) and a damping
/// ratio `zeta` (dimensionless), turned by the solid builders ([`VoxelBody`](super::VoxelBody),
/// [`Cube`](super::Cube), [`Lattice`](super::Lattice)) into spring stiffness, mass and damping.
///
/// # The conversion (cubic lattice of spacing `a`, every node joined to its 26 neighbours)
///
/// Each cell of edge `a` contributes, to the springs joining its 8 corners,
/// - `k_edge / 4` to each of its 12 edges (an edge is shared by 4 cells),
/// - `k_face / 2` to each of its 12 face diagonals (shared by 2 cells),
/// - `k_body` to each of its 4 body diagonals,
///
/// with `k_face = k_body = 6 E a / 35` and `k_edge = 22 E a / 35` (N/m); a spring's stiffness
/// is the sum over the cells that hold it, so inside a solid it is `k_edge`, `k_face` or
/// `k_body`, and on a surface the share of its cells. Cauchy-Born (a homogeneous strain moves
/// every node affinely) gives the lattice the elastic constants
/// `C11 = (k_edge + 2 k_face + 4 k_body / 3) / a` and `C12 = C44 = (k_face + 4 k_body / 3) / a`;
/// these springs satisfy the isotropy condition `k_edge = k_face + 8 k_body / 3`, so
/// `lambda = mu = E / 2.5` and Poisson's ratio is 1/4 ([`LATTICE_POISSON_RATIO`]). Because each
/// cell holds exactly the energy of its volume, a body of whole cells under a uniform stress is
/// in equilibrium at the continuum's uniform strain (the patch test): tension and compression
/// give `E` and `nu = 1/4` at any spacing.
///
/// Each cell adds `rho a^3 / 8` to the mass of each of its corners. Each spring of stiffness `k`
/// between masses `m_a` and `m_b` gets the axial damping `c = 2 zeta sqrt(k m_a m_b / (m_a +
/// m_b))` (N*s/m): the critical damping of that spring and its two masses alone, times `zeta`.
/// So `zeta = 1` damps each bond critically; the body's low modes (bending, the first
/// longitudinal mode) are far less damped, their ratio shrinking with the spacing.
///
/// # What a spring lattice cannot represent
///
/// Poisson's ratio: central springs on a cubic lattice always give `nu = 1/4`. Rubber and
/// silicone (`nu` near 1/2) are nearly incompressible; the lattice body resists volume change
/// less than they do, while its tension and shear stiffness are `E` and `E / 2.5`. In JSON a
/// `"poisson_ratio"` other than 0.25 is refused with an error that says so; there is no field
/// for it in Rust.
///
/// # Examples
///
/// ```
/// use hooke::{Builder, Material, VoxelBody};
///
/// // 1 MPa silicone of 1070 kg/m^3, its bonds damped at 10 % of critical.
/// let silicone = Material::new(1.0e6, 1070.0).with_damping_ratio(0.1);
/// let k = silicone.cubic_stiffness(0.01)?; // 1 cm voxels
/// assert!((k.edge - 22.0 * 1.0e6 * 0.01 / 35.0).abs() < 1e-9); // N/m
/// // The isotropy condition holds.
/// assert!((k.edge - (k.face_diagonal + 8.0 * k.body_diagonal / 3.0)).abs() < 1e-9);
///
/// // A 2 x 2 x 2 cube of it: 27 masses weighing rho (2 a)^3.
/// let body = VoxelBody { voxel_size: 0.01, material: Some(silicone), ..VoxelBody::lattice(2, 2, 2) };
/// let part = body.build()?;
/// assert!((part.total_mass() - 1070.0 * 0.02f64.powi(3)).abs() < 1e-12);
///
/// // The named ones and their sources are in the table of `Material::named`.
/// let ecoflex = Material::named("ecoflex_00_30")?;
/// assert_eq!(ecoflex.density, 1070.0);
///
/// // A bad value is an error naming the field.
/// let bad = Material::new(-1.0, 1000.0).cubic_stiffness(0.01);
/// assert!(matches!(bad, Err(hooke::Error::InvalidParameter { name: "material.young_modulus", .. })));
/// # Ok::<(), hooke::Error>(())
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(try_from = "MaterialJson", into = "MaterialFields")]
#[schemars(with = "MaterialJson")]
pub struct Material {
    /// Young's modulus `E` in Pa. Finite and > 0.
    pub young_modulus: f64,
    /// Density `rho` in kg/m^3. Finite and > 0.
    pub density: f64,
    /// Damping ratio `zeta` of each bond (dimensionless; 1 = each spring critically damped with
    /// its two masses). Finite and >= 0.
    pub damping_ratio: f64,
}

/// The stiffness (N/m) of the three kinds of spring of a cubic lattice inside a solid (a surface
/// spring gets the share of the cells that hold it), as [`Material::cubic_stiffness`] gives them.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct CubicStiffness {
    /// Springs along the cell edges (length `a`), N/m.
    pub edge: f64,
    /// Springs along the face diagonals (length `a sqrt 2`), N/m.
    pub face_diagonal: f64,
    /// Springs along the body diagonals (length `a sqrt 3`), N/m.
    pub body_diagonal: f64,
}

impl CubicStiffness {
    /// The share one cell gives to a spring joining two of its corners that differ on `axes`
    /// axes (1: an edge, 2: a face diagonal, 3: a body diagonal), N/m.
    #[must_use]
    pub(crate) fn cell_share(&self, axes: usize) -> f64 {
        match axes {
            1 => self.edge / 4.0,
            2 => self.face_diagonal / 2.0,
            _ => self.body_diagonal,
        }
    }
}

/// The named materials: name, Young's modulus (Pa), density (kg/m^3). Sources in
/// docs/SOURCES.md ("Materials").
const NAMED: [(&str, f64, f64); 6] = [
    ("ecoflex_00_30", 69.0e3, 1070.0),
    ("ecoflex_00_50", 83.0e3, 1070.0),
    ("dragon_skin_10", 152.0e3, 1070.0),
    ("dragon_skin_30", 593.0e3, 1080.0),
    ("ninjaflex_tpu", 12.0e6, 1190.0),
    ("plastazote_ld33", 160.0e3, 33.0),
];

impl Material {
    /// A material of Young's modulus `young_modulus` (Pa) and density `density` (kg/m^3),
    /// undamped (`damping_ratio = 0`).
    #[must_use]
    pub fn new(young_modulus: f64, density: f64) -> Self {
        Self {
            young_modulus,
            density,
            damping_ratio: 0.0,
        }
    }

    /// The same material with damping ratio `zeta` (dimensionless).
    #[must_use]
    pub fn with_damping_ratio(self, zeta: f64) -> Self {
        Self {
            damping_ratio: zeta,
            ..self
        }
    }

    /// A material from the table, undamped. `E` is the datasheet's tensile modulus at 100 %
    /// strain for the silicones (the secant modulus the datasheets print; the small-strain
    /// tangent modulus of these rubbers is of the same order: for an incompressible neo-Hookean
    /// solid it is 3 / 1.75 = 1.7 times the 100 % secant), the tensile modulus for TPU, and for
    /// the polyethylene foam the secant modulus of its compression stress at 25 % strain
    /// (40 kPa / 0.25; a foam's initial modulus, before its cell walls buckle, is higher):
    ///
    /// | name | E (Pa) | density (kg/m^3) | source (docs/SOURCES.md) |
    /// |---|---|---|---|
    /// | `ecoflex_00_30` | 69e3 | 1070 | Smooth-On, Ecoflex Series technical bulletin |
    /// | `ecoflex_00_50` | 83e3 | 1070 | Smooth-On, Ecoflex Series technical bulletin |
    /// | `dragon_skin_10` | 152e3 | 1070 | Smooth-On, Dragon Skin Series technical bulletin |
    /// | `dragon_skin_30` | 593e3 | 1080 | Smooth-On, Dragon Skin Series technical bulletin |
    /// | `ninjaflex_tpu` | 12e6 | 1190 | NinjaTek, NinjaFlex technical data sheet |
    /// | `plastazote_ld33` | 160e3 | 33 | Zotefoams, Plastazote LD33 typical properties |
    ///
    /// # Errors
    /// [`Error::InvalidBuilder`](crate::Error::InvalidBuilder) (builder `"material"`) for a name
    /// not in the table, listing the names.
    pub fn named(name: &str) -> Result<Self> {
        NAMED
            .iter()
            .find(|(n, _, _)| *n == name)
            .map(|&(_, e, rho)| Self::new(e, rho))
            .ok_or_else(|| {
                let names: Vec<&str> = NAMED.iter().map(|(n, _, _)| *n).collect();
                invalid(
                    "material",
                    format!("no material named {name:?}; the named ones are {names:?}"),
                )
            })
    }

    /// The names [`Material::named`] knows.
    #[must_use]
    pub fn names() -> Vec<&'static str> {
        NAMED.iter().map(|(n, _, _)| *n).collect()
    }

    /// Checks every field.
    ///
    /// # Errors
    /// [`Error::InvalidParameter`](crate::Error::InvalidParameter) naming the field
    /// (`"material.young_modulus"`, `"material.density"`, `"material.damping_ratio"`) for a
    /// modulus or density that is not finite and > 0, or a ratio that is not finite and >= 0.
    pub fn validate(&self) -> Result<()> {
        positive(
            "material.young_modulus",
            self.young_modulus,
            "must be finite and > 0 (Pa)",
        )?;
        positive(
            "material.density",
            self.density,
            "must be finite and > 0 (kg/m^3)",
        )?;
        non_negative(
            "material.damping_ratio",
            self.damping_ratio,
            "must be finite and >= 0 (dimensionless)",
        )
    }

    /// The springs of a cubic lattice of spacing `spacing` (m) inside a solid of this material:
    /// `k_edge = 22 E a / 35`, `k_face = k_body = 6 E a / 35` (N/m); see the type's docs.
    ///
    /// # Errors
    /// [`Material::validate`]'s; [`Error::InvalidParameter`](crate::Error::InvalidParameter)
    /// (`"material.spacing"`) for a spacing that is not finite and > 0.
    pub fn cubic_stiffness(&self, spacing: f64) -> Result<CubicStiffness> {
        self.validate()?;
        positive("material.spacing", spacing, "must be finite and > 0 (m)")?;
        let unit = self.young_modulus * spacing / 35.0;
        Ok(CubicStiffness {
            edge: 22.0 * unit,
            face_diagonal: 6.0 * unit,
            body_diagonal: 6.0 * unit,
        })
    }

    /// The mass one cell of edge `spacing` (m) gives each of its 8 corners: `rho a^3 / 8` (kg).
    #[must_use]
    pub fn corner_share(&self, spacing: f64) -> f64 {
        self.density * spacing.powi(3) / 8.0
    }

    /// The axial damping (N*s/m) of a spring of stiffness `k` (N/m) between masses `m_a` and
    /// `m_b` (kg): `2 zeta sqrt(k m_a m_b / (m_a + m_b))`, the critical damping of that pair
    /// times the damping ratio.
    #[must_use]
    pub fn bond_damping(&self, k: f64, m_a: f64, m_b: f64) -> f64 {
        bond_damping(self.damping_ratio, k, m_a, m_b)
    }
}

/// `2 zeta sqrt(k m_a m_b / (m_a + m_b))` (N*s/m): damping ratio `zeta` of a spring of
/// stiffness `k` (N/m) between masses `m_a` and `m_b` (kg).
pub(crate) fn bond_damping(zeta: f64, k: f64, m_a: f64, m_b: f64) -> f64 {
    2.0 * zeta * (k * m_a * m_b / (m_a + m_b)).sqrt()
}

/// A material in a scene, population or genome file: a name from [`Material::named`]'s table
/// (`"ecoflex_00_30"`) or the fields (`{"young_modulus": 1e6, "density": 1070}`).
#[derive(Clone, Debug, Serialize, Deserialize, JsonSchema)]
#[serde(untagged)]
#[schemars(title = "Material")]
enum MaterialJson {
    /// A material of the table by name.
    Named(String),
    /// A material given by its fields.
    Fields(MaterialFields),
}

/// The fields of a [`Material`] in JSON.
#[derive(Clone, Debug, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
struct MaterialFields {
    /// Young's modulus `E` in Pa. Finite and > 0.
    young_modulus: f64,
    /// Density in kg/m^3. Finite and > 0.
    density: f64,
    /// Damping ratio of each bond (default 0). Finite and >= 0.
    #[serde(default)]
    damping_ratio: f64,
    /// Poisson's ratio: a spring lattice has 1/4 and cannot represent another, so only 0.25 is
    /// accepted (left out means 0.25).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    poisson_ratio: Option<f64>,
}

impl From<Material> for MaterialFields {
    fn from(m: Material) -> Self {
        Self {
            young_modulus: m.young_modulus,
            density: m.density,
            damping_ratio: m.damping_ratio,
            poisson_ratio: None,
        }
    }
}

impl TryFrom<MaterialJson> for Material {
    type Error = String;

    fn try_from(j: MaterialJson) -> std::result::Result<Self, String> {
        let material = match j {
            MaterialJson::Named(name) => Self::named(&name),
            MaterialJson::Fields(f) => {
                if let Some(nu) = f.poisson_ratio.filter(|&nu| nu != LATTICE_POISSON_RATIO) {
                    return Err(format!(
                        "material.poisson_ratio: {nu} cannot be represented: a lattice of central \
                         springs has Poisson's ratio 0.25 (leave the field out or give 0.25)"
                    ));
                }
                let m = Self {
                    young_modulus: f.young_modulus,
                    density: f.density,
                    damping_ratio: f.damping_ratio,
                };
                m.validate().map(|()| m)
            }
        };
        material.map_err(|e| e.to_string())
    }
}
