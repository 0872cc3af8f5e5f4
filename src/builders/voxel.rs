//! Voxel bodies: every filled cell of a 3D occupancy grid is a cube of 8 corner masses and 28
//! springs; corners and springs shared by neighbouring cells are merged.

use glam::DVec3;
use rustc_hash::FxHashMap;
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use super::{fits_u32, invalid, Builder, Material};
use crate::error::{Error, Result};
use crate::model::{Actuator, DutyCycle, Mass, Part, Spring};
use crate::validate::{at_least, non_negative, positive};

/// The 8 corners of a unit cell, corner `c = x + 2 y + 4 z` (x fastest).
pub(crate) const CORNERS: [[i64; 3]; 8] = [
    [0, 0, 0],
    [1, 0, 0],
    [0, 1, 0],
    [1, 1, 0],
    [0, 0, 1],
    [1, 0, 1],
    [0, 1, 1],
    [1, 1, 1],
];

/// The 28 corner pairs `(x, y)`, `x < y`, in lexicographic order: 12 edges, 12 face diagonals and
/// 4 body diagonals.
pub(crate) const CORNER_PAIRS: [(usize, usize); 28] = {
    let mut pairs = [(0, 0); 28];
    let mut n = 0;
    let mut x = 0;
    while x < 8 {
        let mut y = x + 1;
        while y < 8 {
            pairs[n] = (x, y);
            n += 1;
            y += 1;
        }
        x += 1;
    }
    pairs
};

/// A slot of the spring table while a voxel body is built: no spring yet.
const NO_SPRING: u32 = u32::MAX;

/// For each pair of [`CORNER_PAIRS`], which of its two corners is the lower on the lattice
/// (compared by x, then y, then z) and the direction to the other, numbered 0..13 among the 13
/// directions `d` in {-1, 0, 1}^3 whose first non-zero component is positive: a spring shared by
/// several voxels has the same lower corner and direction in each.
const PAIR_SLOTS: [(usize, usize); 28] = {
    let mut slots = [(0, 0); 28];
    let mut j = 0;
    while j < 28 {
        let (x, y) = CORNER_PAIRS[j];
        let (a, b) = (CORNERS[x], CORNERS[y]);
        let d = [b[0] - a[0], b[1] - a[1], b[2] - a[2]];
        let forward = d[0] > 0 || (d[0] == 0 && (d[1] > 0 || (d[1] == 0 && d[2] > 0)));
        let (lower, sign) = if forward { (x, 1) } else { (y, -1) };
        // Index among the 27 offsets, less the 14 that are zero or point backwards.
        let index = (sign * d[0] + 1) * 9 + (sign * d[1] + 1) * 3 + (sign * d[2] + 1) - 14;
        slots[j] = (lower, index as usize);
        j += 1;
    }
    slots
};

/// A muscle pattern for the springs of one voxel: the actuator parameters of
/// [`Actuator`] without the spring index. Every spring of the voxel gets
/// `L0(t) = L_base (1 + amplitude sin(omega tau + 2 pi phase))`.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Muscle {
    /// Relative amplitude (0.1 = 10 % of the base length); `|amplitude| < 1`.
    pub amplitude: f64,
    /// Angular frequency in rad/s.
    pub omega: f64,
    /// Phase in cycles (fractions of a period).
    #[serde(default)]
    pub phase: f64,
    /// Optional active/rest duty cycle (Facey).
    #[serde(default)]
    pub duty: Option<DutyCycle>,
    /// Driven by a command from outside instead of the sine: the actuators made are
    /// [`Actuator::commanded`] ones (omega, phase and duty ignored). Defaults to `false`.
    #[serde(default)]
    pub commanded: bool,
}

impl Muscle {
    /// A sinusoidal muscle of relative amplitude `amplitude`, angular frequency `omega` (rad/s) and
    /// phase `phase` (cycles), always active.
    #[must_use]
    pub fn new(amplitude: f64, omega: f64, phase: f64) -> Self {
        Self {
            amplitude,
            omega,
            phase,
            duty: None,
            commanded: false,
        }
    }

    /// A commanded muscle: its springs' rest lengths follow the commands set with
    /// [`Simulation::set_commands`](crate::Simulation::set_commands), clamped to
    /// `[-|amplitude|, |amplitude|]` (relative; `|amplitude| < 1`).
    #[must_use]
    pub fn commanded(amplitude: f64) -> Self {
        Self {
            amplitude,
            omega: 0.0,
            phase: 0.0,
            duty: None,
            commanded: true,
        }
    }

