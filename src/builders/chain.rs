//! Rope / hair strand (1D chain) and cloth (2D grid) of CS838.

use glam::DVec3;
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use super::{fits_u32, invalid, Builder};
use crate::error::Result;
use crate::model::{Mass, Part, Spring, SpringLaw};
use crate::validate::{at_least, buildable, non_negative, positive};

/// A rope or hair strand (CS838): `segments + 1` masses in a straight line, each joined to the
/// next by a spring, optionally also to the one after next (bending springs), optionally with the
/// first mass fixed (a hanging strand).
///
/// Local frame: mass `i` starts at rest at `i (length / segments) d`, where `d` is `direction`
/// normalised. With [`SpringLaw::Material`], `stiffness` is in N (per unit strain) and springs of
/// any length cut from it behave alike; with [`SpringLaw::Hooke`] and [`SpringLaw::ZeroLength`] it
/// is in N/m. Rest lengths are the initial distances.
///
/// # Examples
///
/// A 1 m rope of 10 segments hanging straight down from its fixed first mass:
///
/// ```
/// use hooke::{Builder, CpuWorld, DVec3, Model, Params, Placement, Rope};
///
/// let rope = Rope { segments: 10, direction: -DVec3::Z, ..Rope::default() };
/// let part = rope.build_at(&Placement::at(DVec3::new(0.0, 0.0, 2.0)))?;
/// assert_eq!((part.masses.len(), part.springs.len()), (11, 10));
/// assert!(part.masses[0].fixed);
///
/// let mut model = Model::new(Params::default());
/// model.add("rope", part);
/// let mut world = CpuWorld::new(&model)?;
/// world.step_for(0.05)?;
/// let p = world.positions()?;
/// // Gravity and every spring act along z, so the rope stays on the z axis.
/// assert!(p.iter().all(|p| p.x == 0.0 && p.y == 0.0));
/// // Spring j (1..=10) holds 11 - j masses of 0.01 kg: at rest the end would sag by
/// // 55 x 0.01 kg x 9.81 m/s^2 / 1000 N/m = 5.4 mm. Let go unstretched, it swings between 0 and
/// // twice that, give or take semi-implicit Euler's amplitude error: at most omega dt / 2 = 3.2 %
/// // for the stiffest mode, omega = 2 sqrt(k / m) = 632 rad/s.
/// let sag = 1.0 - p[10].z;
/// let rest_sag = 55.0 * 0.01 * 9.81 / 1000.0;
/// assert!(sag > 0.0 && sag < 1.04 * 2.0 * rest_sag);
/// # Ok::<(), hooke::Error>(())
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(default, deny_unknown_fields)]
pub struct Rope {
    /// Number of springs along the rope (default 20); at least 1.
    pub segments: u32,
    /// Total length in m (default 1). Finite and > 0.
    pub length: f64,
    /// Mass of each point in kg (default 0.01). Finite and > 0.
    pub mass: f64,
    /// Stiffness of the segment springs, N/m (N for the material law) (default 1000). Finite and
    /// >= 0.
    pub stiffness: f64,
    /// Stiffness of the bending springs joining masses `i` and `i + 2`, same unit; 0 (default)
    /// adds none. Finite and >= 0.
    pub bending_stiffness: f64,
    /// Axial damping of every spring in N*s/m (default 0.1). Finite and >= 0.
    pub damping: f64,
    /// The force law of every spring (default Hooke).
    pub law: SpringLaw,
    /// Direction from the first mass to the last (default +x); need not be normalised, must be
    /// finite and non-zero.
    #[schemars(with = "[f64; 3]")]
    pub direction: DVec3,
    /// Whether the first mass is fixed (default true).
    pub fix_first: bool,
}

impl Default for Rope {
    fn default() -> Self {
        Self {
            segments: 20,
            length: 1.0,
            mass: 0.01,
            stiffness: 1000.0,
            bending_stiffness: 0.0,
            damping: 0.1,
            law: SpringLaw::Hooke,
            direction: DVec3::X,
            fix_first: true,
        }
    }
}

