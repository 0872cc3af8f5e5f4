//! Offscreen rendering checked by properties of the image, never by whole-image hashes: a mass
//! lands where the camera projects it, stretched springs are blue and squeezed ones red, a blank
//! scene is blank, positions come from any storage buffer on the device.
//!
//! These run on a real adapter (lavapipe on machines without a GPU). With no adapter they fail,
//! listing what was seen; `HOOKE_SKIP_GPU_TESTS=1` marks them ignored instead.

use std::sync::OnceLock;

use hooke::render::{
    exterior_triangles, Camera, Drawing, OverlayLine, Positions, Renderer, Srgba, Style,
};
use hooke::{Contact, CpuWorld, DVec3, Error, Mass, Model, Params, Spring, Vec3};
use image::RgbaImage;

const W: u32 = 320;
const H: u32 = 240;

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

fn renderer() -> Renderer {
    let (device, queue) = gpu();
    Renderer::with_device(device.clone(), queue.clone(), W, H).expect("renderer")
}

/// Params with no ground, so the background is all there is behind the scene.
fn no_ground() -> Params {
    Params {
        contact: Contact::None,
        ..Params::default()
    }
}

/// Looking along +y from y = -1 at the origin: image x is world x, image up is world z.
fn front_camera() -> Camera {
    Camera::look_at(Vec3::new(0.0, -1.0, 0.0), Vec3::ZERO)
}

fn pixel(image: &RgbaImage, p: glam::Vec2) -> [u8; 4] {
    image.get_pixel(p.x as u32, p.y as u32).0
}

fn close(a: [u8; 4], b: Srgba, tolerance: u8) -> bool {
    a.iter().zip(b).all(|(x, y)| x.abs_diff(y) <= tolerance)
}

/// Centroid (pixels) of the pixels within `tolerance` of `color`, and how many there are.
fn centroid_of(image: &RgbaImage, color: Srgba, tolerance: u8) -> (glam::Vec2, usize) {
    let mut sum = glam::DVec2::ZERO;
    let mut n = 0usize;
    for (x, y, p) in image.enumerate_pixels() {
        if close(p.0, color, tolerance) {
            sum += glam::DVec2::new(f64::from(x) + 0.5, f64::from(y) + 0.5);
            n += 1;
        }
    }
    ((sum / n.max(1) as f64).as_vec2(), n)
}

#[test]
#[cfg_attr(skip_gpu_tests, ignore = "HOOKE_SKIP_GPU_TESTS=1")]
fn a_mass_lands_where_the_camera_projects_it() {
    let mut r = renderer();
    r.style_mut().mass_radius = 5.0;
    let mut model = Model::new(no_ground());
    let free = DVec3::new(0.12, 0.05, 0.07);
    let fixed = DVec3::new(-0.15, -0.1, -0.04);
    model.add_mass(Mass::new(0.1, free));
    model.add_mass(Mass::new(0.1, fixed).fixed());
    let scene = Drawing::new(&r, &model).unwrap();
    // An oblique camera, so that a flipped or swapped axis would show.
    let camera = Camera::look_at(Vec3::new(0.5, -0.8, 0.4), Vec3::new(0.0, 0.0, 0.02));
    let image = r.render(&scene, Positions::Uploaded, &camera).unwrap();
    let style = *r.style();
    for (p, color) in [(free, style.mass), (fixed, style.fixed_mass)] {
        let expected = camera.project(p.as_vec3(), W, H).unwrap();
        let (found, n) = centroid_of(&image, color, 3);
        // A disc of radius 5 px covers about 78 px; a 10 px square 100.
        assert!(n > 40, "only {n} pixels of colour {color:?} found");
        assert!(
            found.distance(expected) < 0.75,
            "mass drawn at {found}, camera projects it to {expected}"
        );
    }
    // The background is untouched far from both masses.
    assert!(close(
        pixel(&image, glam::Vec2::new(2.0, 2.0)),
        style.background,
        1
    ));
}

