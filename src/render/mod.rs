//! Offscreen rendering with wgpu: springs coloured by strain, masses, the ground, shaded faces,
//! to PNG frames and GIF animations.
//!
//! The renderer draws straight from a GPU buffer of positions laid out as `array<vec4<f32>>`
//! (xyz in m, w unused), so a GPU World on the same device is drawn without copying its state
//! back; a [`crate::CpuWorld`]'s positions are uploaded into the [`Drawing`]'s own buffer each
//! frame instead.
//!
//! ```no_run
//! # fn main() -> hooke::Result<()> {
//! use hooke::render::{Camera, Positions, Renderer, Drawing};
//! # let model = hooke::Model::default();
//! let mut world = hooke::CpuWorld::new(&model)?;
//! let mut renderer = Renderer::new(640, 480)?; // its own device, headless (lavapipe works)
//! let mut scene = Drawing::new(&renderer, &model)?;
//! let camera = Camera::frame(world.positions(), 640, 480, scene.ground());
//! world.step(1000)?;
//! let image = renderer.render_cpu(&mut scene, &world, &camera)?;
//! image.save("frame.png").expect("write frame.png");
//! # Ok(()) }
//! ```
//!
//! To run a CPU world and write its GIF and energy plot in one call, see [`record_cpu`]
//! (feature `plot`, default).
//!
//! ## Conventions
//! World space is the crate's: SI units, right-handed, z up, the ground is the plane `z = 0`.
//! Images are `width` x `height` pixels, origin at the top-left corner, y down (see
//! [`Camera::project`]). Colours are sRGB ([`Srgba`]).

mod camera;
mod drawing;
mod faces;
mod gif;
pub mod input;
#[cfg(feature = "plot")]
mod record;
mod style;

use std::path::Path;

use bytemuck::{Pod, Zeroable};
use glam::{DVec3, Vec3};

pub use camera::{Camera, DEFAULT_AZIMUTH, DEFAULT_ELEVATION, DEFAULT_FOV_Y};
pub use drawing::{Drawing, OverlayLine};
pub use faces::{exterior_triangles, HEXAHEDRON_FACES};
pub use gif::{FrameSchedule, GifWriter};
#[cfg(feature = "plot")]
pub use record::{record_cpu, record_cpu_with, Framing, RecordOptions, RecordingSummary};
pub use style::{Srgba, Style};

use crate::cpu::CpuWorld;
use crate::error::{Error, Result};
use crate::gpu::World;
use style::linear;

/// Format of the renderer's colour target and of the images it returns: 8-bit RGBA, sRGB.
pub const TARGET_FORMAT: wgpu::TextureFormat = wgpu::TextureFormat::Rgba8UnormSrgb;

/// Depth buffer format.
const DEPTH_FORMAT: wgpu::TextureFormat = wgpu::TextureFormat::Depth32Float;

/// Multisample count (4 is supported by every WebGPU device for the formats used here).
const SAMPLES: u32 = 4;

/// The WGSL source of every render pass.
const SHADER: &str = include_str!("../../shaders/render.wgsl");

/// Where the renderer reads mass positions from at draw time.
#[derive(Clone, Copy, Debug)]
pub enum Positions<'a> {
    /// The drawing's own buffer, as last filled by [`Drawing::set_positions`] (at first, the
    /// model's initial positions): how a [`crate::CpuWorld`] is drawn.
    Uploaded,
    /// A storage buffer on the renderer's device holding at least one `vec4<f32>` (xyz in m) per
    /// mass, in model order: the GPU World's positions buffer. It needs
    /// [`wgpu::BufferUsages::STORAGE`].
    Buffer(&'a wgpu::Buffer),
}

/// The uniform block every pass reads (`View` in shaders/render.wgsl).
#[repr(C)]
#[derive(Clone, Copy, Debug, Pod, Zeroable)]
pub(crate) struct GpuView {
    view_proj: [[f32; 4]; 4],
    eye: [f32; 4],
    viewport: [f32; 4],
    neutral: [f32; 4],
    tension: [f32; 4],
    compression: [f32; 4],
    mass: [f32; 4],
    fixed_mass: [f32; 4],
    highlight: [f32; 4],
    face: [f32; 4],
    shadow: [f32; 4],
    ground: [f32; 4],
    grid: [f32; 4],
    background: [f32; 4],
    sizes: [f32; 4],
    ground_area: [f32; 4],
    light: [f32; 4],
    flags: [u32; 4],
}
const _: () = assert!(std::mem::size_of::<GpuView>() == 64 + 17 * 16);

