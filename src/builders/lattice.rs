//! The falling lattice of the benchmark scene (the benchmark scene of the shared benchmark).

use glam::DVec3;
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use super::{Builder, Material};
use crate::error::Result;
use crate::model::{
    Body, Contact, Friction, Integrator, Mass, Model, Params, Part, Spring, STANDARD_GRAVITY,
};
use crate::validate::{at_least, buildable, finite, non_negative, positive};

/// The benchmark lattice, exactly as the benchmark scene (and its `scene.py`) define it.
///
/// - `n x n x n` masses of `mass` kg, mass `(i, j, k)` (k the layer, z up) has index
///   `(k n + j) n + i` and starts at rest at `(i h, j h, z0 + k h)`, computed in `f64`.
/// - One Hooke spring between every two masses whose coordinates differ by at most 1 on every
///   axis (the 28 corner pairs of every unit cell, shared pairs once; the 13 "forward" neighbour
///   offsets). Each spring is stored with `a < b` and the list is sorted by `(a, b)`; rest length
///   = initial distance `|p_a - p_b|` in `f64`; stiffness `stiffness`, axial damping `damping`.
/// - Spring count `S(n) = 3 n^2 (n-1) + 6 n (n-1)^2 + 4 (n-1)^3` ([`Lattice::spring_count`]).
///
/// Building is linear in the number of springs (no sort, no dedup): the masses are walked in index
/// order and each one's forward neighbours `b > a` are emitted in ascending order. `n = 120`
/// (22 M springs) builds in about a second.
///
/// # Examples
///
/// ```
/// use hooke::{Builder, Lattice};
///
/// let lattice = Lattice::benchmark(3); // 3 x 3 x 3 masses 0.01 m apart, lowest layer at 0.05 m
/// let part = lattice.build()?;
/// assert_eq!(part.masses.len(), 27);
/// assert_eq!(part.springs.len() as u64, Lattice::spring_count(3)); // 158
/// // Sorted by (a, b) with a < b, as the benchmark scene lists them.
/// assert!(part.springs.iter().all(|s| s.a < s.b));
/// assert!(part.springs.windows(2).all(|w| (w[0].a, w[0].b) < (w[1].a, w[1].b)));
/// // Lattice::model pairs it with the benchmark scene's parameters.
/// assert_eq!(lattice.model()?.params, Lattice::benchmark_params());
/// # Ok::<(), hooke::Error>(())
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(default, deny_unknown_fields)]
pub struct Lattice {
    /// Masses per side (default 10). At least 1, at most 212 (so that the masses and springs stay
    /// within [`MAX_BUILT_ELEMENTS`](crate::MAX_BUILT_ELEMENTS)).
    pub n: u32,
    /// Lattice spacing `h` in m (default 0.01). Finite and > 0.
    pub spacing: f64,
    /// Height of the lowest layer `z0` in m (default 0.05). Finite.
    pub z0: f64,
    /// Mass of each point in kg (default 0.1). Finite and > 0.
    pub mass: f64,
    /// Spring stiffness `k` in N/m (default 10 000). Finite and >= 0.
    pub stiffness: f64,
    /// Axial damping `c` in N*s/m (default 1). Finite and >= 0.
    pub damping: f64,
    /// The material the lattice is made of (default `None`): when given, it replaces `mass`,
    /// `stiffness` and `damping`, the lattice's `(n - 1)^3` cells assembled as [`Material`]
    /// derives (corner nodes lighter than inner ones, surface springs softer). Needs `n >= 2`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub material: Option<Material>,
}

impl Default for Lattice {
    fn default() -> Self {
        Self::benchmark(10)
    }
}

/// Forward neighbour offsets `(di, dj, dk)`: the 13 with `(dk, dj, di)` lexicographically positive,
/// i.e. exactly those whose index difference `dk n^2 + dj n + di` is positive.
const FORWARD: [[i64; 3]; 13] = [
    [1, 0, 0],
    [-1, 1, 0],
    [0, 1, 0],
    [1, 1, 0],
    [-1, -1, 1],
    [0, -1, 1],
    [1, -1, 1],
    [-1, 0, 1],
    [0, 0, 1],
    [1, 0, 1],
    [-1, 1, 1],
    [0, 1, 1],
    [1, 1, 1],
];

impl Lattice {
    /// The benchmark scene lattice with `n` masses per side: h = 0.01 m, z0 = 0.05 m, m = 0.1 kg,
    /// k = 10 000 N/m, c = 1 N*s/m.
    #[must_use]
    pub fn benchmark(n: u32) -> Self {
        Self {
            n,
            spacing: 0.01,
            z0: 0.05,
            mass: 0.1,
            stiffness: 10_000.0,
            damping: 1.0,
            material: None,
        }
    }

