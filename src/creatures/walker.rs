//! A walking robot made of voxels and actuators (Lipson, "combine linkage mechanisms and
//! actuators to create a walking robot").

use std::collections::BTreeSet;

use glam::{DMat3, DVec3};
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use super::creature::Creature;
use super::deformation::Deformation;
use crate::builders::{Voxel, VoxelBody};
use crate::error::Result;
use crate::model::{Contact, Friction, Params};
use crate::validate::{at_least, buildable, fraction, non_negative, positive};

/// A four-legged voxel robot that trots forward along +x.
///
/// Body: a slab of `body_length x body_width x 1` voxels of edge `voxel_size`, lifted on four
/// legs, each a column of `leg_height` voxels under a corner of the slab (cells
/// `[0 or body_length - 1, 0 or body_width - 1, 0..leg_height]`). All voxels are the
/// [`VoxelBody`] kind: a mass at each corner, every pair of a voxel's corners joined by a damped
/// Hooke spring.
///
/// Gait: every spring of a leg is an actuator (a muscle) whose rest length follows one
/// [`Deformation`] of the leg: a vertical stretch `lift sin(omega t)` and a shear
/// `-stride cos(omega t)` that moves the foot along x by `stride * leg height` a quarter
/// period out of step with the stretch. The foot therefore runs round an ellipse: it pushes
/// backward while the leg is long and loaded, and swings forward while the leg is short and the
/// other legs carry the body. Diagonal legs move together and the two diagonal pairs half a
/// period apart (a trot), so the load really shifts from pair to pair on a four-footed table.
/// Only the legs' own springs are actuated; the slab is passive.
///
/// Each cycle carries the robot about 8 cm, about twice the `2 stride h = 4 cm` shear stroke of
/// a foot (the legs' stretch and the slab's rocking between the diagonal pairs add to it); with
/// either `stride = 0` or `lift = 0` it does not move at all.
///
/// Measured on the CPU reference with the default parameters (body 0.4 m long): the centre of
/// mass moves 1.57 m forward in 10 s (3.9 body lengths) and drifts 0.27 m sideways (a trot is not
/// mirror-symmetric). `tests/integration/creatures.rs` asserts at least one body length (0.4 m) forward in
/// 10 s, less sideways drift than half the forward distance, and no motion at all with
/// `stride = 0` (lifting alone is symmetric front to back).
///
/// # Examples
///
/// ```
/// use hooke::creatures::WalkingRobot;
///
/// let robot = WalkingRobot::default().build()?;
/// // A 4 x 3 slab (5 x 4 x 2 corners) on four one-voxel legs (4 feet corners each): 16 voxels.
/// assert_eq!((robot.part.masses.len(), robot.cells.len()), (5 * 4 * 2 + 4 * 4, 16));
/// assert_eq!(robot.part.min_z(), Some(0.0)); // feet on the ground
/// assert_eq!(robot.length, 0.4); // m, what its distance is measured against
///
/// // Its first 0.1 s, sampled at 0, 0.05 and 0.1 s: the first stride already carries it forward.
/// let trace = robot.run(0.1, 0.05)?;
/// assert_eq!(trace.time.len(), 3);
/// assert!(trace.forward_distance() > 0.0);
/// # Ok::<(), hooke::Error>(())
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(default, deny_unknown_fields)]
pub struct WalkingRobot {
    /// Edge of a voxel in m (default 0.1). Finite and > 0.
    pub voxel_size: f64,
    /// Mass of each voxel corner in kg (default 0.1). Finite and > 0.
    pub corner_mass: f64,
    /// Stiffness of every spring in N/m (default 10 000, Lipson). Finite and >= 0.
    pub stiffness: f64,
    /// Axial damping of every spring in N*s/m (default 2). Finite and >= 0.
    pub damping: f64,
    /// Body length in voxels along x (default 4); at least 3, so front and back legs share no
    /// springs.
    pub body_length: u32,
    /// Body width in voxels along y (default 3); at least 3, so left and right legs share no
    /// springs.
    pub body_width: u32,
    /// Leg height in voxels (default 1); at least 1.
    pub leg_height: u32,
    /// Gait angular frequency in rad/s (default 4 pi, a 2 Hz stride). Finite and > 0.
    pub omega: f64,
    /// Amplitude of the legs' vertical strain (default 0.1, so a 0.1 m leg varies by +-1 cm).
    /// Finite, in [0, 0.5).
    pub lift: f64,
    /// Amplitude of the legs' shear strain (default 0.2, so a foot swings +-2 cm under a 0.1 m
    /// leg). Finite, in [0, 0.5).
    pub stride: f64,
    /// Ground friction (default Coulomb, mu_s = 1.0, mu_k = 0.8: rubber feet on a hard floor).
    /// Not in scene files: a scene's `params` apply.
    #[serde(skip)]
    pub friction: Friction,
    /// Ground contact (default penalty, k_c = 100 000 N/m as in Lipson, with 50 N*s/m of normal
    /// damping so that feet do not chatter). Not in scene files.
    #[serde(skip)]
    pub contact: Contact,
    /// Time step in s (default 1e-4, Lipson). Finite and > 0. Not in scene files.
    #[serde(skip)]
    pub dt: f64,
}

