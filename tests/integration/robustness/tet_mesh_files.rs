//! Tetrahedral mesh files cut short and overwritten: reading them and building a body returns a
//! body or an error naming the file, never a panic, a hang or a huge allocation.

use std::path::Path;
use std::time::Instant;

use hooke::builders::{TetMesh, TetMeshBody};
use hooke::Material;
use proptest::prelude::*;

/// A small valid file of each format, for the mutations below.
fn valid_files() -> [Vec<u8>; 2] {
    let mesh = TetMesh::box_lattice([2, 2, 1], 0.01).unwrap();
    [mesh.to_msh().into_bytes(), mesh.to_msh2().into_bytes()]
}

proptest! {
    #![proptest_config(super::config(64))]

    /// Cut short, bytes overwritten (digits most often, so that counts and tags change):
    /// whatever the file has become, reading it and building its body returns (a body, or an
    /// error naming the file), never a panic, and quickly.
    #[test]
    fn mutated_tet_mesh_files_never_panic(
        which in 0usize..2,
        cut in 0.0f64..1.0,
        edits in proptest::collection::vec(
            (0.0f64..1.0, prop_oneof![b'0'..=b'9', Just(b' '), Just(b'\n'), Just(b'-'), any::<u8>()]),
            0..6,
        ),
    ) {
        let mut bytes = valid_files()[which].clone();
        for (at, byte) in edits {
            let i = (at * bytes.len() as f64) as usize % bytes.len();
            bytes[i] = byte;
        }
        bytes.truncate(((1.0 - cut * cut) * bytes.len() as f64) as usize);
        let path = Path::new("m.msh");
        let start = Instant::now();
        match TetMesh::from_msh(&bytes, path) {
            Ok(mesh) => {
                let part = TetMeshBody::new(path, Material::new(1.0e6, 1000.0)).part(&mesh);
                prop_assert!(part.is_ok(), "{part:?}");
            }
            Err(hooke::Error::Mesh { path: named, .. }) => prop_assert_eq!(named, path),
            Err(other) => prop_assert!(false, "not a mesh error: {other}"),
        }
        prop_assert!(start.elapsed().as_secs_f64() < 2.0, "took {:?}", start.elapsed());
    }
}
