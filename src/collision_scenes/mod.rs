//! Ready-made scenes of bodies that touch: two jelly cubes colliding head-on, a pile of
//! soft bodies in a box, and a cloth falling on a sphere. Each is a parameter struct with a size
//! knob whose [`scene`](HeadOnCubes::scene) method returns a [`Scene`](crate::Scene) (so it saves
//! as a scene file and runs with `hooke run`) and whose `model` method returns the
//! [`Model`](crate::Model); the defaults are the sizes of the `collisions` example, and tests use
//! smaller ones.
//!
//! | scene | what | default size |
//! |---|---|---|
//! | [`HeadOnCubes`] | two jelly lattices closing at 1 m/s in free space, bouncing apart | 2 x 216 masses |
//! | [`Pile`] | soft cubes, lattices and random blobs dropped into a box of four walls on the ground, friction on | 50 bodies, 1423 masses |
//! | [`ClothOnSphere`] | a square cloth dropped on a ball on the ground: it drapes and folds onto itself | 40 x 40 masses |
//!
//! Every mass of every body carries a collision radius (half the body's mass spacing or more,
//! so that no mass of another body fits between two neighbours); `Params::collision` sets the
//! pair force. Each struct has its own `dt`, chosen below [`Model::stable_dt`](crate::Model::stable_dt)
//! with the margin its docs derive: the estimate counts the collision stiffness once per mass,
//! while a mass in a pile or a fold can touch several others at once.
//!
//! ```
//! use hooke::collision_scenes::Pile;
//! use hooke::scene::PileLayout;
//! use hooke::CpuWorld;
//!
//! // A small pile: 6 bodies in a 0.25 m box (tests use sizes like this).
//! let layout = PileLayout { bodies: 6, width: 0.25, ..PileLayout::default() };
//! let pile = Pile { layout, ..Pile::default() };
//! let model = pile.model()?;
//! assert_eq!(model.bodies.len(), 6);
//! assert_eq!(model.obstacles.len(), 4); // the walls; the ground is the floor
//! assert!(model.params.dt < model.stable_dt().dt);
//! let mut world = CpuWorld::new(&model)?;
//! world.step(100)?;
//! # Ok::<(), hooke::Error>(())
//! ```

mod cloth_on_sphere;
mod head_on;
mod pile;

pub use crate::scene::PileBody;
pub use cloth_on_sphere::ClothOnSphere;
pub use head_on::HeadOnCubes;
pub use pile::Pile;