impl Default for WalkingRobot {
    fn default() -> Self {
        Self {
            voxel_size: 0.1,
            corner_mass: 0.1,
            stiffness: 10_000.0,
            damping: 2.0,
            body_length: 4,
            body_width: 3,
            leg_height: 1,
            omega: 4.0 * std::f64::consts::PI,
            lift: 0.1,
            stride: 0.2,
            friction: Friction::coulomb(1.0, 0.8),
            contact: Contact::Penalty {
                stiffness: 100_000.0,
                damping: 50.0,
            },
            dt: 1e-4,
        }
    }
}

impl WalkingRobot {
    /// Builds the robot standing with its feet on the ground (`z = 0`), its back legs at `x = 0`,
    /// facing +x, with the parameters it was tuned for.
    ///
    /// # Errors
    /// [`Error::InvalidParameter`](crate::Error::InvalidParameter) for a voxel size, corner mass,
    /// omega or dt that is not finite and > 0, a negative or non-finite stiffness or damping,
    /// `body_length` or `body_width` below 3, `leg_height` below 1, `lift` or `stride` outside [0,
    /// 0.5); the errors of [`Params::validate`] for bad friction or contact.
    pub fn build(&self) -> Result<Creature> {
        positive(
            "walker.voxel_size",
            self.voxel_size,
            "must be finite and > 0 (m)",
        )?;
        positive(
            "walker.corner_mass",
            self.corner_mass,
            "must be finite and > 0 (kg)",
        )?;
        non_negative(
            "walker.stiffness",
            self.stiffness,
            "must be finite and >= 0 (N/m)",
        )?;
        non_negative(
            "walker.damping",
            self.damping,
            "must be finite and >= 0 (N*s/m)",
        )?;
        positive("walker.omega", self.omega, "must be finite and > 0 (rad/s)")?;
        fraction("walker.lift", self.lift, 0.5, "must lie in [0, 0.5)")?;
        fraction("walker.stride", self.stride, 0.5, "must lie in [0, 0.5)")?;
        for (name, value, min) in [
            ("walker.body_length", self.body_length, 3),
            ("walker.body_width", self.body_width, 3),
            ("walker.leg_height", self.leg_height, 1),
        ] {
            let expected = if min == 3 {
                "must be at least 3 voxels"
            } else {
                "must be at least 1 voxel"
            };
            at_least(name, value as usize, min as usize, expected)?;
        }
        // Up to 8 masses and 28 springs per voxel of the body and the legs.
        let voxels = f64::from(self.body_length)
            * f64::from(self.body_width)
            * (f64::from(self.leg_height) + 1.0);
        // The largest count is named: it is the one to shrink.
        let largest = [
            ("walker.body_length", self.body_length),
            ("walker.body_width", self.body_width),
            ("walker.leg_height", self.leg_height),
        ]
        .into_iter()
        .max_by_key(|&(_, n)| n)
        .unwrap_or(("walker.body_length", self.body_length));
        buildable(largest.0, f64::from(largest.1), 36.0 * voxels)?;
        let params = Params {
            dt: self.dt,
            friction: self.friction,
            contact: self.contact,
            ..Params::default()
        };
        params.validate()?;

        let (nx, ny, nh) = (
            self.body_length as i32,
            self.body_width as i32,
            self.leg_height as i32,
        );
        let mut voxels = Vec::new();
        for y in 0..ny {
            for x in 0..nx {
                voxels.push(Voxel::new([x, y, nh]));
            }
        }
        // Legs, in trot group order: back-left and front-right (group 0), back-right and
        // front-left (group 1).
        let legs = [
            (0, 0, 0),
            (nx - 1, ny - 1, 0),
            (0, ny - 1, 1),
            (nx - 1, 0, 1),
        ];
        let mut leg_voxels = Vec::new();
        for &(x, y, group) in &legs {
            for z in 0..nh {
                leg_voxels.push((voxels.len(), group));
                voxels.push(Voxel::new([x, y, z]));
            }
        }
        let built = VoxelBody {
            voxel_size: self.voxel_size,
            corner_mass: self.corner_mass,
            stiffness: self.stiffness,
            damping: self.damping,
            voxels,
            material: None,
        }
        .build_voxels()?;
        let mut part = built.part;

        // The leg's deformation: vertical stretch (z, z) on the sine, shear (x, z) on the cosine.
        let stretch = DMat3::from_cols(DVec3::ZERO, DVec3::ZERO, DVec3::new(0.0, 0.0, self.lift));
        let shear = DMat3::from_cols(DVec3::ZERO, DVec3::ZERO, DVec3::new(-self.stride, 0.0, 0.0));
        for group in 0..2 {
            let gait = Deformation {
                sin_part: stretch,
                cos_part: shear,
                omega: self.omega,
                phase: 0.5 * f64::from(group),
                duty: None,
            };
            let springs: BTreeSet<u32> = leg_voxels
                .iter()
                .filter(|&&(_, g)| g == group)
                .flat_map(|&(v, _)| built.voxel_springs[v])
                .collect();
            gait.actuate(&mut part, springs);
        }
        Ok(Creature::new("walking robot", part, params).with_cells(built.voxel_masses))
    }
}
