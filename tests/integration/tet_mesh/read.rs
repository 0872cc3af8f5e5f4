//! Gmsh files read (format 4.1 with the sections and element kinds Gmsh writes, and 2.2), and
//! bad ones: each a clear [`Error::Mesh`] naming the file, the line where there is one, and
//! what is wrong (mutated files: `robustness/tet_mesh_files.rs`).

use std::path::Path;
use std::time::Instant;

use glam::DVec3;
use hooke::builders::{Builder, TetMesh, TetMeshBody};
use hooke::{Error, Material};

use crate::common::command::scratch;

/// A file as Gmsh 4.1 writes one: physical names and entities (skipped), node blocks on a
/// point, a surface (with parametric coordinates) and the volume, tags sparse and out of order,
/// an unused node, a point and a triangle element (skipped) and two tetrahedra sharing a face.
const GMSH_41: &str = "$MeshFormat
4.1 0 8
$EndMeshFormat
$PhysicalNames
1
3 1 \"solid\"
$EndPhysicalNames
$Entities
1 0 0 1
1 0 0 0 0
1 0 0 0 1 1 1 1 1 0
$EndEntities
$Nodes
3 6 10 99
0 1 0 1
10
0 0 0
2 1 1 2
30
20
0 1 0 0.5 0.5
1 0 0 0.25 0.75
3 1 0 3
40
50
99
0 0 1
1 1 1
5 5 5
$EndNodes
$Elements
3 4 1 4
0 1 15 1
1 10
2 1 2 1
2 20 30 40
3 1 4 2
3 10 20 30 40
4 20 30 40 50
$EndElements
";

/// The mesh `GMSH_41` holds: the nodes in file order, less the unused one.
fn expected() -> TetMesh {
    let nodes = vec![DVec3::ZERO, DVec3::Y, DVec3::X, DVec3::Z, DVec3::ONE];
    TetMesh::new(nodes, vec![[0, 2, 1, 3], [2, 1, 3, 4]]).unwrap()
}

#[test]
fn a_gmsh_file_gives_its_tetrahedra_and_their_nodes() {
    let path = Path::new("solid.msh");
    let mesh = TetMesh::from_msh(GMSH_41.as_bytes(), path).unwrap();
    assert_eq!(mesh, expected());
    // Windows line ends read the same.
    let crlf = GMSH_41.replace('\n', "\r\n");
    assert_eq!(TetMesh::from_msh(crlf.as_bytes(), path).unwrap(), mesh);
    // The boundary: the six faces of one tetrahedron only, wound outward.
    let boundary = mesh.boundary_triangles();
    assert_eq!(boundary.len(), 6);
    let centre = mesh.nodes.iter().copied().sum::<DVec3>() / 5.0;
    for [a, b, c] in boundary {
        let [p, q, r] = [a, b, c].map(|i| mesh.nodes[i as usize]);
        assert!(
            (q - p).cross(r - p).dot(p - centre) > 0.0,
            "{p} {q} {r} faces in"
        );
    }
}

#[test]
fn a_mesh_written_in_either_format_reads_back_the_same() {
    let mesh = TetMesh::box_lattice([3, 2, 1], 0.01).unwrap();
    let path = Path::new("box.msh");
    assert_eq!(
        TetMesh::from_msh(mesh.to_msh().as_bytes(), path).unwrap(),
        mesh
    );
    assert_eq!(
        TetMesh::from_msh(mesh.to_msh2().as_bytes(), path).unwrap(),
        mesh
    );
}

