//! Obstacles in pictures, checked by properties of the image: each kind is drawn, lit by the
//! renderer's light, where the camera projects it and nowhere else; shadows fall on obstacles
//! and not on the ground hidden under them; a scene whose obstacles are not drawn is the scene
//! without obstacles, pixel for pixel.
//!
//! These run on a real adapter (lavapipe on machines without a GPU). With no adapter they fail,
//! listing what was seen; `HOOKE_SKIP_GPU_TESTS=1` marks them ignored instead.

use std::sync::OnceLock;

use hooke::render::{Camera, Drawing, Positions, Renderer, Srgba, LIGHT};
use hooke::{
    Contact, DVec2, DVec3, Heightfield, Mass, Model, Obstacle, Params, Shape, Spring, Vec3,
};
use image::RgbaImage;

const W: u32 = 160;
const H: u32 = 120;

fn gpu() -> &'static (wgpu::Device, wgpu::Queue) {
    static GPU: OnceLock<(wgpu::Device, wgpu::Queue)> = OnceLock::new();
    GPU.get_or_init(|| match hooke::gpu::request_device() {
        Ok(dq) => dq,
        Err(e) => panic!(
            "render tests need a GPU adapter and none could be opened: {e}. \
             Set HOOKE_SKIP_GPU_TESTS=1 to mark GPU tests as ignored."
        ),
    })
}

/// A renderer whose grid lines are 1 km apart (none near the test points) and whose masses are
/// discs of 3 px.
fn renderer() -> Renderer {
    let (device, queue) = gpu();
    let mut r = Renderer::with_device(device.clone(), queue.clone(), W, H).expect("renderer");
    r.style_mut().grid_spacing = Some(1000.0);
    r.style_mut().mass_radius = 3.0;
    r
}

fn params(ground: bool) -> Params {
    Params {
        contact: if ground {
            Contact::default()
        } else {
            Contact::None
        },
        ..Params::default()
    }
}

fn obstacle(shape: Shape) -> Obstacle {
    Obstacle::new(shape, Contact::default(), hooke::Friction::default())
}

fn render(r: &mut Renderer, model: &Model, camera: &Camera) -> RgbaImage {
    let drawing = Drawing::new(r, model).unwrap();
    r.render(&drawing, Positions::Uploaded, camera).unwrap()
}

fn pixel_at(image: &RgbaImage, camera: &Camera, p: DVec3) -> [u8; 4] {
    let at = camera
        .project(p.as_vec3(), W, H)
        .expect("in front of the camera");
    assert!(
        at.x >= 0.0 && at.y >= 0.0 && at.x < W as f32 && at.y < H as f32,
        "{p} projects outside the image, to {at}"
    );
    image.get_pixel(at.x as u32, at.y as u32).0
}

fn linear(c: u8) -> f64 {
    let c = f64::from(c) / 255.0;
    if c <= 0.04045 {
        c / 12.92
    } else {
        ((c + 0.055) / 1.055).powf(2.4)
    }
}

/// If `pixel` is the colour `base` scaled by one factor in linear light (the obstacle colour,
/// lit and maybe shadowed), that factor. Each 8-bit sRGB channel rounds its value by half a
/// step, a relative error in linear light of at most 0.5 * (dL/dc) / L, about 1.3 % for the
/// channels of the default obstacle colour at the darkest shade drawn here (sRGB ~ 80); the
/// factors of the three channels may then differ by twice that, 0.03.
fn shade_of(pixel: [u8; 4], base: Srgba) -> Option<f64> {
    let ratios: Vec<f64> = (0..3).map(|k| linear(pixel[k]) / linear(base[k])).collect();
    let (lo, hi) = ratios
        .iter()
        .fold((f64::INFINITY, 0.0f64), |(a, b), &r| (a.min(r), b.max(r)));
    (hi - lo < 0.03 * hi).then(|| ratios.iter().sum::<f64>() / 3.0)
}

/// What a surface of outward normal `n` is lit to, as a factor of its colour (shaders/render.wgsl
/// `obstacle_color`).
fn lit(n: Vec3) -> f64 {
    f64::from(0.4 + 0.6 * n.normalize().dot(LIGHT.normalize()).max(0.0))
}