/// Highlight index meaning "no mass highlighted".
const NO_HIGHLIGHT: u32 = u32::MAX;

/// The pipelines, one per entry point pair in shaders/render.wgsl.
#[derive(Debug)]
struct Pipelines {
    ground: wgpu::RenderPipeline,
    spring_shadows: wgpu::RenderPipeline,
    mass_shadows: wgpu::RenderPipeline,
    faces: wgpu::RenderPipeline,
    springs: wgpu::RenderPipeline,
    masses: wgpu::RenderPipeline,
    overlay: wgpu::RenderPipeline,
}

/// The render targets, remade on resize.
#[derive(Debug)]
struct Targets {
    /// Single-sampled colour target: resolved into, read back, sampled by UIs.
    color: wgpu::Texture,
    color_view: wgpu::TextureView,
    /// The same texture seen as `Rgba8Unorm`: sampling returns the sRGB-encoded bytes.
    color_view_raw: wgpu::TextureView,
    msaa_view: wgpu::TextureView,
    depth_view: wgpu::TextureView,
}

/// Draws [`Drawing`]s offscreen into an image of fixed size on a wgpu device.
///
/// Create it with its own headless device ([`Renderer::new`]) or on a device and queue the
/// caller already has ([`Renderer::with_device`]), e.g. the GPU World's, so that the World's
/// positions buffer is drawn in place.
#[derive(Debug)]
pub struct Renderer {
    device: wgpu::Device,
    queue: wgpu::Queue,
    style: Style,
    width: u32,
    height: u32,
    layout: wgpu::BindGroupLayout,
    pipelines: Pipelines,
    view_buffer: wgpu::Buffer,
    targets: Targets,
    readback: Option<wgpu::Buffer>,
}

impl Renderer {
    /// A renderer of `width` x `height` pixels on its own device, picked as the GPU World picks
    /// one ([`crate::gpu::request_device`]: lavapipe or another software adapter when there is
    /// no GPU), with the default [`Style`]. Needs no window or display. To draw a [`World`]
    /// without copying its state, use [`Renderer::for_world`] instead.
    ///
    /// # Errors
    /// [`Error::NoAdapter`] (listing the adapters seen), [`Error::RequestDevice`];
    /// [`Renderer::with_device`]'s errors.
    pub fn new(width: u32, height: u32) -> Result<Self> {
        let (device, queue) = crate::gpu::request_device()?;
        Self::with_device(device, queue, width, height)
    }

    /// A renderer of `width` x `height` pixels on `world`'s device and queue, so that
    /// [`Renderer::render_world`] draws straight from the World's position buffer.
    ///
    /// # Errors
    /// As [`Renderer::with_device`].
    pub fn for_world(world: &World, width: u32, height: u32) -> Result<Self> {
        Self::with_device(world.device().clone(), world.queue().clone(), width, height)
    }

    /// A renderer of `width` x `height` pixels on `device` and `queue` (for example those the
    /// GPU World runs on), with the default [`Style`].
    ///
    /// # Errors
    /// [`Error::InvalidParameter`] for a zero size or one above the device's
    /// `max_texture_dimension_2d`; [`Error::Gpu`] if the shaders or pipelines fail validation.
    pub fn with_device(
        device: wgpu::Device,
        queue: wgpu::Queue,
        width: u32,
        height: u32,
    ) -> Result<Self> {
        check_size(&device, width, height)?;
        let scope = device.push_error_scope(wgpu::ErrorFilter::Validation);
        let layout = bind_group_layout(&device);
        let pipelines = pipelines(&device, &layout);
        let view_buffer = device.create_buffer(&wgpu::BufferDescriptor {
            label: Some("hooke::render::view"),
            size: std::mem::size_of::<GpuView>() as u64,
            usage: wgpu::BufferUsages::UNIFORM | wgpu::BufferUsages::COPY_DST,
            mapped_at_creation: false,
        });
        let targets = targets(&device, width, height);
        if let Some(error) = pollster::block_on(scope.pop()) {
            return Err(Error::Gpu(error.to_string()));
        }
        Ok(Self {
            device,
            queue,
            style: Style::default(),
            width,
            height,
            layout,
            pipelines,
            view_buffer,
            targets,
            readback: None,
        })
    }