    /// The actuator driving spring `spring` with this pattern.
    #[must_use]
    pub fn on(&self, spring: u32) -> Actuator {
        Actuator {
            spring,
            amplitude: self.amplitude,
            omega: self.omega,
            phase: self.phase,
            duty: self.duty,
            commanded: self.commanded,
        }
    }
}

/// One filled cell of a [`VoxelBody`].
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Voxel {
    /// Integer cell coordinates `[x, y, z]`; the cell spans `cell * voxel_size` to
    /// `(cell + 1) * voxel_size` in the local frame.
    pub cell: [i32; 3],
    /// Optional muscle driving all 28 springs of this voxel. A spring shared by several actuated
    /// voxels is driven by the first of them in the list.
    #[serde(default)]
    pub muscle: Option<Muscle>,
    /// Stiffness of this voxel's springs in N/m (default `None`: the body's
    /// [`VoxelBody::stiffness`]); finite and >= 0. A spring shared by voxels of different
    /// stiffness gets the largest of them (the stiffer material wins on a shared edge or face).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub stiffness: Option<f64>,
    /// Material of this voxel (default `None`: the body's [`VoxelBody::material`]); only in a
    /// body that has a material, and not with `stiffness`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub material: Option<Material>,
}

impl Voxel {
    /// A passive voxel at `cell`.
    #[must_use]
    pub fn new(cell: [i32; 3]) -> Self {
        Self {
            cell,
            muscle: None,
            stiffness: None,
            material: None,
        }
    }

    /// The same voxel made of `material` (in a body that has a [`VoxelBody::material`]).
    #[must_use]
    pub fn with_material(self, material: Material) -> Self {
        Self {
            material: Some(material),
            ..self
        }
    }

    /// The same voxel with its own spring stiffness `stiffness` (N/m).
    #[must_use]
    pub fn with_stiffness(self, stiffness: f64) -> Self {
        Self {
            stiffness: Some(stiffness),
            ..self
        }
    }

    /// The same voxel driven by `muscle`.
    #[must_use]
    pub fn with_muscle(self, muscle: Muscle) -> Self {
        Self {
            muscle: Some(muscle),
            ..self
        }
    }
}

/// A body made of cubic voxels (Lipson's "three attached cubes", hinge and lattices; the body of a
/// walking robot when voxels carry muscles).
///
/// Local frame: cell `[x, y, z]` spans `[x, x + 1] * voxel_size` on the x axis (and likewise on y,
/// z). Each distinct corner is one mass of `corner_mass`; every pair of corners of a voxel is joined
/// by one Hooke spring (rest length = initial distance), and a pair shared by several voxels gets
/// one spring only, so a full box of voxels is exactly the benchmark [`Lattice`](super::Lattice)
/// connectivity. Masses and springs are numbered in order of first appearance, walking the voxels
/// in list order, corners in the order `x + 2 y + 4 z` and corner pairs lexicographically.
///
/// # Examples
///
/// ```
/// use hooke::{Builder, Muscle, Voxel, VoxelBody};
///
/// // Lipson's hinge: two cubes sharing one edge, so 2 masses and 1 spring are shared.
/// let hinge = VoxelBody::hinge().build()?;
/// assert_eq!((hinge.masses.len(), hinge.springs.len()), (2 * 8 - 2, 2 * 28 - 1));
///
/// // A 2 x 2 x 1 slab from an occupancy grid; build_voxels also tells which masses make each
/// // voxel. Voxels 0 and 1 are neighbours along x: they share a face of 4 corners.
/// let slab = VoxelBody::from_occupancy([2, 2, 1], &[true; 4])?.build_voxels()?;
/// assert_eq!(slab.part.masses.len(), 3 * 3 * 2);
/// let shared = slab.voxel_masses[0].iter().filter(|m| slab.voxel_masses[1].contains(m));
/// assert_eq!(shared.count(), 4);
///
/// // A muscle drives all 28 springs of its voxel: 10 % of their length, 1 Hz.
/// let muscle = Muscle::new(0.1, std::f64::consts::TAU, 0.0);
/// let voxels = vec![Voxel::new([0, 0, 0]).with_muscle(muscle), Voxel::new([1, 0, 0])];
/// let robot = VoxelBody { voxels, ..VoxelBody::default() }.build()?;
/// assert_eq!(robot.actuators.len(), 28);
/// # Ok::<(), hooke::Error>(())
/// ```
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(default, deny_unknown_fields)]
pub struct VoxelBody {
    /// Edge length of a voxel in m (default 0.1). Finite and > 0.
    pub voxel_size: f64,
    /// Mass of each corner in kg (default 0.1). Finite and > 0.
    pub corner_mass: f64,
    /// Stiffness of every spring in N/m (default 10 000), unless a voxel sets its own
    /// ([`Voxel::stiffness`]). Finite and >= 0.
    pub stiffness: f64,
    /// Axial damping of every spring in N*s/m (default 0). Finite and >= 0.
    pub damping: f64,
    /// The filled cells; at least one, no cell twice.
    pub voxels: Vec<Voxel>,
    /// The material the body is made of (default `None`). When given, it replaces
    /// `corner_mass`, `stiffness` and `damping`: the masses, springs and damping come from the
    /// voxels' materials (each voxel's own [`Voxel::material`], else this one), cell by cell, as
    /// [`Material`] derives.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub material: Option<Material>,
}