/// The shapes of every kind, each at most 0.6 m across around the origin, with a point on top
/// of its surface and that surface's exact normal when it is flat there.
fn kinds() -> Vec<(&'static str, Shape, DVec3, Option<Vec3>)> {
    let c = DVec3::new(0.0, 0.0, 0.0);
    let heightfield = Heightfield::from_fn(
        DVec3::new(-0.2, -0.2, 0.0),
        DVec2::splat(0.1),
        5,
        5,
        |x, y| 0.1 * x + 0.05 * y,
    );
    vec![
        (
            "plane",
            Shape::Plane {
                normal: DVec3::new(0.1, -0.2, 1.0),
                offset: 0.0,
            },
            // On the plane (z = -(0.1 x - 0.2 y)), a few pixels from its grid line through 0.
            DVec3::new(0.1, 0.08, 0.006),
            Some(Vec3::new(0.1, -0.2, 1.0)),
        ),
        (
            "box",
            Shape::Box {
                centre: c,
                half_extents: DVec3::splat(0.2),
            },
            DVec3::new(0.0, 0.0, 0.2),
            Some(Vec3::Z),
        ),
        (
            "oriented box",
            Shape::OrientedBox {
                centre: c,
                half_extents: DVec3::splat(0.2),
                rotation: DVec3::new(0.3, 0.0, 0.0),
            },
            // The top face's centre, turned by 0.3 rad about x.
            DVec3::new(0.0, -0.2 * 0.3f64.sin(), 0.2 * 0.3f64.cos()),
            Some(Vec3::new(0.0, -0.3f32.sin(), 0.3f32.cos())),
        ),
        (
            "sphere",
            Shape::Sphere {
                centre: c,
                radius: 0.2,
            },
            DVec3::new(0.0, 0.0, 0.2),
            None,
        ),
        (
            "capsule",
            Shape::Capsule {
                a: DVec3::new(-0.15, 0.0, 0.0),
                b: DVec3::new(0.15, 0.0, 0.0),
                radius: 0.15,
            },
            DVec3::new(0.0, 0.0, 0.15),
            None,
        ),
        (
            "heightfield",
            Shape::Heightfield(heightfield),
            // The centre of the grid, 0.2 m from its origin corner along x and y.
            DVec3::new(0.0, 0.0, 0.1 * 0.2 + 0.05 * 0.2),
            Some(Vec3::new(-0.1, -0.05, 1.0)),
        ),
    ]
}

#[test]
#[cfg_attr(skip_gpu_tests, ignore = "HOOKE_SKIP_GPU_TESTS=1")]
fn every_obstacle_kind_is_drawn_lit_where_the_camera_projects_it() {
    let mut r = renderer();
    let base = r.style().obstacle;
    let sky = r.style().background;
    // From the front, right and above, 1.5 m away: every kind shows its top.
    let camera = Camera::orbit(Vec3::ZERO, 1.5, -1.2, 0.7);
    for (name, shape, top, normal) in kinds() {
        let mut model = Model::new(params(false));
        model.add_obstacle(obstacle(shape));
        let image = render(&mut r, &model, &camera);
        let at = pixel_at(&image, &camera, top);
        let Some(shade) = shade_of(at, base) else {
            panic!("{name}: {at:?} at its top is not the obstacle colour {base:?} shaded");
        };
        // Lit (no shadow: nothing is above), between the ambient part and full light.
        assert!((0.4..=1.0).contains(&shade), "{name}: shade {shade}");
        if let Some(n) = normal {
            // A flat face: exactly its Lambert shade, to the rounding of `shade_of` (the mean
            // of three channels, each within 1.3 %).
            assert!(
                (shade - lit(n)).abs() < 0.013 * lit(n),
                "{name}: shade {shade}, expected {} for normal {n}",
                lit(n)
            );
        }
        // Beside it (0.5 m to the left, where no bounded kind reaches) is sky; the plane fills
        // the view there too.
        let beside = pixel_at(&image, &camera, DVec3::new(-0.5, 0.0, 0.0));
        if name == "plane" {
            assert!(shade_of(beside, base).is_some(), "plane: {beside:?} beside");
        } else {
            assert_eq!(beside, sky, "{name}: beside it");
        }
    }
}

/// A 0.4 m box standing on the ground at the origin, a mass at height `mass_z` (m) above its
/// top, near its +x edge.
fn mass_over_a_box(mass_z: f64) -> (Model, DVec3) {
    let mut model = Model::new(params(true));
    model.add_obstacle(obstacle(Shape::Box {
        centre: DVec3::new(0.0, 0.0, 0.2),
        half_extents: DVec3::splat(0.2),
    }));
    let mass = DVec3::new(0.12, 0.0, mass_z);
    model.add_mass(Mass::new(0.1, mass));
    (model, mass)
}