impl Builder for Rope {
    /// # Errors
    /// [`Error::InvalidParameter`](crate::Error::InvalidParameter) for `segments = 0`, a length or
    /// mass that is not finite and > 0, or a negative or non-finite stiffness or damping;
    /// [`Error::InvalidBuilder`](crate::Error::InvalidBuilder) for a zero or non-finite direction.
    fn build(&self) -> Result<Part> {
        at_least(
            "rope.segments",
            self.segments as usize,
            1,
            "must be at least 1",
        )?;
        let segments = f64::from(self.segments);
        buildable("rope.segments", segments, 3.0 * segments + 1.0)?;
        positive("rope.length", self.length, "must be finite and > 0 (m)")?;
        positive("rope.mass", self.mass, "must be finite and > 0 (kg)")?;
        non_negative(
            "rope.stiffness",
            self.stiffness,
            "must be finite and >= 0 (N/m, or N for the material law)",
        )?;
        non_negative(
            "rope.bending_stiffness",
            self.bending_stiffness,
            "must be finite and >= 0 (N/m, or N for the material law)",
        )?;
        non_negative(
            "rope.damping",
            self.damping,
            "must be finite and >= 0 (N*s/m)",
        )?;
        let d = self.direction.try_normalize().ok_or_else(|| {
            invalid(
                "rope",
                format!("direction {:?} must be finite and non-zero", self.direction),
            )
        })?;
        let count = self.segments as usize + 1;
        fits_u32("rope", count)?;
        let step = self.length / f64::from(self.segments);
        let mut part = Part::new();
        for i in 0..count {
            let m = Mass::new(self.mass, d * (i as f64 * step));
            part.add_mass(if i == 0 && self.fix_first {
                m.fixed()
            } else {
                m
            });
        }
        let mut spring = |a: u32, b: u32, k: f64| {
            let rest = part.masses[a as usize]
                .position
                .distance(part.masses[b as usize].position);
            part.add_spring(
                Spring::hooke(a, b, k, rest)
                    .with_damping(self.damping)
                    .with_law(self.law),
            );
        };
        for i in 0..self.segments {
            spring(i, i + 1, self.stiffness);
        }
        if self.bending_stiffness > 0.0 {
            for i in 0..self.segments.saturating_sub(1) {
                spring(i, i + 2, self.bending_stiffness);
            }
        }
        Ok(part)
    }
}

/// A cloth (CS838): an `nx x ny` grid of masses with structural springs (to the 4 direct
/// neighbours), shear springs (both diagonals of every grid square) and bending springs (to the
/// neighbours two steps away along each axis), and chosen grid points pinned (fixed).
///
/// Local frame: the grid lies flat in the x-y plane; mass `(i, j)` has index `j nx + i` and starts
/// at rest at `(i s, j s, 0)`. To hang it, pin the two corners `[0, ny-1]` and `[nx-1, ny-1]` and
/// rotate it by `[pi/2, 0, 0]` (the y axis turns to +z) with a
/// [`Placement`](super::Placement). A spring family with stiffness 0 is left out. Springs are
/// numbered: structural, then shear, then bending. Units as in [`Rope`].
///
/// # Examples
///
/// ```
/// use hooke::{Builder, Cloth, DVec3, Placement};
///
/// // A 3 x 3 grid: 12 structural springs (2 per row and column), 8 shear (2 per square),
/// // 6 bending (1 per row and column).
/// let cloth = Cloth { nx: 3, ny: 3, ..Cloth::default() }.pinned_top();
/// let part = cloth.build()?;
/// assert_eq!((part.masses.len(), part.springs.len()), (9, 12 + 8 + 6));
/// // pinned_top fixes the corners [0, 2] and [2, 2]: masses 6 and 8.
/// let fixed: Vec<usize> = (0..9).filter(|&i| part.masses[i].fixed).collect();
/// assert_eq!(fixed, [6, 8]);
///
/// // Turned a quarter turn about +x, the grid's y axis points up: the pinned edge is on top,
/// // 2 x 0.05 m above the lowest row.
/// let quarter = DVec3::new(std::f64::consts::FRAC_PI_2, 0.0, 0.0);
/// let hanging = cloth.build_at(&Placement::IDENTITY.with_rotation(quarter))?;
/// assert!((hanging.masses[6].position.z - 0.1).abs() < 1e-12);
/// # Ok::<(), hooke::Error>(())
/// ```
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(default, deny_unknown_fields)]
pub struct Cloth {
    /// Masses along x (default 20); at least 2.
    pub nx: u32,
    /// Masses along y (default 20); at least 2.
    pub ny: u32,
    /// Grid spacing `s` in m (default 0.05). Finite and > 0.
    pub spacing: f64,
    /// Mass of each point in kg (default 0.005). Finite and > 0.
    pub mass: f64,
    /// Structural stiffness, N/m (N for the material law) (default 500). Finite and >= 0.
    pub structural: f64,
    /// Shear stiffness, same unit (default 200). Finite and >= 0.
    pub shear: f64,
    /// Bending stiffness, same unit (default 50). Finite and >= 0.
    pub bending: f64,
    /// Axial damping of every spring in N*s/m (default 0.05). Finite and >= 0.
    pub damping: f64,
    /// The force law of every spring (default Hooke).
    pub law: SpringLaw,
    /// Grid points `[i, j]` whose masses are fixed (default none).
    pub pinned: Vec<[u32; 2]>,
}