    /// The device it draws with.
    #[must_use]
    pub fn device(&self) -> &wgpu::Device {
        &self.device
    }

    /// The queue it submits to.
    #[must_use]
    pub fn queue(&self) -> &wgpu::Queue {
        &self.queue
    }

    /// Image width and height, in pixels.
    #[must_use]
    pub fn size(&self) -> (u32, u32) {
        (self.width, self.height)
    }

    /// Changes the image size (the targets are remade).
    ///
    /// # Errors
    /// [`Error::InvalidParameter`] for a zero size or one above the device's limit.
    pub fn resize(&mut self, width: u32, height: u32) -> Result<()> {
        check_size(&self.device, width, height)?;
        if (width, height) != (self.width, self.height) {
            self.width = width;
            self.height = height;
            self.targets = targets(&self.device, width, height);
            self.readback = None;
        }
        Ok(())
    }

    /// The current style.
    #[must_use]
    pub fn style(&self) -> &Style {
        &self.style
    }

    /// The style, to change.
    pub fn style_mut(&mut self) -> &mut Style {
        &mut self.style
    }

    /// The colour texture drawn into ([`TARGET_FORMAT`], usable as a texture binding, e.g. by a
    /// UI that shows it, and as a copy source).
    #[must_use]
    pub fn target(&self) -> &wgpu::Texture {
        &self.targets.color
    }

    /// A view of [`Renderer::target`] ([`TARGET_FORMAT`]: sampling decodes sRGB to linear).
    #[must_use]
    pub fn target_view(&self) -> &wgpu::TextureView {
        &self.targets.color_view
    }

    /// A view of [`Renderer::target`] as `Rgba8Unorm`: sampling returns the sRGB-encoded values
    /// undecoded. This is the view to give a UI that blends in gamma space and expects its
    /// textures' samples to be gamma-encoded, such as egui (`egui_wgpu::Renderer::
    /// register_native_texture`); with [`Renderer::target_view`] the image would show too dark.
    #[must_use]
    pub fn target_view_gamma(&self) -> &wgpu::TextureView {
        &self.targets.color_view_raw
    }

