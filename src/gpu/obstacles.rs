//! The model's obstacles as device records: the obstacle table (`GpuObstacle`, one per
//! obstacle, read by `shaders/shared/obstacles.wgsl`), the obstacle words (the broad-phase
//! grid's lists, then the heightfields' samples), and the check that every obstacle value fits
//! the GPU's f32. The CPU twin of the table is `cpu::obstacles::Solids`.
//!
//! A shape kind's GPU side is this file (its tag in `shape_tags!`, how it fills the record in
//! `geometry`, its f32 range check in `check_shape`) and `shaders/shared/obstacles.wgsl` (its
//! signed distance and normal, and its arm of `surface`).

use glam::{DQuat, DVec3};

use crate::error::{Error, Result};
use crate::gpu::layout::{self, GpuObstacle};
use crate::gpu::real::Precision;
use crate::gpu::tables::f32_range::{fits_f32, fits_f32_vec};
use crate::model::{Contact, FrictionRule, Obstacle, ObstacleGrid, Shape};

/// Declares the `GpuObstacle::shape` tags, one per [`Shape`] kind, and [`SHAPE_TAGS`], the list
/// the WGSL constants of `shaders/shared/obstacles.wgsl` are generated from ([`shape_wgsl`]).
macro_rules! shape_tags {
    ($($name:ident = $tag:literal),* $(,)?) => {
        $(pub(crate) const $name: u32 = $tag;)*
        /// Every shape tag: (WGSL name, value).
        pub(crate) const SHAPE_TAGS: &[(&str, u32)] = &[$((stringify!($name), $name)),*];
    };
}

shape_tags!(
    SHAPE_PLANE = 0,
    SHAPE_BOX = 1,
    SHAPE_ORIENTED_BOX = 2,
    SHAPE_SPHERE = 3,
    SHAPE_CAPSULE = 4,
    SHAPE_HEIGHTFIELD = 5,
);

/// The WGSL `const` of every shape tag, put in front of `shaders/shared/obstacles.wgsl`.
pub(crate) fn shape_wgsl() -> String {
    SHAPE_TAGS
        .iter()
        .map(|(name, tag)| format!("const {name}: u32 = {tag}u;\n"))
        .collect()
}

/// The device's obstacle table and obstacle words: the grid's `starts` (offsets into the words)
/// and `items` (obstacle indices), then the heightfields' samples (m relative to each origin's z,
/// one heightfield after another): f32 bits in [`Precision::F32`], f64 bits as (low word, high
/// word) in [`Precision::F64`] (WGSL `REAL_WORDS` words per sample, `real_of_words`).
#[derive(Clone, Debug)]
pub(crate) struct ObstacleTable {
    pub(crate) records: Vec<GpuObstacle>,
    pub(crate) words: Vec<u32>,
    /// The broad-phase grid (its origin, cell and size reach the kernels as overrides).
    pub(crate) grid: ObstacleGrid,
}

impl ObstacleTable {
    /// The table of `obstacles`, in model order, for kernels in `precision`.
    pub(crate) fn new(obstacles: &[Obstacle], precision: Precision) -> Self {
        let bounds: Vec<_> = obstacles.iter().map(|ob| ob.shape.bounds()).collect();
        let grid = ObstacleGrid::new(&bounds);
        let lists = grid.starts.len() as u32;
        let mut words: Vec<u32> = grid.starts.iter().map(|s| s + lists).collect();
        words.extend_from_slice(&grid.items);
        let mut table = Self {
            records: Vec::new(),
            words,
            grid,
        };
        for ob in obstacles {
            let mut record = contact_record(ob);
            geometry(&ob.shape, &mut record, &mut table.words, precision);
            let (lo, hi) = ob
                .shape
                .bounds()
                .unwrap_or((DVec3::NEG_INFINITY, DVec3::INFINITY));
            // Rounded outward to f32 in both precisions (exact in f64): bounds only cull.
            record.lo = outward(lo, f32::next_down).map(f64::from);
            record.hi = outward(hi, f32::next_up).map(f64::from);
            table.records.push(record);
        }
        table
    }
}

/// `v` in f32, each coordinate moved one step by `step` unless rounding already went that way,
/// so that the f32 bounds enclose the f64 ones (infinite coordinates stay infinite).
fn outward(v: DVec3, step: fn(f32) -> f32) -> [f32; 4] {
    let round = |x: f64| {
        let r = x as f32;
        if f64::from(r) == x || !r.is_finite() {
            r
        } else {
            step(r)
        }
    };
    [round(v.x), round(v.y), round(v.z), 0.0]
}

