//! Mesh files cut short and overwritten: reading, checking and voxelizing them returns a mesh
//! or an error naming the file, never a panic, a hang or a huge allocation.

use std::path::Path;

use hooke::builders::TriangleMesh;
use proptest::prelude::*;

/// A small valid file of each format, for the mutations below.
fn valid_files() -> [(&'static str, Vec<u8>); 3] {
    let mesh = TriangleMesh::icosphere(0.05, 1);
    [
        ("m.obj", mesh.to_obj().into_bytes()),
        ("m.stl", mesh.to_stl_binary()),
        ("m.stl", mesh.to_stl_ascii().into_bytes()),
    ]
}

proptest! {
    #![proptest_config(super::config(48))]

    /// Cut short, bytes overwritten: whatever the file has become, reading, checking and
    /// voxelizing it returns (a mesh, or an error naming it), never a panic.
    #[test]
    fn mutated_mesh_files_never_panic(
        which in 0usize..3,
        cut in 0.0f64..1.0,
        edits in proptest::collection::vec((0.0f64..1.0, any::<u8>()), 0..6),
    ) {
        let (name, mut bytes) = valid_files()[which].clone();
        for (at, byte) in edits {
            let i = (at * bytes.len() as f64) as usize % bytes.len();
            bytes[i] = byte;
        }
        bytes.truncate(((1.0 - cut * cut) * bytes.len() as f64) as usize);
        let path = Path::new(name);
        let read = if name.ends_with(".obj") {
            TriangleMesh::from_obj(&bytes, path)
        } else {
            TriangleMesh::from_stl(&bytes, path)
        };
        if let Ok(mesh) = read {
            if mesh.check_closed(path).is_ok() {
                let _ = mesh.voxel_cells(0.01, path);
            }
        }
    }
}