/// Three horizontal springs, side by side along x at z = 0, rest lengths chosen so that the
/// left one is stretched 25 %, the middle one at rest and the right one squeezed 20 %.
fn three_springs() -> (Model, [DVec3; 3]) {
    let mut model = Model::new(no_ground());
    let mut mids = [DVec3::ZERO; 3];
    for (i, rest) in [0.08, 0.1, 0.125].into_iter().enumerate() {
        let x = -0.2 + 0.15 * i as f64;
        let a = model.add_mass(Mass::new(0.1, DVec3::new(x - 0.05, 0.0, 0.0)));
        let b = model.add_mass(Mass::new(0.1, DVec3::new(x + 0.05, 0.0, 0.0)));
        model.add_spring(Spring::hooke(a, b, 100.0, rest));
        mids[i] = DVec3::new(x, 0.0, 0.0);
    }
    (model, mids)
}

#[test]
#[cfg_attr(skip_gpu_tests, ignore = "HOOKE_SKIP_GPU_TESTS=1")]
fn stretched_springs_are_blue_and_squeezed_springs_red() {
    let mut r = renderer();
    *r.style_mut() = Style {
        mass_radius: 0.0,
        line_width: 6.0,
        strain_scale: 0.1,
        ..Style::default()
    };
    let style = *r.style();
    let (model, mids) = three_springs();
    let mut scene = Drawing::new(&r, &model).unwrap();
    let camera = front_camera();
    let at = |i: usize| camera.project(mids[i].as_vec3(), W, H).unwrap();

    let image = r.render(&scene, Positions::Uploaded, &camera).unwrap();
    assert!(
        close(pixel(&image, at(0)), style.tension, 2),
        "{:?}",
        pixel(&image, at(0))
    );
    assert!(
        close(pixel(&image, at(1)), style.neutral, 2),
        "{:?}",
        pixel(&image, at(1))
    );
    assert!(
        close(pixel(&image, at(2)), style.compression, 2),
        "{:?}",
        pixel(&image, at(2))
    );

    // New rest lengths turn the colours around: strain is measured against the current ones.
    scene.set_rest_lengths(&r, &[0.125, 0.1, 0.08]).unwrap();
    let image = r.render(&scene, Positions::Uploaded, &camera).unwrap();
    assert!(close(pixel(&image, at(0)), style.compression, 2));
    assert!(close(pixel(&image, at(2)), style.tension, 2));

    // Half the saturating strain gives a colour halfway (in linear light) to blue: more blue
    // than neutral, less than full tension.
    scene.set_rest_lengths(&r, &[0.1 / 1.05, 0.1, 0.1]).unwrap();
    let image = r.render(&scene, Positions::Uploaded, &camera).unwrap();
    let half = pixel(&image, at(0));
    assert!(
        half[2] > style.neutral[2] + 40 && half[2] < style.tension[2] - 10,
        "{half:?}"
    );
    assert!(
        half[0] < style.neutral[0] && half[0] > style.tension[0],
        "{half:?}"
    );
}

#[test]
#[cfg_attr(skip_gpu_tests, ignore = "HOOKE_SKIP_GPU_TESTS=1")]
fn an_empty_scene_without_ground_is_background_only() {
    let mut r = renderer();
    let scene = Drawing::new(&r, &Model::new(no_ground())).unwrap();
    let image = r
        .render(&scene, Positions::Uploaded, &Camera::default())
        .unwrap();
    let bg = r.style().background;
    let off = image.pixels().filter(|p| !close(p.0, bg, 1)).count();
    assert_eq!(off, 0, "{off} pixels differ from the background {bg:?}");
}

/// A ground pixel lies between the grid and ground colours (grid lines blend into the plane).
fn is_ground(p: [u8; 4], style: &Style) -> bool {
    (0..3).all(|c| p[c] >= style.grid[c].saturating_sub(2) && p[c] <= style.ground[c] + 2)
}

