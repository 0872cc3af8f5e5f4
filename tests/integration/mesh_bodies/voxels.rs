//! The voxelizer against exact counts (boxes, an octahedron on the tie planes), analytic bounds
//! on the volume of an icosphere as the voxels shrink, and the same cells whatever the file
//! format, the triangle order or an exact translation.

use glam::DVec3;
use hooke::builders::TriangleMesh;

use super::cells;
use crate::common::command::scratch;

#[test]
fn a_box_fills_exactly_the_cells_whose_centres_it_holds() {
    // Centres (i + 1/2) 0.01 for i in 0..10 lie strictly inside [0, 0.1]; -0.005 and 0.105 not.
    let mesh = TriangleMesh::cuboid(DVec3::ZERO, DVec3::splat(0.1));
    let got = cells(&mesh, 0.01);
    let mut want = Vec::new();
    for k in 0..10 {
        for j in 0..10 {
            for i in 0..10 {
                want.push([i, j, k]);
            }
        }
    }
    assert_eq!(got, want);
}

#[test]
fn a_box_with_faces_on_the_centre_planes_fills_the_half_open_cells() {
    // Faces at 0.25 and 0.75, centres at 0.25 and 0.75 (a = 0.5, all exact). The tie rules
    // move the line to x + epsilon, y + epsilon^2 (inside at 0.25, outside at 0.75) and count a
    // crossing at a centre's height as below it (the bottom face fills, the top face empties):
    // only the cell of centre (0.25, 0.25, 0.25).
    let mesh = TriangleMesh::cuboid(DVec3::splat(0.25), DVec3::splat(0.75));
    assert_eq!(cells(&mesh, 0.5), vec![[0, 0, 0]]);
}

/// The octahedron `|x| + |y| + |z| <= 2 a` about the centre of cell `[0, 0, 0]`: its vertices,
/// edges and faces pass through centres, so every tie rule decides some cell.
fn octahedron(a: f64) -> TriangleMesh {
    let c = DVec3::splat(a / 2.0);
    let r = 2.0 * a;
    let v = [
        c + DVec3::X * r,
        c - DVec3::X * r,
        c + DVec3::Y * r,
        c - DVec3::Y * r,
        c + DVec3::Z * r,
        c - DVec3::Z * r,
    ];
    let t = [
        [0, 2, 4],
        [2, 1, 4],
        [1, 3, 4],
        [3, 0, 4],
        [2, 0, 5],
        [1, 2, 5],
        [3, 1, 5],
        [0, 3, 5],
    ];
    TriangleMesh::new(&v, &t).unwrap()
}

#[test]
fn an_octahedron_through_the_centres_keeps_the_centres_below_its_upper_faces() {
    // Offsets d (in cells) from the octahedron's centre: |d|_1 <= 1 strictly inside (7 cells).
    // On the surface (|d|_1 = 2) the centre, moved up by delta >> epsilon, is inside exactly
    // when d_z < 0 (its upward move goes inward): d_z = -1 with |d_x| + |d_y| = 1 (4 cells) and
    // d = (0, 0, -2). 12 in all.
    let a = 0.125;
    let got = cells(&octahedron(a), a);
    let mut want = vec![];
    for z in -2i32..=2 {
        for y in -2i32..=2 {
            for x in -2i32..=2 {
                let l1 = x.abs() + y.abs() + z.abs();
                if l1 <= 1 || (l1 == 2 && z < 0) {
                    want.push([x, y, z]);
                }
            }
        }
    }
    assert_eq!(got, want);
}

#[test]
fn triangle_and_vertex_order_do_not_change_the_cells() {
    let a = 0.125;
    let mesh = octahedron(a);
    // The same triangles backwards, each starting at its second corner, vertices reversed.
    let n = mesh.vertices.len() as u32;
    let vertices: Vec<DVec3> = mesh.vertices.iter().rev().copied().collect();
    let triangles: Vec<[u32; 3]> = mesh
        .triangles
        .iter()
        .rev()
        .map(|&[p, q, r]| [q, r, p].map(|i| n - 1 - i))
        .collect();
    let shuffled = TriangleMesh::new(&vertices, &triangles).unwrap();
    assert_eq!(cells(&shuffled, a), cells(&mesh, a));
}

/// The signed volume of a closed mesh (divergence theorem), m^3.
fn volume(mesh: &TriangleMesh) -> f64 {
    (0..mesh.triangles.len())
        .map(|t| {
            let [p, q, r] = mesh.corners(t);
            p.dot(q.cross(r)) / 6.0
        })
        .sum()
}