/// The record's contact and friction part.
fn contact_record(ob: &Obstacle) -> GpuObstacle {
    let (contact, stiffness, damping, restitution) = match ob.contact {
        Contact::None => (layout::CONTACT_NONE, 0.0, 0.0, 0.0),
        Contact::Penalty { stiffness, damping } => {
            (layout::CONTACT_PENALTY, stiffness, damping, 0.0)
        }
        Contact::Restitution { restitution } => {
            (layout::CONTACT_RESTITUTION, 0.0, 0.0, restitution)
        }
    };
    let f = &ob.friction;
    GpuObstacle {
        contact,
        friction_rule: match f.rule {
            FrictionRule::Coulomb => layout::FRICTION_COULOMB,
            FrictionRule::Naive => layout::FRICTION_NAIVE,
        },
        stiffness,
        damping,
        restitution,
        rest_speed: f.rest_speed,
        static_friction: f.static_coefficient,
        kinetic_friction: f.kinetic_coefficient,
        ..GpuObstacle::default()
    }
}

/// `(v, w)` as a WGSL `vec4<Real>`.
fn v4(v: DVec3, w: f64) -> [f64; 4] {
    v.extend(w).to_array()
}

/// Fills the record's shape part; a heightfield's samples go to the end of `words`.
fn geometry(shape: &Shape, r: &mut GpuObstacle, words: &mut Vec<u32>, precision: Precision) {
    match shape {
        Shape::Plane { normal, offset } => {
            r.shape = SHAPE_PLANE;
            r.a = v4(normal.normalize(), *offset);
        }
        Shape::Box {
            centre,
            half_extents,
        } => {
            r.shape = SHAPE_BOX;
            r.a = v4(*centre, 0.0);
            r.b = v4(*half_extents, 0.0);
        }
        Shape::OrientedBox {
            centre,
            half_extents,
            rotation,
        } => {
            r.shape = SHAPE_ORIENTED_BOX;
            r.a = v4(*centre, 0.0);
            r.b = v4(*half_extents, 0.0);
            let q = DQuat::from_scaled_axis(*rotation);
            r.rotation = [q.x, q.y, q.z, q.w];
        }
        Shape::Sphere { centre, radius } => {
            r.shape = SHAPE_SPHERE;
            r.a = v4(*centre, *radius);
        }
        Shape::Capsule { a, b, radius } => {
            r.shape = SHAPE_CAPSULE;
            r.a = v4(*a, *radius);
            r.b = v4(*b, 0.0);
        }
        Shape::Heightfield(h) => {
            r.shape = SHAPE_HEIGHTFIELD;
            r.a = v4(h.origin, 0.0);
            r.b = [h.spacing.x, h.spacing.y, 0.0, 0.0];
            r.columns = h.columns as u32;
            r.rows = h.rows as u32;
            r.first_height = words.len() as u32;
            for &z in &h.heights {
                match precision {
                    Precision::F32 => words.push((z as f32).to_bits()),
                    Precision::F64 => {
                        let bits = z.to_bits();
                        words.extend([bits as u32, (bits >> 32) as u32]);
                    }
                }
            }
        }
    }
}

/// Checks that the samples of all heightfields of the (validated) `obstacles` together can be
/// indexed by a u32 in `precision` (one word per sample in f32, two in f64) and, in
/// [`Precision::F32`], that every value the device holds is finite in f32 and a heightfield's
/// spacing is a normal f32 (the kernel divides by it).
///
/// # Errors
/// [`Error::OutOfF32Range`] naming the obstacle and field;
/// [`Error::InvalidObstacle`] for heightfields with more than `u32::MAX` samples in all.
pub(crate) fn check_obstacles(obstacles: &[Obstacle], precision: Precision) -> Result<()> {
    let mut samples = 0usize;
    let words = precision.real_bytes() as usize / 4;
    for (i, ob) in obstacles.iter().enumerate() {
        let element = || format!("obstacle {i}");
        let (k, c, e) = match ob.contact {
            Contact::None => (0.0, 0.0, 0.0),
            Contact::Penalty { stiffness, damping } => (stiffness, damping, 0.0),
            Contact::Restitution { restitution } => (0.0, 0.0, restitution),
        };
        let f = &ob.friction;
        for (field, v) in [
            ("contact.stiffness", k),
            ("contact.damping", c),
            ("contact.restitution", e),
            ("friction.static_coefficient", f.static_coefficient),
            ("friction.kinetic_coefficient", f.kinetic_coefficient),
            ("friction.rest_speed", f.rest_speed),
        ] {
            if precision == Precision::F32 {
                fits_f32(element, field, v)?;
            }
        }
        if precision == Precision::F32 {
            check_shape(&ob.shape, element)?;
        }
        if let Shape::Heightfield(h) = &ob.shape {
            samples += h.heights.len();
            if samples * words > u32::MAX as usize {
                return Err(Error::InvalidObstacle {
                    obstacle: i,
                    reason: format!(
                        "the heightfields hold {samples} samples up to this one; the GPU \
                         indexes at most {} in all in {precision:?}",
                        u32::MAX as usize / words
                    ),
                });
            }
        }
    }
    Ok(())
}