impl Default for Cloth {
    fn default() -> Self {
        Self {
            nx: 20,
            ny: 20,
            spacing: 0.05,
            mass: 0.005,
            structural: 500.0,
            shear: 200.0,
            bending: 50.0,
            damping: 0.05,
            law: SpringLaw::Hooke,
            pinned: Vec::new(),
        }
    }
}

impl Cloth {
    /// The four corners `[i, j]` of the grid: `[0, 0]`, `[nx-1, 0]`, `[0, ny-1]`, `[nx-1, ny-1]`.
    #[must_use]
    pub fn corners(&self) -> [[u32; 2]; 4] {
        let (x, y) = (self.nx.saturating_sub(1), self.ny.saturating_sub(1));
        [[0, 0], [x, 0], [0, y], [x, y]]
    }

    /// The same cloth with its two corners at `j = ny - 1` pinned (ready to hang).
    #[must_use]
    pub fn pinned_top(self) -> Self {
        let c = self.corners();
        Self {
            pinned: vec![c[2], c[3]],
            ..self
        }
    }
}

impl Builder for Cloth {
    /// # Errors
    /// [`Error::InvalidParameter`](crate::Error::InvalidParameter) for `nx` or `ny` below 2, a
    /// spacing or mass that is not finite and > 0, or a negative or non-finite stiffness or
    /// damping; [`Error::InvalidBuilder`](crate::Error::InvalidBuilder) for a pinned point outside
    /// the grid.
    fn build(&self) -> Result<Part> {
        at_least("cloth.nx", self.nx as usize, 2, "must be at least 2")?;
        at_least("cloth.ny", self.ny as usize, 2, "must be at least 2")?;
        let (nx, ny) = (f64::from(self.nx), f64::from(self.ny));
        // The larger count is named: it is the one to shrink.
        if nx >= ny {
            buildable("cloth.nx", nx, 7.0 * nx * ny)?;
        } else {
            buildable("cloth.ny", ny, 7.0 * nx * ny)?;
        }
        positive("cloth.spacing", self.spacing, "must be finite and > 0 (m)")?;
        positive("cloth.mass", self.mass, "must be finite and > 0 (kg)")?;
        non_negative(
            "cloth.structural",
            self.structural,
            "must be finite and >= 0 (N/m, or N for the material law)",
        )?;
        non_negative(
            "cloth.shear",
            self.shear,
            "must be finite and >= 0 (N/m, or N for the material law)",
        )?;
        non_negative(
            "cloth.bending",
            self.bending,
            "must be finite and >= 0 (N/m, or N for the material law)",
        )?;
        non_negative(
            "cloth.damping",
            self.damping,
            "must be finite and >= 0 (N*s/m)",
        )?;
        let (nx, ny) = (self.nx, self.ny);
        fits_u32("cloth", nx as usize * ny as usize)?;
        let mut part = Part::new();
        for j in 0..ny {
            for i in 0..nx {
                let p = DVec3::new(f64::from(i), f64::from(j), 0.0) * self.spacing;
                part.add_mass(Mass::new(self.mass, p));
            }
        }
        for (n, &[i, j]) in self.pinned.iter().enumerate() {
            if i >= nx || j >= ny {
                return Err(invalid(
                    "cloth",
                    format!("pinned point {n} = [{i}, {j}] lies outside the {nx} x {ny} grid"),
                ));
            }
            part.masses[(j * nx + i) as usize].fixed = true;
        }
        let idx = |i: u32, j: u32| j * nx + i;
        let mut spring = |a: u32, b: u32, k: f64| {
            let rest = part.masses[a as usize]
                .position
                .distance(part.masses[b as usize].position);
            part.add_spring(
                Spring::hooke(a, b, k, rest)
                    .with_damping(self.damping)
                    .with_law(self.law),
            );
        };
        // (di, dj, whether di runs backwards): offsets are (di, dj) or (-di, dj).
        type Offsets = &'static [(u32, u32, bool)];
        let families: [(f64, Offsets); 3] = [
            (self.structural, &[(1, 0, false), (0, 1, false)]),
            (self.shear, &[(1, 1, false), (1, 1, true)]),
            (self.bending, &[(2, 0, false), (0, 2, false)]),
        ];
        for (k, offsets) in families {
            if k == 0.0 {
                continue;
            }
            for j in 0..ny {
                for i in 0..nx {
                    for &(di, dj, back) in offsets {
                        let i2 = if back {
                            i.checked_sub(di)
                        } else {
                            Some(i + di)
                        };
                        if let Some(i2) = i2.filter(|&i2| i2 < nx) {
                            if j + dj < ny {
                                spring(idx(i, j), idx(i2, j + dj), k);
                            }
                        }
                    }
                }
            }
        }
        Ok(part)
    }
}