#[test]
#[cfg_attr(skip_gpu_tests, ignore = "HOOKE_SKIP_GPU_TESTS=1")]
fn an_empty_scene_with_ground_shows_only_the_ground_below_the_sky() {
    let mut r = renderer();
    let model = Model::new(Params::default());
    let scene = Drawing::new(&r, &model).unwrap();
    assert!(scene.ground());
    // Looking down at 30 degrees, the image centre is ground.
    let down = Camera::orbit(Vec3::ZERO, 1.0, -1.2, 30f32.to_radians());
    let image = r.render(&scene, Positions::Uploaded, &down).unwrap();
    let style = *r.style();
    let centre = pixel(&image, glam::Vec2::new(W as f32 / 2.0, H as f32 / 2.0));
    // Ground pixels lie between the grid and ground colours (lines blend into the plane).
    assert!(
        is_ground(centre, &style),
        "centre pixel {centre:?} is not ground ({:?}..{:?})",
        style.grid,
        style.ground
    );
    // A camera just above the ground looking level: the upper half is sky, the lower half
    // ground, and nothing else is drawn (no masses, no springs).
    let level = Camera::look_at(Vec3::new(0.0, -1.0, 0.05), Vec3::new(0.0, 0.0, 0.05));
    let image = r.render(&scene, Positions::Uploaded, &level).unwrap();
    for x in (0..W).step_by(16) {
        let top = image.get_pixel(x, 1).0;
        assert!(
            close(top, style.background, 1),
            "sky pixel {top:?} at x = {x}"
        );
        let bottom = image.get_pixel(x, H - 2).0;
        assert!(
            !close(bottom, style.background, 3),
            "ground missing at x = {x}"
        );
        assert!(is_ground(bottom, &style), "{bottom:?} at x = {x}");
    }
}

#[test]
#[cfg_attr(skip_gpu_tests, ignore = "HOOKE_SKIP_GPU_TESTS=1")]
fn positions_come_from_any_storage_buffer_on_the_device() {
    use wgpu::util::DeviceExt;
    let mut r = renderer();
    r.style_mut().mass_radius = 5.0;
    let mut model = Model::new(no_ground());
    model.add_mass(Mass::new(0.1, DVec3::ZERO));
    let scene = Drawing::new(&r, &model).unwrap();
    // A buffer laid out as the GPU World's: array<vec4<f32>>, xyz in m.
    let p = Vec3::new(-0.1, 0.0, 0.08);
    let buffer = r
        .device()
        .create_buffer_init(&wgpu::util::BufferInitDescriptor {
            label: Some("test positions"),
            contents: bytemuck::cast_slice(&[p.extend(1.0).to_array()]),
            usage: wgpu::BufferUsages::STORAGE,
        });
    let camera = front_camera();
    let image = r
        .render(&scene, Positions::Buffer(&buffer), &camera)
        .unwrap();
    let (found, n) = centroid_of(&image, r.style().mass, 3);
    assert!(n > 40);
    let expected = camera.project(p, W, H).unwrap();
    assert!(found.distance(expected) < 0.75, "{found} vs {expected}");
    // The model's own position (the origin, image centre) is not drawn.
    let centre = pixel(&image, glam::Vec2::new(W as f32 / 2.0, H as f32 / 2.0));
    assert!(close(centre, r.style().background, 1));

    // A buffer without STORAGE usage, or too small, is refused with a clear error.
    let vertex_only = r.device().create_buffer(&wgpu::BufferDescriptor {
        label: Some("not storage"),
        size: 16,
        usage: wgpu::BufferUsages::VERTEX,
        mapped_at_creation: false,
    });
    assert!(matches!(
        r.draw(&scene, Positions::Buffer(&vertex_only), &camera),
        Err(Error::InvalidParameter { .. })
    ));
    let mut two = Model::new(no_ground());
    two.add_mass(Mass::new(0.1, DVec3::ZERO));
    two.add_mass(Mass::new(0.1, DVec3::X));
    let scene2 = Drawing::new(&r, &two).unwrap();
    assert!(matches!(
        r.draw(&scene2, Positions::Buffer(&buffer), &camera),
        Err(Error::LengthMismatch {
            expected: 32,
            got: 16,
            ..
        })
    ));
}