    /// The global parameters of the benchmark scene: gravity (0, 0, -9.81) m/s^2, dt = 1e-4 s,
    /// semi-implicit Euler, penalty ground `k_c = 100 000 N/m` without normal damping, the naive
    /// kinetic friction rule `mu_k = 0.5` above `|v_t| = 1e-6 m/s` ([`Friction::naive`]), no
    /// velocity damping or air drag.
    ///
    /// The friction is the scene's own rule (docs/BENCHMARK_SCENE.md, the peers' integrate
    /// kernels): `-mu_k F_n v_t / |v_t|` while `|v_t| > 1e-6 m/s`, nothing otherwise, no static
    /// friction and no clamp, so a mass nearly at rest sideways chatters. It is the naive textbook
    /// rule, not hooke's default Coulomb friction (which never reverses a mass), and it is used
    /// here so that hooke and the peer engines compute exactly the same physics: trajectories
    /// agree at and after the first contact, not only in flight.
    #[must_use]
    pub fn benchmark_params() -> Params {
        Params {
            gravity: STANDARD_GRAVITY,
            dt: 1e-4,
            integrator: Integrator::SemiImplicitEuler,
            velocity_damping: 0.0,
            air_drag: 0.0,
            contact: Contact::Penalty {
                stiffness: 100_000.0,
                damping: 0.0,
            },
            friction: Friction::naive(0.5, 1e-6),
            collision: crate::Collision::default(),
        }
    }

    /// `S(n) = 3 n^2 (n-1) + 6 n (n-1)^2 + 4 (n-1)^3`: edges, face diagonals and body diagonals
    /// of an `n x n x n` lattice (0 for `n = 0`).
    #[must_use]
    pub fn spring_count(n: u32) -> u64 {
        if n == 0 {
            return 0;
        }
        let n = u64::from(n);
        let m = n - 1;
        3 * n * n * m + 6 * n * m * m + 4 * m * m * m
    }

    /// A [`Model`] with this lattice as its one body (named `"lattice"`) and
    /// [`Lattice::benchmark_params`].
    ///
    /// # Errors
    /// As [`Builder::build`].
    pub fn model(&self) -> Result<Model> {
        // Equal to `Model::add("lattice", part)` on an empty model, without copying the
        // (possibly 22 M) springs a second time.
        let part = self.build()?;
        Ok(Model {
            params: Self::benchmark_params(),
            bodies: vec![Body {
                name: "lattice".to_string(),
                masses: 0..part.masses.len(),
                springs: 0..part.springs.len(),
                self_collision: part.self_collision,
            }],
            masses: part.masses,
            springs: part.springs,
            actuators: part.actuators,
            obstacles: Vec::new(),
            class_collisions: Vec::new(),
        })
    }
}

impl Builder for Lattice {
    /// # Errors
    /// [`Error::InvalidParameter`](crate::Error::InvalidParameter) for `n = 0`, a spacing or mass
    /// that is not finite and > 0, a non-finite `z0`, or a negative or non-finite stiffness or
    /// damping, or `n > 212` (more than [`MAX_BUILT_ELEMENTS`](crate::MAX_BUILT_ELEMENTS) masses
    /// and springs); [`Error::InvalidBuilder`](crate::Error::InvalidBuilder) with a material for
    /// `n < 2`; with a material, [`Material::validate`]'s errors naming the field.
    fn build(&self) -> Result<Part> {
        at_least("lattice.n", self.n as usize, 1, "must be at least 1")?;
        let n = f64::from(self.n);
        // n^3 masses and fewer than 13 n^3 springs: at most n = 212 (n^3 then fits a u32 too).
        buildable("lattice.n", n, 14.0 * n * n * n)?;
        positive(
            "lattice.spacing",
            self.spacing,
            "must be finite and > 0 (m)",
        )?;
        finite("lattice.z0", self.z0, "must be finite")?;
        positive("lattice.mass", self.mass, "must be finite and > 0 (kg)")?;
        non_negative(
            "lattice.stiffness",
            self.stiffness,
            "must be finite and >= 0 (N/m)",
        )?;
        non_negative(
            "lattice.damping",
            self.damping,
            "must be finite and >= 0 (N*s/m)",
        )?;

        let n = i64::from(self.n);
        let h = self.spacing;
        let index = |i: i64, j: i64, k: i64| ((k * n + j) * n + i) as u32;
        let mut masses = Vec::with_capacity((n * n * n) as usize);
        for k in 0..n {
            for j in 0..n {
                for i in 0..n {
                    let p = DVec3::new(i as f64 * h, j as f64 * h, self.z0 + k as f64 * h);
                    masses.push(Mass::new(self.mass, p));
                }
            }
        }
        let mut springs = Vec::with_capacity(Self::spring_count(self.n) as usize);
        let mut row = [0u32; 13];
        for k in 0..n {
            for j in 0..n {
                for i in 0..n {
                    let a = index(i, j, k);
                    let mut len = 0;
                    for [di, dj, dk] in FORWARD {
                        let (i2, j2, k2) = (i + di, j + dj, k + dk);
                        if (0..n).contains(&i2) && (0..n).contains(&j2) && (0..n).contains(&k2) {
                            row[len] = index(i2, j2, k2);
                            len += 1;
                        }
                    }
                    // Ascending already for n >= 3; for n = 2 index differences of different
                    // offsets can tie or cross, so sort the (at most 13) neighbours.
                    let row = &mut row[..len];
                    row.sort_unstable();
                    let pa = masses[a as usize].position;
                    for &b in row.iter() {
                        let rest = (pa - masses[b as usize].position).length();
                        springs.push(
                            Spring::hooke(a, b, self.stiffness, rest).with_damping(self.damping),
                        );
                    }
                }
            }
        }
        debug_assert_eq!(springs.len() as u64, Self::spring_count(self.n));
        let mut part = Part {
            masses,
            springs,
            actuators: Vec::new(),
            self_collision: true,
        };
        if let Some(material) = &self.material {
            self.apply_material(&mut part, material)?;
        }
        Ok(part)
    }
}
