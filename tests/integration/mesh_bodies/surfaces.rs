//! Mesh bodies drawn with their own triangles: the shipped bunny asset is the mesh the code
//! makes, a scene's mesh surfaces sit on the model's masses where the mesh is, and `hooke run
//! --gif` shades them.
#![cfg(feature = "cli")]

use std::path::Path;

use glam::DVec3;
use hooke::builders::TriangleMesh;
use hooke::Scene;
use image::AnimationDecoder;

use crate::common::command::{hooke, ok, scratch};

fn root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

/// `assets/bunny.obj` is `TriangleMesh::bunny(3).to_obj()`, as scenes/README.md says: the same
/// triangles in the same order, each corner where the code puts it (reading renumbers the
/// vertices in the order the faces meet them). The OBJ holds each coordinate's shortest
/// round-trip decimal, so reading gives back the bits written; the bunny's vertices go through
/// `exp`, which a platform's libm may round differently by an ulp, so corners are compared to
/// 1e-15 m (an ulp of 0.06 m is 7e-18 m).
#[test]
fn the_bunny_asset_is_the_bunny_the_code_makes() {
    let made = TriangleMesh::bunny(3);
    let read = TriangleMesh::read(root().join("assets/bunny.obj")).unwrap();
    assert_eq!(read.triangles.len(), made.triangles.len());
    assert_eq!(read.vertices.len(), made.vertices.len());
    for (r, m) in read.triangles.iter().zip(&made.triangles) {
        for (&i, &j) in r.iter().zip(m) {
            let (a, b) = (read.vertices[i as usize], made.vertices[j as usize]);
            assert!((a - b).abs().max_element() <= 1e-15, "{a} vs {b}");
        }
    }
}

/// The mesh scene's surface: the mesh's triangles, its vertices (by the rest masses) where the
/// placement puts the mesh, to rounding; each vertex on masses of the bunny's body.
#[test]
fn the_mesh_scene_surface_sits_where_the_placed_mesh_is() {
    let scene = Scene::load(root().join("scenes/mesh_bunny.json")).unwrap();
    let model = scene.to_model().unwrap();
    let surfaces = scene.mesh_surfaces(&model).unwrap();
    assert_eq!(surfaces.len(), 1);
    let mesh = TriangleMesh::read(root().join("assets/bunny.obj")).unwrap();
    assert_eq!(surfaces[0].triangles, mesh.triangles);
    let placement = scene.bodies[0].placement;
    let turn = glam::DQuat::from_scaled_axis(placement.rotation);
    let rest: Vec<DVec3> = model.masses.iter().map(|m| m.position).collect();
    // Positions about 0.1 m: the placement's rotation and the blend of 8 corners each round at a
    // few ulps of that (1e-17 m); 1e-15 m leaves room and still catches any wrong corner (mm).
    for (got, v) in surfaces[0].positions(&rest).iter().zip(&mesh.vertices) {
        let want = turn * *v + placement.position;
        assert!((*got - want).length() <= 1e-15, "{got} vs {want}");
    }
}

/// `hooke run --gif` of the mesh scene shades the bunny's own surface: its first frame holds
/// warm pixels of the face colour (232, 196, 150) lit at 40 % to 100 %, which nothing else in
/// the scene has (springs are grey, blue or red, the ground and sky grey-blue). About 230 of
/// them show between the springs drawn over it; without the surface there are none.
#[test]
fn hooke_run_gif_shades_the_mesh_scene() {
    let dir = scratch("mesh_bodies", "surface_gif");
    let gif = dir.join("bunny.gif");
    ok(&hooke(&[
        "run",
        root().join("scenes/mesh_bunny.json").to_str().unwrap(),
        "--duration",
        "0.002",
        "--backend",
        "cpu",
        "--size",
        "320x240",
        "--gif",
        gif.to_str().unwrap(),
    ]));
    let file = std::io::BufReader::new(std::fs::File::open(&gif).unwrap());
    let decoder = image::codecs::gif::GifDecoder::new(file).unwrap();
    let frame = decoder.into_frames().next().unwrap().unwrap();
    let warm = frame
        .buffer()
        .pixels()
        .filter(|p| {
            let [r, g, b, _] = p.0.map(i32::from);
            r > g + 15 && g > b + 15
        })
        .count();
    assert!(warm > 100, "{warm} pixels of the face colour");
}