#[test]
#[cfg_attr(skip_gpu_tests, ignore = "HOOKE_SKIP_GPU_TESTS=1")]
fn a_cpu_world_is_drawn_where_it_is_now() {
    let mut r = renderer();
    r.style_mut().mass_radius = 5.0;
    let mut model = Model::new(no_ground());
    model.add_mass(Mass::new(0.1, DVec3::new(0.0, 0.0, 0.1)));
    let mut scene = Drawing::new(&r, &model).unwrap();
    let mut world = CpuWorld::new(&model).unwrap();
    world.step_for(0.2).unwrap(); // falls g t^2 / 2 = 0.196 m
    let now = world.position_slice()[0];
    assert!(now.z < -0.09);
    let camera = front_camera();
    let image = r.render_cpu(&mut scene, &world, &camera).unwrap();
    let (found, n) = centroid_of(&image, r.style().mass, 3);
    assert!(n > 40);
    let expected = camera.project(now.as_vec3(), W, H).unwrap();
    assert!(found.distance(expected) < 0.75, "{found} vs {expected}");

    // A scene from a model of another size is refused.
    let mut other = Model::new(no_ground());
    other.add_mass(Mass::new(0.1, DVec3::ZERO));
    other.add_mass(Mass::new(0.1, DVec3::X));
    let mut wrong = Drawing::new(&r, &other).unwrap();
    assert!(matches!(
        r.render_cpu(&mut wrong, &world, &camera),
        Err(Error::LengthMismatch {
            expected: 2,
            got: 1,
            ..
        })
    ));
}

#[test]
#[cfg_attr(skip_gpu_tests, ignore = "HOOKE_SKIP_GPU_TESTS=1")]
fn faces_are_shaded_and_hide_what_is_behind_them_but_overlays_do_not() {
    let mut r = renderer();
    r.style_mut().mass_radius = 0.0;
    r.style_mut().line_width = 6.0;
    let style = *r.style();
    // A unit-ish cube of side 0.2 around the origin, seen from the front, with a spring behind
    // it (at y = 0.3) and its exterior faces shaded.
    let mut model = Model::new(no_ground());
    for i in 0..8u32 {
        let c = DVec3::new(
            f64::from(i & 1),
            f64::from((i >> 1) & 1),
            f64::from((i >> 2) & 1),
        );
        model.add_mass(Mass::new(0.1, (c - 0.5) * 0.2));
    }
    let a = model.add_mass(Mass::new(0.1, DVec3::new(-0.05, 0.3, 0.0)));
    let b = model.add_mass(Mass::new(0.1, DVec3::new(0.05, 0.3, 0.0)));
    model.add_spring(Spring::hooke(a, b, 100.0, 0.05)); // stretched: blue
    let mut scene = Drawing::new(&r, &model).unwrap();
    let camera = front_camera();
    let centre = glam::Vec2::new(W as f32 / 2.0, H as f32 / 2.0);

    let image = r.render(&scene, Positions::Uploaded, &camera).unwrap();
    assert!(
        close(pixel(&image, centre), style.tension, 2),
        "the spring shows without faces"
    );

    scene
        .set_triangles(&r, &exterior_triangles(&[[0, 1, 2, 3, 4, 5, 6, 7]]))
        .unwrap();
    let image = r.render(&scene, Positions::Uploaded, &camera).unwrap();
    let face = pixel(&image, centre);
    // The front face (normal -y) is lit by abs(n . light) = 0.5 of the light: 0.4 + 0.6 * 0.5
    // of the face colour in linear light, darker than the face colour, warm like it.
    assert!(face[0] < style.face[0] && face[0] > face[2], "{face:?}");
    assert!(
        !close(face, style.tension, 40),
        "the spring behind the cube shows through"
    );

    // An overlay line is drawn over everything.
    scene
        .set_overlay(
            &r,
            &[OverlayLine {
                a: Vec3::new(-0.05, 0.3, 0.0),
                b: Vec3::new(0.05, 0.3, 0.0),
                color: style.highlight,
            }],
        )
        .unwrap();
    let image = r.render(&scene, Positions::Uploaded, &camera).unwrap();
    assert!(close(pixel(&image, centre), style.highlight, 2));

    // Triangles naming missing masses are refused.
    assert!(matches!(
        scene.set_triangles(&r, &[[0, 1, 99]]),
        Err(Error::IndexOutOfRange { index: 99, .. })
    ));
}