/// The f32 shape part of [`check_obstacles`].
fn check_shape(shape: &Shape, element: impl Fn() -> String) -> Result<()> {
    match shape {
        Shape::Plane { normal, offset } => {
            fits_f32_vec(&element, "normal", *normal)?;
            fits_f32(&element, "offset", *offset)
        }
        Shape::Box {
            centre,
            half_extents,
        }
        | Shape::OrientedBox {
            centre,
            half_extents,
            ..
        } => {
            fits_f32_vec(&element, "centre", *centre)?;
            fits_f32_vec(&element, "half_extents", *half_extents + centre.abs())
        }
        Shape::Sphere { centre, radius } => {
            fits_f32_vec(&element, "centre", *centre)?;
            fits_f32(&element, "radius", *radius + centre.abs().max_element())
        }
        Shape::Capsule { a, b, radius } => {
            fits_f32_vec(&element, "a", *a)?;
            fits_f32_vec(&element, "b", *b)?;
            fits_f32(
                &element,
                "radius",
                *radius + a.abs().max(b.abs()).max_element(),
            )
        }
        Shape::Heightfield(h) => {
            fits_f32_vec(&element, "origin", h.origin + h.extent().extend(0.0))?;
            for (j, &z) in h.heights.iter().enumerate() {
                fits_f32(&element, "heights", z)
                    .map_err(|_| out_of_range(&element, format!("heights[{j}]"), z))?;
            }
            for v in [h.spacing.x, h.spacing.y] {
                if !(v as f32).is_normal() {
                    return Err(out_of_range(&element, "spacing".to_string(), v));
                }
            }
            Ok(())
        }
    }
}

fn out_of_range(element: impl Fn() -> String, field: String, value: f64) -> Error {
    Error::OutOfF32Range {
        element: format!("{} ({field})", element()),
        field: "heightfield",
        value,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::{Friction, Heightfield};
    use glam::DVec2;

    /// The f32 bounds enclose the f64 bounds even where rounding goes inward.
    #[test]
    fn f32_bounds_round_outward() {
        let ob = Obstacle::new(
            Shape::Sphere {
                centre: DVec3::splat(0.1),
                radius: 0.3,
            },
            Contact::default(),
            Friction::NONE,
        );
        let t = ObstacleTable::new(std::slice::from_ref(&ob), Precision::F32);
        let (lo, hi) = ob.shape.bounds().unwrap();
        for k in 0..3 {
            assert!(t.records[0].lo[k] <= lo[k]);
            assert!(t.records[0].hi[k] >= hi[k]);
            // They narrow to f32 exactly.
            assert_eq!(f64::from(t.records[0].lo[k] as f32), t.records[0].lo[k]);
        }
    }

    /// Heightfield samples go one table after another after the grid's lists, each record
    /// pointing at its first.
    #[test]
    fn heightfields_share_one_sample_table() {
        let h = |z: f64| {
            Shape::Heightfield(Heightfield::from_fn(
                DVec3::ZERO,
                DVec2::ONE,
                2,
                3,
                move |_, _| z,
            ))
        };
        let obs: Vec<Obstacle> = [h(1.0), Shape::GROUND, h(2.0)]
            .into_iter()
            .map(|s| Obstacle::new(s, Contact::default(), Friction::NONE))
            .collect();
        let t = ObstacleTable::new(&obs, Precision::F32);
        let first = t.records[0].first_height as usize;
        let samples: Vec<f32> = t.words[first..]
            .iter()
            .map(|&w| f32::from_bits(w))
            .collect();
        assert_eq!(
            samples,
            [1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 2.0, 2.0, 2.0, 2.0, 2.0, 2.0]
        );
        assert_eq!(t.records[2].first_height as usize, first + 6);
        assert_eq!(first, t.grid.starts.len() + t.grid.items.len());
        assert_eq!(t.records[1].lo[2], f64::NEG_INFINITY);
        // In f64, two words per sample, the f64 bits.
        let t = ObstacleTable::new(&obs, Precision::F64);
        let first = t.records[0].first_height as usize;
        assert_eq!(t.records[2].first_height as usize, first + 12);
        let w = &t.words[first + 10..first + 12];
        assert_eq!(
            f64::from_bits(u64::from(w[0]) | (u64::from(w[1]) << 32)),
            1.0
        );
    }
}