impl Default for VoxelBody {
    fn default() -> Self {
        Self {
            voxel_size: 0.1,
            corner_mass: 0.1,
            stiffness: 10_000.0,
            damping: 0.0,
            voxels: vec![Voxel::new([0, 0, 0])],
            material: None,
        }
    }
}

/// What [`VoxelBody::build_voxels`] returns: the part and which masses and springs belong to
/// which voxel.
#[derive(Clone, Debug, PartialEq)]
pub struct VoxelPart {
    /// The masses, springs and actuators.
    pub part: Part,
    /// For voxel `v` (list order), its 8 corner masses in corner order `x + 2 y + 4 z`.
    pub voxel_masses: Vec<[u32; 8]>,
    /// For voxel `v`, its 28 springs (indices into `part.springs`) in corner-pair order; shared
    /// springs appear in every voxel that contains them.
    pub voxel_springs: Vec<[u32; 28]>,
}

impl VoxelBody {
    /// Lipson material (0.1 m voxels, 0.1 kg corners, k = 10 000 N/m, undamped) for the given
    /// cells, all passive.
    #[must_use]
    pub fn from_cells(cells: impl IntoIterator<Item = [i32; 3]>) -> Self {
        Self {
            voxels: cells.into_iter().map(Voxel::new).collect(),
            ..Self::default()
        }
    }

    /// Lipson material for the filled cells of an occupancy grid of `dims = [nx, ny, nz]`
    /// cells, `occupied[(z * ny + y) * nx + x]` telling whether cell `[x, y, z]` is filled.
    ///
    /// # Errors
    /// [`Error::InvalidBuilder`] if `occupied.len() != nx * ny * nz` or a dimension passes
    /// `i32::MAX`.
    pub fn from_occupancy(dims: [usize; 3], occupied: &[bool]) -> Result<Self> {
        let [nx, ny, nz] = dims;
        let len = nx.checked_mul(ny).and_then(|v| v.checked_mul(nz));
        if len != Some(occupied.len()) {
            return Err(invalid(
                "voxels",
                format!(
                    "occupancy grid of {nx} x {ny} x {nz} cells needs that many flags, got {}",
                    occupied.len()
                ),
            ));
        }
        if dims.iter().any(|&d| d > i32::MAX as usize) {
            return Err(invalid("voxels", "grid dimension passes i32::MAX"));
        }
        let mut cells = Vec::new();
        for z in 0..nz {
            for y in 0..ny {
                for x in 0..nx {
                    if occupied[(z * ny + y) * nx + x] {
                        cells.push([x as i32, y as i32, z as i32]);
                    }
                }
            }
        }
        Ok(Self::from_cells(cells))
    }

    /// A full box of `nx x ny x nz` voxels (`(nx+1)(ny+1)(nz+1)` masses), Lipson material.
    #[must_use]
    pub fn lattice(nx: u32, ny: u32, nz: u32) -> Self {
        let mut cells = Vec::with_capacity((nx * ny * nz) as usize);
        for z in 0..nz as i32 {
            for y in 0..ny as i32 {
                for x in 0..nx as i32 {
                    cells.push([x, y, z]);
                }
            }
        }
        Self::from_cells(cells)
    }

    /// Lipson's three attached cubes: three voxels in a row along x (16 masses, 72 springs: 28
    /// per cube, less the 6 springs of each of the two shared faces).
    #[must_use]
    pub fn three_cubes() -> Self {
        Self::from_cells([[0, 0, 0], [1, 0, 0], [2, 0, 0]])
    }

    /// Lipson's hinge: two cubes sharing exactly one edge (the edge along y at
    /// `x = z = voxel_size`), so exactly 2 masses and 1 spring are shared (14 masses, 55 springs).
    #[must_use]
    pub fn hinge() -> Self {
        Self::from_cells([[0, 0, 0], [1, 0, 1]])
    }