    /// Draws `scene` seen by `camera` into the target, reading positions from `positions`.
    /// Nothing is read back; see [`Renderer::read_image`] or [`Renderer::render`].
    ///
    /// # Errors
    /// [`Error::InvalidParameter`] for a non-finite camera, a style with a non-positive line
    /// width or strain scale, or a [`Positions::Buffer`] without `STORAGE` usage or smaller
    /// than 16 bytes per mass; [`Error::Gpu`] for a wgpu validation error (for example a buffer
    /// from another device).
    pub fn draw(
        &mut self,
        scene: &Drawing,
        positions: Positions<'_>,
        camera: &Camera,
    ) -> Result<()> {
        self.check(scene, positions, camera)?;
        let position_buffer = match positions {
            Positions::Uploaded => &scene.position_buffer,
            Positions::Buffer(buffer) => buffer,
        };
        let scope = self.device.push_error_scope(wgpu::ErrorFilter::Validation);
        let view = self.gpu_view(scene, camera);
        self.queue
            .write_buffer(&self.view_buffer, 0, bytemuck::bytes_of(&view));
        let bind_group = self.device.create_bind_group(&wgpu::BindGroupDescriptor {
            label: Some("hooke::render::drawing"),
            layout: &self.layout,
            entries: &[
                entry(0, &self.view_buffer),
                entry(1, position_buffer),
                entry(2, &scene.spring_buffer),
                entry(3, &scene.rest_buffer),
                entry(4, &scene.flag_buffer),
                entry(5, &scene.triangle_buffer),
                entry(6, &scene.overlay_buffer),
            ],
        });
        let mut encoder = self
            .device
            .create_command_encoder(&wgpu::CommandEncoderDescriptor {
                label: Some("hooke::render::draw"),
            });
        {
            let bg = linear(self.style.background);
            let mut pass = encoder.begin_render_pass(&wgpu::RenderPassDescriptor {
                label: Some("hooke::render::pass"),
                color_attachments: &[Some(wgpu::RenderPassColorAttachment {
                    view: &self.targets.msaa_view,
                    depth_slice: None,
                    resolve_target: Some(&self.targets.color_view),
                    ops: wgpu::Operations {
                        load: wgpu::LoadOp::Clear(wgpu::Color {
                            r: f64::from(bg[0]),
                            g: f64::from(bg[1]),
                            b: f64::from(bg[2]),
                            a: f64::from(bg[3]),
                        }),
                        store: wgpu::StoreOp::Discard,
                    },
                })],
                depth_stencil_attachment: Some(wgpu::RenderPassDepthStencilAttachment {
                    view: &self.targets.depth_view,
                    depth_ops: Some(wgpu::Operations {
                        load: wgpu::LoadOp::Clear(1.0),
                        store: wgpu::StoreOp::Discard,
                    }),
                    stencil_ops: None,
                }),
                timestamp_writes: None,
                occlusion_query_set: None,
                multiview_mask: None,
            });
            pass.set_bind_group(0, &bind_group, &[]);
            let style = &self.style;
            let ground = scene.ground && style.show_ground;
            let p = &self.pipelines;
            if ground {
                pass.set_pipeline(&p.ground);
                pass.draw(0..6, 0..1);
                if style.shadows {
                    if style.show_springs && scene.springs > 0 {
                        pass.set_pipeline(&p.spring_shadows);
                        pass.draw(0..6, 0..scene.springs);
                    }
                    if style.show_masses && style.mass_radius > 0.0 && scene.masses > 0 {
                        pass.set_pipeline(&p.mass_shadows);
                        pass.draw(0..6, 0..scene.masses);
                    }
                }
            }
            if style.show_faces && scene.triangles > 0 {
                pass.set_pipeline(&p.faces);
                pass.draw(0..3 * scene.triangles, 0..1);
            }
            if style.show_springs && scene.springs > 0 {
                pass.set_pipeline(&p.springs);
                pass.draw(0..6, 0..scene.springs);
            }
            if style.show_masses && style.mass_radius > 0.0 && scene.masses > 0 {
                pass.set_pipeline(&p.masses);
                pass.draw(0..6, 0..scene.masses);
            }
            if scene.overlay_lines > 0 {
                pass.set_pipeline(&p.overlay);
                pass.draw(0..6, 0..scene.overlay_lines);
            }
        }
        self.queue.submit([encoder.finish()]);
        if let Some(error) = pollster::block_on(scope.pop()) {
            return Err(Error::Gpu(error.to_string()));
        }
        Ok(())
    }

    /// Copies the target back to the host as an sRGB RGBA image (waits for the GPU).
    ///
    /// # Errors
    /// [`Error::Poll`] if waiting for the device fails, [`Error::BufferAsync`] if the map fails,
    /// [`Error::Gpu`] for a validation error.
    pub fn read_image(&mut self) -> Result<image::RgbaImage> {
        let (width, height) = (self.width, self.height);
        let unpadded = width as usize * 4;
        let padded = unpadded.next_multiple_of(wgpu::COPY_BYTES_PER_ROW_ALIGNMENT as usize);
        let size = (padded * height as usize) as u64;
        let readback = self.readback.get_or_insert_with(|| {
            crate::gpu::readback::staging(&self.device, "hooke::render::readback", size)
        });
        let color = &self.targets.color;
        let mapped =
            crate::gpu::readback::read_back(&self.device, &self.queue, readback, size, |e, st| {
                e.copy_texture_to_buffer(
                    wgpu::TexelCopyTextureInfo {
                        texture: color,
                        mip_level: 0,
                        origin: wgpu::Origin3d::ZERO,
                        aspect: wgpu::TextureAspect::All,
                    },
                    wgpu::TexelCopyBufferInfo {
                        buffer: st,
                        layout: wgpu::TexelCopyBufferLayout {
                            offset: 0,
                            bytes_per_row: Some(padded as u32),
                            rows_per_image: Some(height),
                        },
                    },
                    wgpu::Extent3d {
                        width,
                        height,
                        depth_or_array_layers: 1,
                    },
                );
            })?;
        let mut pixels = Vec::with_capacity(unpadded * height as usize);
        for row in mapped.chunks_exact(padded) {
            pixels.extend_from_slice(&row[..unpadded]);
        }
        image::RgbaImage::from_raw(width, height, pixels)
            .ok_or_else(|| Error::Gpu("readback size does not match the image".to_string()))
    }

