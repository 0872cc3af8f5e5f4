//! The numbers that decide which masses collide: the collision classes, and the default group
//! and mask of a [`Mass`](super::Mass). A leaf with no imports, so the errors can name the limit.

/// Collision classes: every [`Mass::collision_class`](super::Mass::collision_class) is below this.
pub const COLLISION_CLASSES: u32 = 16;

/// The default [`Mass::collision_group`](super::Mass::collision_group): group 0 (bit 0).
pub const COLLISION_GROUP_DEFAULT: u32 = 1;
/// The default [`Mass::collision_mask`](super::Mass::collision_mask): every group.
pub const COLLISION_MASK_ALL: u32 = u32::MAX;
