//! Bad mesh files and voxel sizes: each a clear [`Error::Mesh`] naming the file and what is
//! wrong, returned before any large allocation (mutated files: `robustness/mesh_files.rs`).

use std::path::Path;
use std::time::Instant;

use glam::DVec3;
use hooke::builders::{MeshBody, TriangleMesh};
use hooke::{Builder, Error, Material};

use crate::common::command::scratch;

/// The reason of a [`Error::Mesh`] naming `path`, or the test fails.
fn reason(result: hooke::Result<impl std::fmt::Debug>, path: &Path) -> String {
    match result {
        Err(e @ Error::Mesh { .. }) => {
            let Error::Mesh {
                path: named,
                reason,
            } = &e
            else {
                unreachable!()
            };
            assert_eq!(named, path);
            assert!(e.to_string().contains(&path.display().to_string()), "{e}");
            reason.clone()
        }
        other => panic!("not a mesh error: {other:?}"),
    }
}

fn cube() -> TriangleMesh {
    TriangleMesh::cuboid(DVec3::ZERO, DVec3::splat(0.1))
}

fn closed(mesh: &TriangleMesh, name: &str) -> String {
    let path = Path::new(name);
    reason(mesh.check_closed(path), path)
}

#[test]
fn an_open_mesh_is_named_with_its_edge() {
    let mut mesh = cube();
    mesh.triangles.pop();
    let why = closed(&mesh, "open.obj");
    assert!(why.contains("open (not watertight)"), "{why}");
    assert!(why.contains("edge between vertices"), "{why}");
}

#[test]
fn a_flipped_triangle_is_named() {
    let mut mesh = cube();
    mesh.triangles[3].swap(0, 1);
    let why = closed(&mesh, "flipped.stl");
    assert!(why.contains("orientations disagree"), "{why}");
}

#[test]
fn an_edge_of_four_triangles_is_not_a_manifold() {
    // Two cubes touching along one edge (welded): that edge belongs to four triangles.
    let (a, b) = (
        cube(),
        TriangleMesh::cuboid(DVec3::splat(0.1), DVec3::splat(0.2)),
    );
    let b_edge = TriangleMesh::cuboid(DVec3::new(0.1, 0.0, 0.1), DVec3::new(0.2, 0.1, 0.2));
    let _ = b;
    let mut vertices = a.vertices.clone();
    vertices.extend(&b_edge.vertices);
    let mut triangles = a.triangles.clone();
    triangles.extend(b_edge.triangles.iter().map(|t| t.map(|i| i + 8)));
    let mesh = TriangleMesh::new(&vertices, &triangles).unwrap();
    let why = closed(&mesh, "touching.obj");
    assert!(why.contains("belongs to 4 triangles"), "{why}");
}

#[test]
fn degenerate_triangles_are_named() {
    let mut mesh = cube();
    let [a, b, _] = mesh.triangles[0];
    mesh.triangles[0] = [a, b, b];
    assert!(closed(&mesh, "d.obj").contains("triangle 0 is degenerate: two of its corners"));
    // Three distinct corners on a line: zero area.
    let v = [DVec3::ZERO, DVec3::X, DVec3::X * 2.0, DVec3::Y];
    let line = TriangleMesh::new(&v, &[[0, 1, 2], [0, 2, 3], [2, 1, 3], [1, 0, 3]]).unwrap();
    let why = closed(&line, "line.obj");
    assert!(
        why.contains("triangle 0 is degenerate") && why.contains("one line"),
        "{why}"
    );
    assert!(closed(&TriangleMesh::default(), "none.obj").contains("no triangles"));
}

#[test]
fn a_voxel_giving_too_many_voxels_is_refused_at_once() {
    let start = Instant::now();
    let path = Path::new("fine.stl");
    let why = reason(cube().voxel_cells(1e-6, path), path);
    assert!(why.contains("MAX_BUILT_ELEMENTS"), "{why}");
    // Billions of cells per axis: indices pass 32 bits.
    let why = reason(cube().voxel_cells(1e-12, path), path);
    assert!(why.contains("32 bits"), "{why}");
    for bad in [0.0, -0.01, f64::NAN, f64::INFINITY] {
        assert!(reason(cube().voxel_cells(bad, path), path).contains("finite and > 0"));
    }
    // Refused from the bounding box alone: no grid was allocated (a 1e15-cell grid would take
    // far longer than this, or exhaust memory).
    assert!(start.elapsed().as_secs() < 5);
}

#[test]
fn a_voxel_larger_than_the_shape_is_an_empty_body() {
    // The only nearby centres, (0.5, 0.5, 0.5) and its neighbours, lie outside [0.01, 0.11].
    let mesh = TriangleMesh::cuboid(DVec3::splat(0.01), DVec3::splat(0.11));
    let path = Path::new("small.obj");
    let why = reason(mesh.voxel_cells(1.0, path), path);
    assert!(why.contains("no voxel centre lies inside"), "{why}");
}

/// Writes `bytes` as `name` in a fresh folder and builds a mesh body from it.
fn build_file(test: &str, name: &str, bytes: &[u8]) -> (std::path::PathBuf, hooke::Result<usize>) {
    let path = scratch("mesh_bodies", test).join(name);
    std::fs::write(&path, bytes).unwrap();
    let body = MeshBody::new(&path, 0.02, Material::new(1.0e6, 1000.0));
    (path.clone(), body.build().map(|p| p.masses.len()))
}

#[test]
fn malformed_and_truncated_files_are_named() {
    let stl = cube().to_stl_binary();
    let cases: [(&str, Vec<u8>, &str); 8] = [
        ("cut.stl", stl[..stl.len() - 7].to_vec(), "truncated"),
        (
            "long.stl",
            [&stl[..], b"xx"].concat(),
            "longer than its triangles",
        ),
        (
            "tiny.stl",
            b"abc".to_vec(),
            "shorter than a binary STL header",
        ),
        (
            "count.stl",
            [&stl[..80], &u32::MAX.to_le_bytes()[..], &stl[84..]].concat(),
            "4294967295 triangles",
        ),
        (
            "ascii.stl",
            b"solid x\nfacet normal 0 0 1\nouter loop\nvertex 0 0 zero\n".to_vec(),
            "not a valid ASCII STL file",
        ),
        (
            "face.obj",
            b"v 0 0 0\nv 1 0 0\nv 0 1 0\nf 1 2 9\n".to_vec(),
            "not a valid OBJ",
        ),
        (
            "nan.obj",
            b"v 0 0 nan\nv 1 0 0\nv 0 1 0\nf 1 2 3\n".to_vec(),
            "not finite",
        ),
        ("cube.ply", b"ply\n".to_vec(), "neither .obj nor .stl"),
    ];
    for (name, bytes, says) in cases {
        let (path, result) = build_file("malformed", name, &bytes);
        let why = reason(result, &path);
        assert!(why.contains(says), "{name}: {why}");
    }
}

#[test]
fn a_mesh_file_past_the_input_limit_is_refused_before_reading() {
    // A sparse file of 300 MB (no bytes written): refused from its size, never read.
    let path = scratch("mesh_bodies", "limit").join("huge.stl");
    std::fs::File::create(&path)
        .unwrap()
        .set_len(300 << 20)
        .unwrap();
    let body = MeshBody::new(&path, 0.02, Material::new(1.0e6, 1000.0));
    match body.build() {
        Err(Error::InputTooLarge {
            path: named, size, ..
        }) => {
            assert_eq!((named, size), (path, 300 << 20));
        }
        other => panic!("not InputTooLarge: {other:?}"),
    }
}