    /// The same body with material `voxel_size` (m), `corner_mass` (kg), `stiffness` (N/m) and
    /// `damping` (N*s/m).
    #[must_use]
    pub fn with_material(
        self,
        voxel_size: f64,
        corner_mass: f64,
        stiffness: f64,
        damping: f64,
    ) -> Self {
        Self {
            voxel_size,
            corner_mass,
            stiffness,
            damping,
            ..self
        }
    }

    /// The same body made of `material` (see [`VoxelBody::material`]).
    #[must_use]
    pub fn made_of(self, material: Material) -> Self {
        Self {
            material: Some(material),
            ..self
        }
    }

    /// Builds the part and reports which masses and springs belong to which voxel.
    ///
    /// The masses are numbered in lattice order (by corner `z`, then `y`, then `x`: one voxel's
    /// in corner order `x + 2 y + 4 z`), each spring
    /// runs from its lower-numbered mass to the higher, and the springs are listed by their
    /// masses `(a, b)`: so bodies built from different cells of one grid list their common
    /// springs in the same order (the CPU reference walks such bodies side by side).
    ///
    /// # Errors
    /// [`Error::InvalidParameter`] for a voxel size or corner mass that is not finite and > 0, or
    /// a negative or non-finite stiffness or damping; [`Error::InvalidBuilder`] for an empty voxel
    /// list, a cell listed twice or a muscle with non-finite values or `|amplitude| >= 1`; with a
    /// material, [`Material::validate`]'s errors naming the field, and
    /// [`Error::InvalidBuilder`] for a voxel material in a body without one or a voxel giving
    /// both a material and a stiffness.
    pub fn build_voxels(&self) -> Result<VoxelPart> {
        positive(
            "voxels.voxel_size",
            self.voxel_size,
            "must be finite and > 0 (m)",
        )?;
        positive(
            "voxels.corner_mass",
            self.corner_mass,
            "must be finite and > 0 (kg)",
        )?;
        non_negative(
            "voxels.stiffness",
            self.stiffness,
            "must be finite and >= 0 (N/m)",
        )?;
        non_negative(
            "voxels.damping",
            self.damping,
            "must be finite and >= 0 (N*s/m)",
        )?;
        at_least(
            "voxels.voxels",
            self.voxels.len(),
            1,
            "needs at least one voxel",
        )?;
        let mut seen = FxHashMap::with_capacity_and_hasher(self.voxels.len(), Default::default());
        for (v, voxel) in self.voxels.iter().enumerate() {
            if let Some(first) = seen.insert(voxel.cell, v) {
                return Err(invalid(
                    "voxels",
                    format!("voxel {v} repeats cell {:?} of voxel {first}", voxel.cell),
                ));
            }
            if let Some(m) = &voxel.muscle {
                check_muscle(v, m)?;
            }
            if let Some(k) = voxel.stiffness {
                if !(k.is_finite() && k >= 0.0) {
                    return Err(invalid(
                        "voxels",
                        format!("voxel {v} has stiffness {k} N/m; it must be finite and >= 0"),
                    ));
                }
            }
        }
        fits_u32("voxels", self.voxels.len() * 8)?;
        let materials = self.voxel_materials()?;

        let h = self.voxel_size;
        let mut part = Part::new();
        // About one corner per voxel in a solid block.
        let n = self.voxels.len();
        let mut corner_index: FxHashMap<[i64; 3], u32> =
            FxHashMap::with_capacity_and_hasher(n + n / 2, Default::default());
        // Each spring's slot: its lower corner's mass times 13 plus its direction (`PAIR_SLOTS`),
        // filled as corners appear; near slots for near voxels, so the lookups stay in cache.
        let mut spring_slot: Vec<u32> = Vec::with_capacity(13 * (n + n / 2));
        let mut actuated = Vec::new();
        let mut voxel_masses = Vec::with_capacity(self.voxels.len());
        let mut voxel_springs = Vec::with_capacity(self.voxels.len());
        for voxel in &self.voxels {
            let base = voxel.cell.map(i64::from);
            let corners = CORNERS.map(|c| {
                let key = [base[0] + c[0], base[1] + c[1], base[2] + c[2]];
                *corner_index.entry(key).or_insert_with(|| {
                    let p = DVec3::new(key[0] as f64, key[1] as f64, key[2] as f64) * h;
                    spring_slot.extend([NO_SPRING; 13]);
                    part.add_mass(Mass::new(self.corner_mass, p))
                })
            });
            let k = voxel.stiffness.unwrap_or(self.stiffness);
            let springs = std::array::from_fn(|j| {
                let ((x, y), (lower, direction)) = (CORNER_PAIRS[j], PAIR_SLOTS[j]);
                let slot = corners[lower] as usize * 13 + direction;
                let (a, b) = (corners[x].min(corners[y]), corners[x].max(corners[y]));
                if spring_slot[slot] == NO_SPRING {
                    let rest = part.masses[a as usize]
                        .position
                        .distance(part.masses[b as usize].position);
                    actuated.push(false);
                    spring_slot[slot] =
                        part.add_spring(Spring::hooke(a, b, k, rest).with_damping(self.damping));
                }
                let s = spring_slot[slot];
                // A shared spring takes the stiffer of its voxels' materials.
                let spring = &mut part.springs[s as usize];
                spring.stiffness = spring.stiffness.max(k);
                s
            });
            if let Some(m) = &voxel.muscle {
                for s in springs {
                    if !actuated[s as usize] {
                        actuated[s as usize] = true;
                        part.actuators.push(m.on(s));
                    }
                }
            }
            voxel_masses.push(corners);
            voxel_springs.push(springs);
        }
        let mut built = VoxelPart {
            part,
            voxel_masses,
            voxel_springs,
        };
        built.in_lattice_order(&corner_index);
        if let Some(materials) = materials {
            built.apply_materials(&materials, h)?;
        }
        Ok(built)
    }
}

