//! The colliding masses as device records (`GpuCollider`), their spring neighbours (pairs that
//! never collide) and the pair force of each pair of classes: the tables of the collision pass
//! (`kernels/collisions.rs`), a function of the model alone.

use crate::gpu::layout::{GpuCollide, GpuCollider, NONE};
use crate::model::collision_exclusions;
use crate::model::Model;

/// The grid's cells are this much wider than the largest collision diameter, so that f32
/// rounding of `p / cell` can never put two touching masses two cells apart: the rounding of
/// `floor(p * inverse_cell)` is at most an ulp of `p * inverse_cell`, below `2^-6` while masses
/// stay within `2^17` cells of the origin (with the margin `2^-5` of a cell, no pair is missed
/// there; beyond, a pair within 3 % of contact could be).
const CELL_MARGIN: f64 = 1.0 + 1.0 / 32.0;

/// The colliding masses as the device reads them.
#[derive(Clone, Debug)]
pub(crate) struct CollisionTables {
    pub(crate) params: GpuCollide,
    /// The pair force of each pair of classes: (stiffness (N/m), damping (N*s/m), friction, 0).
    pub(crate) pair_table: Vec<[f64; 4]>,
    pub(crate) colliders: Vec<GpuCollider>,
    /// Spring neighbours among the colliding masses (mass indices, sorted per collider).
    pub(crate) joined: Vec<u32>,
}

impl CollisionTables {
    /// The tables of `model`, or `None` when no mass has a collision radius. The grid's
    /// bucket count (`params.buckets`, 0 here) is the plan's ([`crate::gpu::plan::GridPlan`]).
    pub(crate) fn new(model: &Model) -> Option<Self> {
        model.first_colliding_mass()?;
        let radius: Vec<f64> = model.masses.iter().map(|m| m.collision_radius).collect();
        let (starts, joined) = collision_exclusions(model, &radius);
        let mut body = vec![NONE; radius.len()];
        for (b, range) in model.bodies.iter().enumerate() {
            if !range.self_collision {
                body[range.masses.clone()].fill(b as u32);
            }
        }
        let colliders: Vec<GpuCollider> = model
            .masses
            .iter()
            .enumerate()
            .filter(|(_, m)| m.collision_radius > 0.0)
            .map(|(i, m)| GpuCollider {
                mass: i as u32,
                radius: m.collision_radius,
                group: m.collision_group,
                mask: m.collision_mask,
                body: body[i],
                joined_first: starts[i],
                joined_end: starts[i + 1],
                collision_class: m.collision_class,
                ..Default::default()
            })
            .collect();
        let largest = radius.iter().copied().fold(0.0, f64::max);
        let members = colliders.len() as u64;
        let pair_table = model
            .collision_table()
            .iter()
            .map(|c| [c.stiffness, c.damping, c.friction, 0.0])
            .collect();
        Some(Self {
            params: GpuCollide {
                dt: model.params.dt,
                inverse_cell: 1.0 / (2.0 * largest * CELL_MARGIN),
                members: members as u32,
                largest,
                ..GpuCollide::default()
            },
            pair_table,
            colliders,
            joined,
        })
    }
}