#[test]
fn a_body_is_its_material_on_the_nodes_and_edges() {
    let dir = scratch("tet_mesh", "body");
    let path = dir.join("box.msh");
    let mesh = TetMesh::box_lattice([2, 2, 2], 10.0).unwrap(); // in mm
    std::fs::write(&path, mesh.to_msh()).unwrap();
    let material = Material::new(1.0e6, 1000.0).with_damping_ratio(0.1);
    let body = TetMeshBody::new(&path, material).with_scale(0.001);
    let part = body.build().unwrap();
    // 27 nodes; edges: 54 along the cubes' edges, 36 face diagonals (one per cube face).
    assert_eq!(part.masses.len(), 27);
    assert_eq!(part.springs.len(), 54 + 36);
    assert!((part.total_mass() - 1000.0 * 0.02f64.powi(3)).abs() < 1e-15);
    // An edge inside the box along x, in 4 cubes: 4 corner tetrahedra of volume a^3 / 6 each
    // hold it (each cube has exactly one corner tetrahedron on each of its edges),
    // k = E (4 a^3 / 6) / a^2.
    let a = 0.01;
    let centre = part
        .masses
        .iter()
        .position(|m| (m.position - DVec3::splat(a)).length() < 1e-12);
    let centre = centre.unwrap() as u32;
    let along_x = part
        .springs
        .iter()
        .find(|s| {
            s.a.min(s.b) == centre
                && (part.masses[s.a.max(s.b) as usize].position - DVec3::new(2.0 * a, a, a))
                    .length()
                    < 1e-12
        })
        .unwrap();
    assert!((along_x.stiffness / (1.0e6 * 4.0 * a / 6.0) - 1.0).abs() < 1e-12);
    assert!((along_x.rest_length - a).abs() < 1e-15);
    assert!(along_x.damping > 0.0);
}

/// The reason of an [`Error::Mesh`] naming `path`, or the test fails.
fn reason(result: hooke::Result<impl std::fmt::Debug>, path: &Path) -> String {
    match result {
        Err(Error::Mesh {
            path: named,
            reason,
        }) => {
            assert_eq!(named, path);
            reason
        }
        other => panic!("not a mesh error: {other:?}"),
    }
}

/// The reason `text`, read as file `bad.msh`, is refused.
fn refused(text: &str) -> String {
    let path = Path::new("bad.msh");
    let start = Instant::now();
    let why = reason(TetMesh::from_msh(text.as_bytes(), path), path);
    assert!(
        start.elapsed().as_secs_f64() < 1.0,
        "took {:?}",
        start.elapsed()
    );
    why
}

fn contains(why: &str, parts: &[&str]) {
    for part in parts {
        assert!(why.contains(part), "{why:?} does not say {part:?}");
    }
}

#[test]
fn files_that_are_not_ascii_msh_are_named() {
    contains(&refused(""), &["empty"]);
    contains(&refused("solid cube\n"), &["line 1", "$MeshFormat"]);
    let binary = GMSH_41.replace("4.1 0 8", "4.1 1 8");
    contains(&refused(&binary), &["line 2", "binary"]);
    contains(
        &refused(&GMSH_41.replace("4.1 0 8", "4 0 8")),
        &["line 2", "version \"4\""],
    );
    let mut bytes = GMSH_41.as_bytes().to_vec();
    bytes[200] = 0xff;
    let path = Path::new("bad.msh");
    contains(
        &reason(TetMesh::from_msh(&bytes, path), path),
        &["not text"],
    );
    let wrong = Path::new("solid.obj");
    contains(&reason(TetMesh::read(wrong), wrong), &["not a .msh file"]);
}

#[test]
fn missing_and_truncated_sections_are_named() {
    let cut = GMSH_41.find("$Elements").unwrap();
    contains(&refused(&GMSH_41[..cut]), &["no $Elements section"]);
    let nodes = GMSH_41.find("$Nodes").unwrap();
    let end = GMSH_41.find("$EndNodes\n").unwrap() + "$EndNodes\n".len();
    let without = format!("{}{}", &GMSH_41[..nodes], &GMSH_41[end..]);
    contains(&refused(&without), &["no $Nodes section"]);
    // Cut inside the node coordinates: the count asks for more lines than are left.
    let inside = GMSH_41.find("1 1 1").unwrap();
    contains(&refused(&GMSH_41[..inside]), &["truncated"]);
    // Cut inside a skipped section.
    let entities = GMSH_41.find("$EndEntities").unwrap();
    contains(
        &refused(&GMSH_41[..entities]),
        &["$Entities", "no $EndEntities"],
    );
    contains(
        &refused(&GMSH_41.replace("$EndNodes", "$EndNode")),
        &["expected $EndNodes"],
    );
}

#[test]
fn absurd_counts_are_refused_before_anything_is_allocated() {
    let huge = GMSH_41.replace("3 6 10 99", "3 18446744073709551615 10 99");
    contains(
        &refused(&huge),
        &["line 14", "18446744073709551615 nodes", "lines left"],
    );
    let block = GMSH_41.replace("3 1 4 2\n", "3 1 4 4000000000\n");
    contains(&refused(&block), &["4000000000 elements in the block"]);
    let v2 = expected()
        .to_msh2()
        .replace("$Elements\n2\n", "$Elements\n99999999999\n");
    contains(&refused(&v2), &["99999999999 elements"]);
}