    /// [`Renderer::draw`] then [`Renderer::read_image`].
    ///
    /// # Errors
    /// Those of both.
    pub fn render(
        &mut self,
        scene: &Drawing,
        positions: Positions<'_>,
        camera: &Camera,
    ) -> Result<image::RgbaImage> {
        self.draw(scene, positions, camera)?;
        self.read_image()
    }

    /// Renders a CPU world: uploads its positions and current rest lengths into `scene` (made
    /// from the same model), then [`Renderer::render`]s from them.
    ///
    /// # Errors
    /// [`Error::LengthMismatch`] if `scene` was made from a model of another size; those of
    /// [`Renderer::render`].
    pub fn render_cpu(
        &mut self,
        scene: &mut Drawing,
        world: &CpuWorld,
        camera: &Camera,
    ) -> Result<image::RgbaImage> {
        scene.set_positions(self, world.positions())?;
        scene.set_rest_lengths(self, world.rest_lengths())?;
        self.render(scene, Positions::Uploaded, camera)
    }

    /// Draws a GPU [`World`] from its position buffer, on the GPU, with nothing copied back
    /// (see [`Renderer::render_world`], which also reads the image back).
    ///
    /// # Errors
    /// As [`Renderer::render_world`], without the readback errors.
    ///
    /// # Panics
    /// wgpu compares devices by id within one `wgpu::Instance`: a World whose device comes from
    /// another instance may pass the device check and then make wgpu-core panic when its buffer
    /// is bound. Share the device itself ([`Renderer::for_world`]) rather than opening a second
    /// one.
    pub fn draw_world(
        &mut self,
        drawing: &mut Drawing,
        world: &World,
        camera: &Camera,
    ) -> Result<()> {
        if world.device() != &self.device {
            return Err(Error::InvalidParameter {
                name: "world",
                value: f64::NAN,
                expected: "the World must run on the renderer's device: make the renderer with \
                           Renderer::for_world or Renderer::with_device(world.device().clone(), \
                           world.queue().clone(), ..)",
            });
        }
        drawing.actuate(self, world.actuators(), world.time())?;
        self.draw(drawing, Positions::Buffer(world.position_buffer()), camera)
    }

    /// Renders a GPU [`World`] running on this renderer's device: positions are read by the
    /// vertex shaders straight from [`World::position_buffer`] (no state is copied back to
    /// draw), and the rest lengths of actuated springs are set for [`World::time`] (see
    /// [`Drawing::actuate`]). Rest lengths changed with `World::set_rest_length` are not seen:
    /// give them to [`Drawing::set_rest_lengths`] as well. Only the finished image is read back.
    ///
    /// # Errors
    /// [`Error::InvalidParameter`] if the World is on another device; [`Error::LengthMismatch`]
    /// if `drawing` was made from a model with more masses than the World has; those of
    /// [`Renderer::render`].
    pub fn render_world(
        &mut self,
        drawing: &mut Drawing,
        world: &World,
        camera: &Camera,
    ) -> Result<image::RgbaImage> {
        self.draw_world(drawing, world, camera)?;
        self.read_image()
    }

    /// Renders a CPU world to a PNG file at `path`.
    ///
    /// # Errors
    /// Those of [`Renderer::render_cpu`]; [`Error::ImageWrite`] if the file cannot be written.
    pub fn save_png_cpu(
        &mut self,
        scene: &mut Drawing,
        world: &CpuWorld,
        camera: &Camera,
        path: impl AsRef<Path>,
    ) -> Result<()> {
        let image = self.render_cpu(scene, world, camera)?;
        save_png(&image, path)
    }

