//! A mesh body drawn with its own triangles: a ball's round silhouette where the surface of its
//! voxels is a blocky cross, and the mesh following its masses when they move.
//!
//! Runs on a real adapter (lavapipe on machines without a GPU); `render_any_adapter` runs the
//! same check on wgpu's OpenGL backend.

use std::path::Path;

use hooke::builders::{MeshBody, TriangleMesh};
use hooke::render::{exterior_triangles, Camera, Drawing, MeshSurface, Positions, Renderer, Style};
use hooke::{Builder, Contact, DVec3, Material, Model, Params, Vec3};
use image::RgbaImage;

const W: u32 = 320;
const H: u32 = 320;
/// Ball radius and voxel size, m.
const RADIUS: f64 = 0.1;
const VOXEL: f64 = 0.05;

/// Whether `image` at world point `(x, z)` of the plane y = 0 (seen by `camera`) shows something
/// other than the background.
fn covered(image: &RgbaImage, camera: &Camera, style: &Style, x: f32, z: f32) -> bool {
    let p = camera
        .project(Vec3::new(x, 0.0, z), W, H)
        .expect("in front of the camera");
    let px = image.get_pixel(p.x as u32, p.y as u32).0;
    px.iter()
        .zip(style.background)
        .any(|(a, b)| a.abs_diff(b) > 2)
}

/// Centroid (pixels) of the pixels that are not background.
fn centroid(image: &RgbaImage, style: &Style) -> glam::Vec2 {
    let mut sum = glam::DVec2::ZERO;
    let mut n = 0.0;
    for (x, y, p) in image.enumerate_pixels() {
        if p.0
            .iter()
            .zip(style.background)
            .any(|(a, b)| a.abs_diff(b) > 2)
        {
            sum += glam::DVec2::new(f64::from(x) + 0.5, f64::from(y) + 0.5);
            n += 1.0;
        }
    }
    assert!(n > 0.0, "nothing drawn");
    (sum / n).as_vec2()
}

/// The ball's model (no ground), its voxels' corner masses and its mesh surface.
fn ball() -> (Model, Vec<[u32; 8]>, MeshSurface) {
    let mesh = TriangleMesh::icosphere(RADIUS, 2);
    let body = MeshBody::new("ball.stl", VOXEL, Material::new(1.0e5, 1000.0));
    let voxels = body.voxel_body(&mesh, Path::new("ball.stl")).unwrap();
    let part = voxels.build_voxels().unwrap();
    let cells: Vec<[i32; 3]> = voxels.voxels.iter().map(|v| v.cell).collect();
    let surface = MeshSurface::embed(&mesh, VOXEL, &cells, &part.voxel_masses).unwrap();
    let mut model = Model::new(Params {
        contact: Contact::None,
        ..Params::default()
    });
    model.add("ball", voxels.build().unwrap());
    (model, part.voxel_masses, surface)
}

/// On `device`: the ball seen from the front, faces only. Its voxels (cells centred within
/// 0.1 m of the centre, 0.05 m wide) make a cross in the image: full width for |z| < 0.05 m,
/// half width above and below (0.111 m and 0.056 m seen on the plane y = 0: its front faces are
/// 0.9 m from the eye). The mesh surface is the ball's round silhouette instead (radius 0.1005
/// m on that plane, a little less for the inscribed polyhedron): it covers (0.065, 0.065) m,
/// outside the cross, and leaves (0.105, 0.02) m, inside the cross but outside the ball (each
/// at least 6 mm, 3 pixels, from an edge); moved 0.1 m along +x with its masses, its image
/// moves by as many pixels as the camera says.
pub(crate) fn draw_and_check_mesh_surface(device: &wgpu::Device, queue: &wgpu::Queue) {
    let mut r = Renderer::with_device(device.clone(), queue.clone(), W, H)
        .unwrap_or_else(|e| panic!("renderer on {:?}: {e}", device.adapter_info()));
    *r.style_mut() = Style {
        show_springs: false,
        show_masses: false,
        ..Style::default()
    };
    let style = *r.style();
    let (model, cells, surface) = ball();
    let camera = Camera::look_at(Vec3::new(0.0, -1.0, 0.0), Vec3::ZERO);

    let mut voxels = Drawing::new(&r, &model).unwrap();
    voxels
        .set_triangles(&r, &exterior_triangles(&cells))
        .unwrap();
    let blocky = r.render(&voxels, Positions::Uploaded, &camera).unwrap();
    let mut drawing = Drawing::new(&r, &model).unwrap();
    drawing
        .set_surfaces(&r, std::slice::from_ref(&surface))
        .unwrap();
    assert_eq!(drawing.surface_triangles(), 320);
    let round = r.render(&drawing, Positions::Uploaded, &camera).unwrap();

    let inside_ball_only = (0.065, 0.065);
    let inside_cross_only = (0.105, 0.02);
    for (name, image, expected) in [
        ("voxels", &blocky, [false, true]),
        ("mesh", &round, [true, false]),
    ] {
        let got = [inside_ball_only, inside_cross_only]
            .map(|(x, z)| covered(image, &camera, &style, x, z));
        assert_eq!(
            got, expected,
            "{name}: covers (0.065, 0.065), (0.105, 0.02)"
        );
    }
    // Lit like voxel faces: the centre is in the face colour's family, not the background.
    assert!(covered(&round, &camera, &style, 0.0, 0.0));

    // The masses moved 0.1 m along +x: the mesh goes with them.
    let shift = DVec3::new(0.1, 0.0, 0.0);
    let moved: Vec<DVec3> = model.masses.iter().map(|m| m.position + shift).collect();
    drawing.set_positions(&r, &moved).unwrap();
    let shifted = r.render(&drawing, Positions::Uploaded, &camera).unwrap();
    let step =
        camera.project(shift.as_vec3(), W, H).unwrap() - camera.project(Vec3::ZERO, W, H).unwrap();
    let went = centroid(&shifted, &style) - centroid(&round, &style);
    // Perspective puts the centre of an off-axis ball's image (tan(t + a) + tan(t - a)) / 2 from
    // the axis rather than tan(t), for t = atan(0.1) and a = asin(0.1): 1.05 mm further, 0.5
    // pixel here; the coverage of edge pixels moves the centroid by far less than a pixel.
    assert!(
        (went - step).length() < 1.0,
        "moved {went}, expected {step}"
    );
    assert!(covered(&shifted, &camera, &style, 0.16, 0.06));
    assert!(!covered(&shifted, &camera, &style, -0.06, 0.06));

    // A surface naming masses the model lacks is refused.
    let mut other = surface;
    other.vertices[0].masses[0] = 10_000;
    assert!(drawing.set_surfaces(&r, &[other]).is_err());
}

#[test]
#[cfg_attr(skip_gpu_tests, ignore = "HOOKE_SKIP_GPU_TESTS=1")]
fn a_mesh_body_is_drawn_with_its_own_triangles_carried_by_its_masses() {
    let (device, queue) = hooke::gpu::request_device()
        .unwrap_or_else(|e| panic!("render tests need a GPU adapter: {e}"));
    draw_and_check_mesh_surface(&device, &queue);
}