#[test]
#[cfg_attr(skip_gpu_tests, ignore = "HOOKE_SKIP_GPU_TESTS=1")]
fn a_mass_above_a_box_shadows_the_box_top_not_the_ground_beside_it() {
    let mut r = renderer();
    r.style_mut().mass_radius = 6.0;
    let style = *r.style();
    let (model, mass) = mass_over_a_box(0.7);
    let camera = Camera::orbit(Vec3::new(0.0, 0.0, 0.2), 1.6, -1.3, 0.9);
    let image = render(&mut r, &model, &camera);
    // Straight below the mass on the top face: shadowed, Lambert shade times obstacle_shadow.
    let below = pixel_at(&image, &camera, DVec3::new(mass.x, mass.y, 0.4));
    let expected = lit(Vec3::Z) * f64::from(style.obstacle_shadow);
    let shade = shade_of(below, style.obstacle).expect("obstacle colour below the mass");
    assert!(
        (shade - expected).abs() < 0.013 * expected,
        "shade {shade} under the mass, expected {expected} (in shadow)"
    );
    // The other half of the top is lit.
    let top = pixel_at(&image, &camera, DVec3::new(-0.1, 0.0, 0.4));
    let shade = shade_of(top, style.obstacle).expect("obstacle colour on the top");
    assert!((shade - lit(Vec3::Z)).abs() < 0.013, "lit top: {shade}");
    // The ground beside the box, in front of it and beyond its +x side, is plain ground: the
    // mass's shadow is not drawn there, nor the box's.
    // (Off the grid lines x = 0 and y = 0.)
    for p in [DVec3::new(0.12, -0.3, 0.0), DVec3::new(0.32, -0.08, 0.0)] {
        assert_eq!(pixel_at(&image, &camera, p), style.ground, "ground at {p}");
    }
}

#[test]
#[cfg_attr(skip_gpu_tests, ignore = "HOOKE_SKIP_GPU_TESTS=1")]
fn a_floating_obstacle_shadows_the_ground_under_it() {
    let mut r = renderer();
    let style = *r.style();
    let mut model = Model::new(params(true));
    model.add_obstacle(obstacle(Shape::Sphere {
        centre: DVec3::new(0.0, 0.0, 0.5),
        radius: 0.2,
    }));
    // Low, so the ground under the ball shows below it.
    let camera = Camera::orbit(Vec3::new(0.0, 0.0, 0.25), 2.0, -1.4, 0.25);
    let image = render(&mut r, &model, &camera);
    // Under the ball (off the grid lines x = 0 and y = 0) the ground is fully shadowed:
    // min(ground, shadow) = shadow.
    assert_eq!(
        pixel_at(&image, &camera, DVec3::new(0.05, 0.05, 0.0)),
        style.shadow,
        "under the ball"
    );
    // 0.4 m to its side (twice the radius) it is plain ground.
    assert_eq!(
        pixel_at(&image, &camera, DVec3::new(0.4, 0.05, 0.0)),
        style.ground
    );
}

/// A spring over the ground (a scene with shadows, masses and springs).
fn hanging_spring(model: &mut Model) {
    let a = model.add_mass(Mass::new(0.1, DVec3::new(-0.2, 0.0, 0.3)));
    let b = model.add_mass(Mass::new(0.1, DVec3::new(0.2, 0.1, 0.2)));
    model.add_spring(Spring::hooke(a, b, 1000.0, 0.3));
}

#[test]
#[cfg_attr(skip_gpu_tests, ignore = "HOOKE_SKIP_GPU_TESTS=1")]
fn a_scene_whose_obstacles_are_not_drawn_is_the_scene_without_obstacles() {
    let mut r = renderer();
    r.style_mut().grid_spacing = None;
    let mut plain = Model::new(params(true));
    hanging_spring(&mut plain);
    let camera = Camera::frame(
        &plain.masses.iter().map(|m| m.position).collect::<Vec<_>>(),
        W,
        H,
        true,
    );
    let without = render(&mut r, &plain, &camera);
    let mut with = plain.clone();
    with.add_obstacle(obstacle(Shape::Box {
        centre: DVec3::new(0.0, 0.0, 0.05),
        half_extents: DVec3::splat(0.05),
    }));
    let drawn = render(&mut r, &with, &camera);
    assert_ne!(drawn, without, "the box is drawn");
    r.style_mut().show_obstacles = false;
    let hidden = render(&mut r, &with, &camera);
    // Same code path as a scene without obstacles (ground shadows flattened onto z = 0):
    // every byte equal.
    assert!(
        hidden == without,
        "hiding the obstacles changed other pixels"
    );
    // And the obstacle-free scene is not affected by the renderer having drawn obstacles.
    r.style_mut().show_obstacles = true;
    assert!(render(&mut r, &plain, &camera) == without);
}

#[test]
#[cfg_attr(skip_gpu_tests, ignore = "HOOKE_SKIP_GPU_TESTS=1")]
fn obstacle_shadow_brightness_outside_zero_to_one_is_refused() {
    let mut r = renderer();
    let (model, _) = mass_over_a_box(0.7);
    let drawing = Drawing::new(&r, &model).unwrap();
    for bad in [-0.1, 1.5, f32::NAN] {
        r.style_mut().obstacle_shadow = bad;
        let e = r
            .draw(&drawing, Positions::Uploaded, &Camera::default())
            .unwrap_err();
        assert!(e.to_string().contains("obstacle_shadow"), "{e}");
    }
}