    fn check(&self, scene: &Drawing, positions: Positions<'_>, camera: &Camera) -> Result<()> {
        let bad = |name: &'static str, value: f64, expected: &'static str| {
            Err(Error::InvalidParameter {
                name,
                value,
                expected,
            })
        };
        if !(camera.eye.is_finite()
            && camera.target.is_finite()
            && camera.fov_y.is_finite()
            && camera.fov_y > 0.0
            && camera.fov_y < std::f32::consts::PI
            && camera.near > 0.0
            && camera.far > camera.near
            && camera.far.is_finite()
            && camera.eye != camera.target)
        {
            return bad(
                "camera",
                f64::NAN,
                "eye and target must be finite and distinct, 0 < fov_y < pi, 0 < near < far",
            );
        }
        let s = &self.style;
        if !(s.line_width.is_finite() && s.line_width > 0.0) {
            return bad(
                "style.line_width",
                f64::from(s.line_width),
                "must be finite and > 0 px",
            );
        }
        if !(s.mass_radius.is_finite() && s.mass_radius >= 0.0) {
            return bad(
                "style.mass_radius",
                f64::from(s.mass_radius),
                "must be finite and >= 0 px",
            );
        }
        if !(s.strain_scale.is_finite() && s.strain_scale > 0.0) {
            return bad(
                "style.strain_scale",
                f64::from(s.strain_scale),
                "must be finite and > 0",
            );
        }
        if let Some(g) = s.grid_spacing {
            if !(g.is_finite() && g > 0.0) {
                return bad(
                    "style.grid_spacing",
                    f64::from(g),
                    "must be finite and > 0 m",
                );
            }
        }
        if let Positions::Buffer(buffer) = positions {
            if !buffer.usage().contains(wgpu::BufferUsages::STORAGE) {
                return bad(
                    "positions buffer usage",
                    f64::NAN,
                    "the positions buffer needs BufferUsages::STORAGE",
                );
            }
            let needed = scene.masses as u64 * 16;
            if buffer.size() < needed {
                return Err(Error::LengthMismatch {
                    what: "positions buffer bytes (16 per mass)",
                    expected: needed as usize,
                    got: buffer.size() as usize,
                });
            }
        }
        Ok(())
    }

    fn gpu_view(&self, scene: &Drawing, camera: &Camera) -> GpuView {
        let s = &self.style;
        let distance = camera.distance();
        let spacing = s
            .grid_spacing
            .unwrap_or_else(|| 10f32.powf((distance / 30.0).log10().floor()));
        let light = Vec3::new(0.3, -0.5, 0.8).normalize();
        GpuView {
            view_proj: camera
                .view_projection(self.width, self.height)
                .to_cols_array_2d(),
            eye: camera.eye.extend(1.0).to_array(),
            viewport: [
                self.width as f32,
                self.height as f32,
                camera.pixel_size_at_unit_depth(self.height),
                0.0,
            ],
            neutral: linear(s.neutral),
            tension: linear(s.tension),
            compression: linear(s.compression),
            mass: linear(s.mass),
            fixed_mass: linear(s.fixed_mass),
            highlight: linear(s.highlight),
            face: linear(s.face),
            shadow: linear(s.shadow),
            ground: linear(s.ground),
            grid: linear(s.grid),
            background: linear(s.background),
            sizes: [s.strain_scale, 0.5 * s.line_width, s.mass_radius, spacing],
            ground_area: [
                camera.target.x,
                camera.target.y,
                (camera.far * 0.9).min(distance * 12.0),
                0.0,
            ],
            light: light.extend(0.0).to_array(),
            flags: [scene.highlight.unwrap_or(NO_HIGHLIGHT), 0, 0, 0],
        }
    }
}

impl Camera {
    /// The default-view camera ([`Camera::fit`]) framing `points` (m) in a `width` x `height`
    /// image; with `ground`, their shadows on `z = 0` are framed too. No points frame the 1 m box
    /// at the origin.
    #[must_use]
    pub fn frame(points: &[DVec3], width: u32, height: u32, ground: bool) -> Self {
        let (min, max) = bounds(points, ground).unwrap_or((Vec3::ZERO, Vec3::ONE));
        Self::fit(min, max, camera::aspect(width, height))
    }
}