#[test]
#[cfg_attr(skip_gpu_tests, ignore = "HOOKE_SKIP_GPU_TESTS=1")]
fn bad_sizes_and_cameras_are_refused() {
    let (device, queue) = gpu();
    assert!(matches!(
        Renderer::with_device(device.clone(), queue.clone(), 0, 10),
        Err(Error::InvalidParameter { .. })
    ));
    let mut r = renderer();
    assert!(matches!(
        r.resize(10, 0),
        Err(Error::InvalidParameter { .. })
    ));
    let scene = Drawing::new(&r, &Model::new(no_ground())).unwrap();
    let bad = Camera {
        eye: Vec3::NAN,
        ..Camera::default()
    };
    assert!(matches!(
        r.draw(&scene, Positions::Uploaded, &bad),
        Err(Error::InvalidParameter { name: "camera", .. })
    ));
    r.resize(64, 32).unwrap();
    let image = r
        .render(&scene, Positions::Uploaded, &Camera::default())
        .unwrap();
    assert_eq!(image.dimensions(), (64, 32));
}

/// One mass falling for 1500 steps (0.11 m) in a GPU World built with `options`, drawn by
/// `render_world` from the front: the model, the World, the drawn mass's centroid (pixels) and
/// the camera.
fn falling_mass_drawn(options: hooke::WorldOptions) -> (Model, hooke::World, glam::Vec2, Camera) {
    let mut r = renderer();
    r.style_mut().mass_radius = 5.0;
    let mut model = Model::new(no_ground());
    model.add_mass(Mass::new(0.1, DVec3::new(0.05, 0.0, 0.1)));
    let (device, queue) = gpu();
    let mut world =
        hooke::World::with_device(device.clone(), queue.clone(), &model, options).unwrap();
    world.step(1500).unwrap();
    let mut drawing = Drawing::new(&r, &model).unwrap();
    let camera = front_camera();
    let image = r.render_world(&mut drawing, &world, &camera).unwrap();
    let (found, n) = centroid_of(&image, r.style().mass, 3);
    assert!(n > 40);
    (model, world, found, camera)
}

/// An f64 World (its position buffer holds `vec4<f64>`, which the vertex shaders cannot read)
/// is drawn where its mass is: `render_world` reads its positions back and uploads them.
#[test]
#[cfg_attr(skip_gpu_tests, ignore = "HOOKE_SKIP_GPU_TESTS=1")]
fn an_f64_world_is_drawn_where_its_masses_are() {
    let (device, _) = gpu();
    if !device.features().contains(wgpu::Features::SHADER_F64) {
        eprintln!("skipped: {} has no SHADER_F64", device.adapter_info().name);
        return;
    }
    let options = hooke::WorldOptions {
        precision: hooke::Precision::F64,
        ..Default::default()
    };
    let (_, world, found, camera) = falling_mass_drawn(options);
    let expected = camera
        .project(world.positions().unwrap()[0].as_vec3(), W, H)
        .unwrap();
    assert!(found.distance(expected) < 0.75, "{found} vs {expected}");
}

#[test]
#[cfg_attr(skip_gpu_tests, ignore = "HOOKE_SKIP_GPU_TESTS=1")]
fn a_gpu_world_is_drawn_from_its_own_position_buffer() {
    let (model, _, found, camera) = falling_mass_drawn(Default::default());
    let mut cpu = CpuWorld::new(&model).unwrap();
    cpu.step(1500).unwrap();
    // The World's mass fell 0.11 m like the CPU's (f32 against f64 over 1500 steps: far below a
    // pixel, which is 1.2 mm here).
    let expected = camera
        .project(cpu.position_slice()[0].as_vec3(), W, H)
        .unwrap();
    assert!(found.distance(expected) < 0.75, "{found} vs {expected}");
    let start = camera
        .project(model.masses[0].position.as_vec3(), W, H)
        .unwrap();
    assert!(found.distance(start) > 20.0);
}

