//! Bodies from triangle meshes: the voxelizer's cells against exact counts and analytic
//! volumes, its tie rules and determinism (`voxels.rs`); bad mesh files, each a clear error
//! (`bad_input.rs`); mesh bodies in scene files, the CLI and on the GPU (`scenes.rs`); their own
//! surfaces drawn (`surfaces.rs`).

mod bad_input;
mod scenes;
mod surfaces;
mod voxels;

use std::path::Path;

use hooke::builders::TriangleMesh;

/// The cells of `mesh` at voxel size `a`, the mesh checked closed first.
fn cells(mesh: &TriangleMesh, a: f64) -> Vec<[i32; 3]> {
    let name = Path::new("<test>");
    mesh.check_closed(name).unwrap();
    mesh.voxel_cells(a, name).unwrap()
}