#[test]
fn bad_nodes_and_tetrahedra_are_named_with_their_line() {
    let missing = GMSH_41.replace("4 20 30 40 50", "4 20 30 40 51");
    contains(
        &refused(&missing),
        &["line 39", "tetrahedron 4", "node 51", "does not list"],
    );
    let twice = GMSH_41.replace("\n99\n", "\n40\n");
    contains(&refused(&twice), &["node 40 is listed twice"]);
    let nan = GMSH_41.replace("1 1 1\n", "1 nan 1\n");
    contains(&refused(&nan), &["line 28", "not finite"]);
    let inverted = GMSH_41.replace("3 10 20 30 40", "3 10 30 20 40");
    contains(
        &refused(&inverted),
        &["line 38", "tetrahedron 3", "inverted", "negative"],
    );
    // Node 50 moved onto the plane of 20, 30, 40.
    let flat = GMSH_41.replace("1 1 1\n", "0.5 0.5 0\n");
    contains(
        &refused(&flat),
        &["line 39", "tetrahedron 4", "degenerate", "zero volume"],
    );
    // The first tetrahedron listed twice: they overlap.
    let overlap = GMSH_41
        .replace("3 1 4 2\n", "3 1 4 3\n")
        .replace("3 4 1 4", "3 5 1 5")
        .replace("4 20 30 40 50\n", "4 20 30 40 50\n5 10 20 30 40\n");
    contains(
        &refused(&overlap),
        &["tetrahedron 3", "tetrahedron 5", "overlap"],
    );
    let short = GMSH_41.replace("4 20 30 40 50", "4 20 30 40");
    contains(&refused(&short), &["line 39", "tag node node node node"]);
}

#[test]
fn a_file_without_tetrahedra_or_with_other_volume_elements_is_named() {
    let surface = GMSH_41
        .replace("3 4 1 4", "2 2 1 2")
        .replace("3 1 4 2\n3 10 20 30 40\n4 20 30 40 50\n", "");
    contains(&refused(&surface), &["no tetrahedra", "mesh in 3D"]);
    // Second-order tetrahedra (type 11, ten nodes) are volume elements hooke cannot build:
    // refused by name rather than left out.
    let second_order = GMSH_41.replace("3 1 4 2\n", "3 1 11 2\n");
    contains(
        &refused(&second_order),
        &["line 37", "Gmsh type 11", "4-node tetrahedra"],
    );
    let v2 = expected().to_msh2().replace("\n2 4 2 1 1", "\n2 5 2 1 1");
    contains(&refused(&v2), &["Gmsh type 5"]);
}

#[test]
fn a_bad_scale_material_or_size_is_named() {
    let dir = scratch("tet_mesh", "scale");
    let path = dir.join("one.msh");
    std::fs::write(&path, GMSH_41).unwrap();
    let material = Material::new(1.0e6, 1000.0);
    let bad = TetMeshBody::new(&path, material).with_scale(0.0).build();
    assert!(
        matches!(
            bad,
            Err(Error::InvalidParameter {
                name: "tet_mesh.scale",
                ..
            })
        ),
        "{bad:?}"
    );
    // The smallest positive modulus on 1 mm cubes: the stiffness E V / L^2 underflows to 0.
    let least = TetMeshBody::new(&path, Material::new(5e-324, 1000.0));
    let small = TetMesh::box_lattice([1, 1, 1], 0.001).unwrap();
    let why = reason(least.part(&small), &path);
    contains(&why, &["stiffness 0e0", "out of range"]);
    // Cubes of 1e-110 m: each tetrahedron's volume underflows to 0 in f64.
    let tiny = TetMesh::box_lattice([1, 1, 1], 1e-110).unwrap();
    let memory = Path::new("<memory>");
    let why = reason(TetMesh::new(tiny.nodes, tiny.tetrahedra), memory);
    contains(&why, &["tetrahedron 0", "too large or too small"]);
    let bad = TetMeshBody::new(&path, Material::new(-1.0, 1000.0)).build();
    assert!(
        matches!(
            bad,
            Err(Error::InvalidParameter {
                name: "material.young_modulus",
                ..
            })
        ),
        "{bad:?}"
    );
}