/// Regression: a World on another device (of the same adapter) was refused as
/// `InvalidParameter { name: "world", value: NaN }`, which names no device. It is a
/// `DeviceMismatch` saying which object is on the other device and how to share one.
#[test]
#[cfg_attr(skip_gpu_tests, ignore = "HOOKE_SKIP_GPU_TESTS=1")]
fn a_world_on_another_device_is_a_device_mismatch_not_a_nan_parameter() {
    let mut model = Model::new(no_ground());
    model.add_mass(Mass::new(0.1, DVec3::new(0.05, 0.0, 0.1)));
    let (one, other) = pollster::block_on(async {
        let adapter = hooke::gpu::find_adapter().await.unwrap();
        (
            hooke::gpu::open_device(&adapter).await.unwrap(),
            hooke::gpu::open_device(&adapter).await.unwrap(),
        )
    });
    let mut r1 = Renderer::with_device(one.0, one.1, W, H).unwrap();
    let other = hooke::World::with_device(other.0, other.1, &model, Default::default()).unwrap();
    let mut drawing = Drawing::new(&r1, &model).unwrap();
    let error = r1
        .render_world(&mut drawing, &other, &front_camera())
        .unwrap_err();
    assert!(
        matches!(
            error,
            Error::DeviceMismatch {
                what: "the World",
                user: "the renderer",
                ..
            }
        ),
        "{error:?}"
    );
    let text = error.to_string();
    assert!(
        text.contains("another wgpu device") && text.contains("Renderer::for_world"),
        "{text}"
    );
    assert!(!text.contains("NaN"), "{text}");
}

#[test]
#[cfg_attr(skip_gpu_tests, ignore = "HOOKE_SKIP_GPU_TESTS=1")]
fn strain_colours_follow_the_muscles_of_a_gpu_world() {
    let (device, queue) = gpu();
    let mut r = renderer();
    *r.style_mut() = Style {
        mass_radius: 0.0,
        line_width: 6.0,
        strain_scale: 0.1,
        ..Style::default()
    };
    // One spring between two fixed masses, its rest length driven at 1 Hz by 20 %.
    let mut model = Model::new(no_ground());
    let a = model.add_mass(Mass::new(0.1, DVec3::new(-0.1, 0.0, 0.0)).fixed());
    let b = model.add_mass(Mass::new(0.1, DVec3::new(0.1, 0.0, 0.0)).fixed());
    model.add_spring(Spring::hooke(a, b, 100.0, 0.2));
    model.add_actuator(hooke::Actuator {
        spring: 0,
        amplitude: 0.2,
        omega: std::f64::consts::TAU,
        phase: 0.0,
        duty: None,
        commanded: false,
    });
    let mut world =
        hooke::World::with_device(device.clone(), queue.clone(), &model, Default::default())
            .unwrap();
    let mut drawing = Drawing::new(&r, &model).unwrap();
    let camera = front_camera();
    let centre = glam::Vec2::new(W as f32 / 2.0, H as f32 / 2.0);
    let style = *r.style();
    // t = 0.25 s: rest length 1.2 x 0.2 m, the spring is squeezed by 17 %: red.
    world.step_for(0.25).unwrap();
    let image = r.render_world(&mut drawing, &world, &camera).unwrap();
    assert!(close(pixel(&image, centre), style.compression, 2));
    // t = 0.75 s: rest length 0.8 x 0.2 m, stretched by 25 %: blue.
    world.step_for(0.5).unwrap();
    let image = r.render_world(&mut drawing, &world, &camera).unwrap();
    assert!(close(pixel(&image, centre), style.tension, 2));
}