impl VoxelPart {
    /// Renumbers the masses by corner key (`corner_index`: each corner's key and mass) and lists
    /// the springs by their masses, each from the lower to the higher (see
    /// [`VoxelBody::build_voxels`]); the actuators and the voxels' lists follow.
    fn in_lattice_order(&mut self, corner_index: &FxHashMap<[i64; 3], u32>) {
        let mut corners: Vec<([i64; 3], u32)> = corner_index
            .iter()
            .map(|(&[x, y, z], &m)| ([z, y, x], m))
            .collect();
        corners.sort_unstable();
        let mut mass_of = vec![0u32; corners.len()];
        for (new, &(_, old)) in corners.iter().enumerate() {
            mass_of[old as usize] = new as u32;
        }
        let part = &mut self.part;
        let masses = std::mem::take(&mut part.masses);
        part.masses = corners
            .iter()
            .map(|&(_, old)| masses[old as usize])
            .collect();
        for s in &mut part.springs {
            let (a, b) = (mass_of[s.a as usize], mass_of[s.b as usize]);
            (s.a, s.b) = (a.min(b), a.max(b));
        }
        let mut order: Vec<u32> = (0..part.springs.len() as u32).collect();
        order.sort_unstable_by_key(|&i| (part.springs[i as usize].a, part.springs[i as usize].b));
        let mut spring_of = vec![0u32; order.len()];
        for (new, &old) in order.iter().enumerate() {
            spring_of[old as usize] = new as u32;
        }
        let springs = std::mem::take(&mut part.springs);
        part.springs = order.iter().map(|&old| springs[old as usize]).collect();
        for a in &mut part.actuators {
            a.spring = spring_of[a.spring as usize];
        }
        for m in self.voxel_masses.iter_mut().flatten() {
            *m = mass_of[*m as usize];
        }
        for s in self.voxel_springs.iter_mut().flatten() {
            *s = spring_of[*s as usize];
        }
    }
}

fn check_muscle(voxel: usize, m: &Muscle) -> Result<()> {
    let ok = m.amplitude.is_finite()
        && m.amplitude.abs() < 1.0
        && m.omega.is_finite()
        && m.phase.is_finite()
        && m.duty.is_none_or(|d| {
            d.active.is_finite()
                && d.active > 0.0
                && d.rest.is_finite()
                && d.rest >= 0.0
                && d.offset.is_finite()
        });
    if ok {
        Ok(())
    } else {
        Err(Error::InvalidBuilder {
            builder: "voxels",
            reason: format!(
                "muscle of voxel {voxel}: amplitude must be finite with |amplitude| < 1, omega and phase finite, duty.active > 0, duty.rest >= 0 (got {m:?})"
            ),
        })
    }
}

impl Builder for VoxelBody {
    /// Builds the voxel body (see [`VoxelBody::build_voxels`], which also reports the voxels'
    /// masses and springs).
    fn build(&self) -> Result<Part> {
        Ok(self.build_voxels()?.part)
    }
}