#[test]
fn an_icospheres_voxel_volume_lies_within_the_parallel_bodies_and_its_error_falls() {
    // Every filled cell has its centre inside the mesh, so it lies within h = a sqrt(3) / 2 of
    // the mesh: N a^3 <= volume of the sphere of radius R + h about the circumscribed one (R =
    // the radius). Every point deeper than h inside has its cell's centre inside, so the filled
    // cells hold the inner parallel body, which holds the ball of radius r_in - h (r_in: the
    // inradius, the nearest face plane). Both bounds close in as a shrinks.
    let radius = 0.05;
    let mesh = TriangleMesh::icosphere(radius, 3);
    let exact = volume(&mesh);
    let r_in = (0..mesh.triangles.len())
        .map(|t| {
            let [p, q, r] = mesh.corners(t);
            (q - p).cross(r - p).normalize().dot(p)
        })
        .fold(f64::INFINITY, f64::min);
    let ball = |r: f64| 4.0 / 3.0 * std::f64::consts::PI * r.max(0.0).powi(3);
    let mut errors = vec![];
    for per_radius in [4.0, 8.0, 16.0, 32.0] {
        let a = radius / per_radius;
        let n = cells(&mesh, a).len() as f64;
        let h = a * 3f64.sqrt() / 2.0;
        let (lo, hi) = (ball(r_in - h), ball(radius + h));
        let v = n * a.powi(3);
        assert!(lo <= v && v <= hi, "a = {a}: {v} outside [{lo}, {hi}]");
        errors.push((v - exact).abs() / exact);
    }
    // The bounds above shrink in proportion to a; the measured error at a = R/32 is below the
    // error at R/4 (it need not fall at every step: a lattice meets a sphere unevenly).
    assert!(errors[3] < errors[0], "relative errors {errors:?}");
    eprintln!("icosphere relative volume errors at R/a = 4, 8, 16, 32: {errors:?}");
}

/// An icosphere whose coordinates are multiples of 2^-30 (exact under the translations below).
fn dyadic_icosphere() -> TriangleMesh {
    let mut mesh = TriangleMesh::icosphere(0.05, 2);
    let grid = 2f64.powi(30);
    for v in &mut mesh.vertices {
        *v = (*v * grid).round() / grid;
    }
    mesh
}

#[test]
fn a_mesh_moved_by_whole_voxels_gives_the_same_cells_moved() {
    let mesh = dyadic_icosphere();
    let a = 2f64.powi(-7);
    let base = cells(&mesh, a);
    for shift in [[16, -8, 32], [-1024, 3, 0], [1, 1, 1]] {
        let offset = DVec3::new(shift[0].into(), shift[1].into(), shift[2].into()) * a;
        let mut moved = mesh.clone();
        for v in &mut moved.vertices {
            *v += offset;
        }
        let want: Vec<[i32; 3]> = base
            .iter()
            .map(|c| [c[0] + shift[0], c[1] + shift[1], c[2] + shift[2]])
            .collect();
        assert_eq!(cells(&moved, a), want, "shift {shift:?}");
    }
}

#[test]
fn obj_binary_stl_and_ascii_stl_of_one_mesh_give_the_same_cells() {
    // Coordinates rounded to f32 first: STL stores f32, OBJ prints each f64 exactly.
    let mut mesh = TriangleMesh::icosphere(0.05, 2);
    for v in &mut mesh.vertices {
        *v = v.as_vec3().as_dvec3();
    }
    let dir = scratch("mesh_bodies", "formats");
    let files = [
        ("ball.obj", mesh.to_obj().into_bytes()),
        ("ball.stl", mesh.to_stl_binary()),
        ("ball_ascii.stl", mesh.to_stl_ascii().into_bytes()),
        // A solid without a name, as some exporters write it.
        (
            "ball_nameless.stl",
            mesh.to_stl_ascii()
                .replacen("solid hooke", "solid", 1)
                .into_bytes(),
        ),
    ];
    let want = cells(&mesh, 0.007);
    for (name, bytes) in files {
        let path = dir.join(name);
        std::fs::write(&path, bytes).unwrap();
        let read = TriangleMesh::read(&path).unwrap();
        assert_eq!(read.triangles.len(), mesh.triangles.len(), "{name}");
        assert_eq!(cells(&read, 0.007), want, "{name}");
    }
}
