//! Bodies from tetrahedral meshes: Gmsh files read and bad ones named (`read.rs`), bars under
//! tension against the derived stiffness of the lattice and the material's `E` (`tension.rs`),
//! tetrahedral bodies in scene files, the CLI and on the GPU (`scenes.rs`).

mod read;
mod scenes;
mod tension;