/// The axis-aligned bounds of `points` (m), with their projections on `z = 0` if `ground`;
/// `None` for no points or only non-finite ones.
#[must_use]
pub fn bounds(points: &[DVec3], ground: bool) -> Option<(Vec3, Vec3)> {
    let mut it = points.iter().filter(|p| p.is_finite()).map(|p| p.as_vec3());
    let first = it.next()?;
    let (mut min, mut max) = (first, first);
    for p in it {
        min = min.min(p);
        max = max.max(p);
    }
    if ground {
        min.z = min.z.min(0.0);
        max.z = max.z.max(0.0);
    }
    Some((min, max))
}

/// Writes `image` as a PNG file at `path`.
///
/// # Errors
/// [`Error::ImageWrite`] if it cannot be encoded or written.
pub fn save_png(image: &image::RgbaImage, path: impl AsRef<Path>) -> Result<()> {
    let path = path.as_ref();
    image
        .save_with_format(path, image::ImageFormat::Png)
        .map_err(|source| Error::ImageWrite {
            path: path.to_path_buf(),
            source,
        })
}

fn check_size(device: &wgpu::Device, width: u32, height: u32) -> Result<()> {
    let limit = device.limits().max_texture_dimension_2d;
    for (name, v) in [("image width", width), ("image height", height)] {
        if v == 0 || v > limit {
            return Err(Error::InvalidParameter {
                name,
                value: f64::from(v),
                expected: "must be > 0 and at most the device's max_texture_dimension_2d pixels",
            });
        }
    }
    Ok(())
}

fn entry(binding: u32, buffer: &wgpu::Buffer) -> wgpu::BindGroupEntry<'_> {
    wgpu::BindGroupEntry {
        binding,
        resource: buffer.as_entire_binding(),
    }
}

fn bind_group_layout(device: &wgpu::Device) -> wgpu::BindGroupLayout {
    let storage = |binding| wgpu::BindGroupLayoutEntry {
        binding,
        visibility: wgpu::ShaderStages::VERTEX,
        ty: wgpu::BindingType::Buffer {
            ty: wgpu::BufferBindingType::Storage { read_only: true },
            has_dynamic_offset: false,
            min_binding_size: None,
        },
        count: None,
    };
    device.create_bind_group_layout(&wgpu::BindGroupLayoutDescriptor {
        label: Some("hooke::render::drawing"),
        entries: &[
            wgpu::BindGroupLayoutEntry {
                binding: 0,
                visibility: wgpu::ShaderStages::VERTEX_FRAGMENT,
                ty: wgpu::BindingType::Buffer {
                    ty: wgpu::BufferBindingType::Uniform,
                    has_dynamic_offset: false,
                    min_binding_size: wgpu::BufferSize::new(std::mem::size_of::<GpuView>() as u64),
                },
                count: None,
            },
            storage(1),
            storage(2),
            storage(3),
            storage(4),
            storage(5),
            storage(6),
        ],
    })
}

fn pipelines(device: &wgpu::Device, layout: &wgpu::BindGroupLayout) -> Pipelines {
    let module = device.create_shader_module(wgpu::ShaderModuleDescriptor {
        label: Some("hooke::render"),
        source: wgpu::ShaderSource::Wgsl(SHADER.into()),
    });
    let pipeline_layout = device.create_pipeline_layout(&wgpu::PipelineLayoutDescriptor {
        label: Some("hooke::render"),
        bind_group_layouts: &[Some(layout)],
        immediate_size: 0,
    });
    let min_blend = wgpu::BlendComponent {
        src_factor: wgpu::BlendFactor::One,
        dst_factor: wgpu::BlendFactor::One,
        operation: wgpu::BlendOperation::Min,
    };
    let make = |name: &str,
                vertex: &str,
                fragment: &str,
                depth_write: bool,
                depth_compare: wgpu::CompareFunction,
                blend: Option<wgpu::BlendState>| {
        device.create_render_pipeline(&wgpu::RenderPipelineDescriptor {
            label: Some(name),
            layout: Some(&pipeline_layout),
            vertex: wgpu::VertexState {
                module: &module,
                entry_point: Some(vertex),
                compilation_options: Default::default(),
                buffers: &[],
            },
            primitive: wgpu::PrimitiveState::default(),
            depth_stencil: Some(wgpu::DepthStencilState {
                format: DEPTH_FORMAT,
                depth_write_enabled: Some(depth_write),
                depth_compare: Some(depth_compare),
                stencil: wgpu::StencilState::default(),
                bias: wgpu::DepthBiasState::default(),
            }),
            multisample: wgpu::MultisampleState {
                count: SAMPLES,
                ..Default::default()
            },
            fragment: Some(wgpu::FragmentState {
                module: &module,
                entry_point: Some(fragment),
                compilation_options: Default::default(),
                targets: &[Some(wgpu::ColorTargetState {
                    format: TARGET_FORMAT,
                    blend,
                    write_mask: wgpu::ColorWrites::ALL,
                })],
            }),
            multiview_mask: None,
            cache: None,
        })
    };
    use wgpu::CompareFunction::{Always, LessEqual};
    let min = Some(wgpu::BlendState {
        color: min_blend,
        alpha: min_blend,
    });
    Pipelines {
        ground: make(
            "hooke::render::ground",
            "ground_vs",
            "ground_fs",
            false,
            Always,
            None,
        ),
        spring_shadows: make(
            "hooke::render::spring_shadows",
            "spring_shadows_vs",
            "flat_fs",
            false,
            Always,
            min,
        ),
        mass_shadows: make(
            "hooke::render::mass_shadows",
            "mass_shadows_vs",
            "disc_fs",
            false,
            Always,
            min,
        ),
        faces: make(
            "hooke::render::faces",
            "faces_vs",
            "flat_fs",
            true,
            LessEqual,
            None,
        ),
        springs: make(
            "hooke::render::springs",
            "springs_vs",
            "flat_fs",
            true,
            LessEqual,
            None,
        ),
        masses: make(
            "hooke::render::masses",
            "masses_vs",
            "disc_fs",
            true,
            LessEqual,
            None,
        ),
        overlay: make(
            "hooke::render::overlay",
            "overlay_vs",
            "flat_fs",
            false,
            Always,
            None,
        ),
    }
}

fn targets(device: &wgpu::Device, width: u32, height: u32) -> Targets {
    let size = wgpu::Extent3d {
        width,
        height,
        depth_or_array_layers: 1,
    };
    let texture = |label, samples, format, usage, view_formats: &[wgpu::TextureFormat]| {
        device.create_texture(&wgpu::TextureDescriptor {
            label: Some(label),
            size,
            mip_level_count: 1,
            sample_count: samples,
            dimension: wgpu::TextureDimension::D2,
            format,
            usage,
            view_formats,
        })
    };
    let color = texture(
        "hooke::render::color",
        1,
        TARGET_FORMAT,
        wgpu::TextureUsages::RENDER_ATTACHMENT
            | wgpu::TextureUsages::COPY_SRC
            | wgpu::TextureUsages::TEXTURE_BINDING,
        &[wgpu::TextureFormat::Rgba8Unorm],
    );
    let msaa = texture(
        "hooke::render::color_msaa",
        SAMPLES,
        TARGET_FORMAT,
        wgpu::TextureUsages::RENDER_ATTACHMENT,
        &[],
    );
    let depth = texture(
        "hooke::render::depth",
        SAMPLES,
        DEPTH_FORMAT,
        wgpu::TextureUsages::RENDER_ATTACHMENT,
        &[],
    );
    Targets {
        color_view: color.create_view(&Default::default()),
        color_view_raw: color.create_view(&wgpu::TextureViewDescriptor {
            label: Some("hooke::render::color_gamma"),
            format: Some(wgpu::TextureFormat::Rgba8Unorm),
            ..Default::default()
        }),
        color,
        msaa_view: msaa.create_view(&Default::default()),
        depth_view: depth.create_view(&Default::default()),
    }
}
