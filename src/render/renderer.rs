//! [`Renderer`]: draws [`Drawing`]s into its targets on a wgpu device and reads the image back.
//! One draw is: check the inputs, write the [`GpuView`] uniform, bind the drawing's buffers
//! (in [`BINDINGS`] order), record the passes ([`Pipelines::record`]), submit.

use std::mem::size_of;

use super::drawing::GpuPosition;
use super::needs::{check_limits, check_size, made, targets_need, LAYOUT_NEEDS, PIPELINES_NEED};
use super::pipelines::{bind_group_layout, shadow_mapped, Pipelines, BINDINGS};
use super::shadow_map::{map_layout, map_size, ShadowMap};
use super::style::{linear, Style};
use super::targets::{Targets, DEPTH_FORMAT, SAMPLES, TARGET_FORMAT};
use super::view::GpuView;
use super::{Camera, Drawing};
use crate::error::{Error, Result};
use crate::gpu::World;
use crate::simulation::Simulation;

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

/// Draws [`Drawing`]s offscreen into an image of fixed size on a wgpu device.
///
/// Create it with its own headless device ([`Renderer::new`]) or on a device and queue the
/// caller already has ([`Renderer::with_device`]), e.g. the GPU World's, so that the World's
/// positions buffer is drawn in place.
///
/// # Examples
///
/// Draw a GPU [`World`] on its own device, straight from its position buffer:
///
/// ```
/// use hooke::render::{Camera, Drawing, Renderer};
/// use hooke::{Builder, Cube, DVec3, Model, Params, Placement, World};
/// # if cfg!(skip_gpu_tests) { return Ok(()); } // HOOKE_SKIP_GPU_TESTS=1: no adapter wanted
///
/// let mut model = Model::new(Params::default());
/// model.add("cube", Cube::lipson().build_at(&Placement::at(DVec3::new(0.0, 0.0, 0.2)))?);
/// let mut world = World::new(&model)?;
/// world.step(100)?;
///
/// let (width, height) = (160, 120); // pixels
/// let mut renderer = Renderer::for_world(&world, width, height)?; // the World's device
/// let mut drawing = Drawing::new(&renderer, &model)?; // springs and masses, uploaded once
/// let camera = Camera::frame(&world.positions()?, width, height, drawing.ground());
/// let image = renderer.render_world(&mut drawing, &world, &camera)?; // or image.save("cube.png")
/// assert_eq!(image.dimensions(), (width, height));
/// // The camera frames the cube: its masses' colour is in the picture (to within the
/// // antialiasing's blend at the discs' edges).
/// let mass = renderer.style().mass;
/// let near = |p: &image::Rgba<u8>| p.0.iter().zip(mass).all(|(&a, b)| a.abs_diff(b) <= 8);
/// assert!(image.pixels().any(near));
/// # Ok::<(), hooke::Error>(())
/// ```
#[derive(Debug)]
pub struct Renderer {
    device: wgpu::Device,
    queue: wgpu::Queue,
    style: Style,
    width: u32,
    height: u32,
    layout: wgpu::BindGroupLayout,
    map_layout: wgpu::BindGroupLayout,
    pipelines: Pipelines,
    /// Made on the first draw of a scene with obstacles (`shadow_map.rs`).
    shadow_map: Option<ShadowMap>,
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
    /// The renderer needs no optional wgpu feature and no downlevel flag beyond storage buffers
    /// in vertex shaders, so it runs on any adapter wgpu offers, OpenGL included.
    ///
    /// # Errors
    /// [`Error::InvalidParameter`] for a zero size or one above the device's
    /// `max_texture_dimension_2d`; [`Error::DeviceUnsupported`], naming what is missing, if the
    /// device has too few storage buffers per shader stage (the vertex shaders bind six), no
    /// storage buffers in vertex shaders, or no 4x multisampling of the target formats, or if
    /// the pipelines fail validation (with wgpu's message).
    pub fn with_device(
        device: wgpu::Device,
        queue: wgpu::Queue,
        width: u32,
        height: u32,
    ) -> Result<Self> {
        check_size(&device, width, height)?;
        check_limits(&device)?;
        let targets = made(&device, &targets_need(), || {
            Targets::new(&device, width, height)
        })?;
        let (layout, map_layout) = made(&device, LAYOUT_NEEDS, || {
            (bind_group_layout(&device), map_layout(&device))
        })?;
        let pipelines = made(&device, PIPELINES_NEED, || {
            Pipelines::new(&device, &layout, &map_layout)
        })?;
        let view_buffer = device.create_buffer(&wgpu::BufferDescriptor {
            label: Some("hooke::render::view"),
            size: size_of::<GpuView>() as u64,
            usage: wgpu::BufferUsages::UNIFORM | wgpu::BufferUsages::COPY_DST,
            mapped_at_creation: false,
        });
        log::debug!(
            "renderer {width}x{height} on {}: {TARGET_FORMAT:?} target resolved from \
             {SAMPLES}x multisampling, {DEPTH_FORMAT:?} depth",
            device.adapter_info().name
        );
        Ok(Self {
            device,
            queue,
            style: Style::default(),
            width,
            height,
            layout,
            map_layout,
            pipelines,
            shadow_map: None,
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
    /// [`Error::InvalidParameter`] for a zero size or one above the device's limit;
    /// [`Error::DeviceUnsupported`] if the device refuses the new targets.
    pub fn resize(&mut self, width: u32, height: u32) -> Result<()> {
        check_size(&self.device, width, height)?;
        if (width, height) != (self.width, self.height) {
            self.targets = made(&self.device, &targets_need(), || {
                Targets::new(&self.device, width, height)
            })?;
            self.width = width;
            self.height = height;
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

    /// The colour texture drawn into ([`TARGET_FORMAT`](super::TARGET_FORMAT), usable as a texture binding, e.g. by a
    /// UI that shows it, and as a copy source).
    #[must_use]
    pub fn target(&self) -> &wgpu::Texture {
        &self.targets.color
    }

    /// A view of [`Renderer::target`] ([`TARGET_FORMAT`](super::TARGET_FORMAT): sampling decodes sRGB to linear).
    #[must_use]
    pub fn target_view(&self) -> &wgpu::TextureView {
        &self.targets.color_view
    }

    /// A view of an `Rgba8Unorm` copy of [`Renderer::target`]: sampling returns the
    /// sRGB-encoded values undecoded. This is the view to give a UI that blends in gamma space
    /// and expects its textures' samples to be gamma-encoded, such as egui
    /// (`egui_wgpu::Renderer::register_native_texture`); with [`Renderer::target_view`] the
    /// image would show too dark.
    ///
    /// The copy is made on the first call (holding what was drawn so far) and refreshed by
    /// every draw after it, until [`Renderer::resize`] makes new targets (call this again
    /// then). It is a copy, not a view of the target itself, because a view in another format
    /// needs the downlevel flag `VIEW_FORMATS`, which wgpu's OpenGL backend lacks; a renderer
    /// that is never asked for it copies nothing.
    #[must_use]
    pub fn target_view_gamma(&self) -> &wgpu::TextureView {
        self.targets.gamma_view(&self.device, &self.queue)
    }

    /// Draws `scene` seen by `camera` into the target, reading positions from `positions`.
    /// Nothing is read back; see [`Renderer::read_image`] or [`Renderer::render`].
    ///
    /// # Errors
    /// [`Error::InvalidParameter`] for a non-finite camera, a style with a non-positive line
    /// width or strain scale or an obstacle shadow brightness outside [0, 1], or a [`Positions::Buffer`] without `STORAGE` usage or smaller
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
        let map_size = map_size(&self.device);
        let view = GpuView::new(
            &self.style,
            scene,
            camera,
            self.width,
            self.height,
            map_size,
        );
        self.queue
            .write_buffer(&self.view_buffer, 0, bytemuck::bytes_of(&view));
        // In BINDINGS order.
        let buffers: [&wgpu::Buffer; BINDINGS.len()] = [
            &self.view_buffer,
            position_buffer,
            &scene.spring_buffer,
            &scene.rest_buffer,
            &scene.flag_buffer,
            &scene.triangle_buffer,
            &scene.overlay_buffer,
            &scene.surface_buffer,
        ];
        let entries: Vec<wgpu::BindGroupEntry<'_>> = buffers
            .iter()
            .zip(0u32..)
            .map(|(buffer, binding)| wgpu::BindGroupEntry {
                binding,
                resource: buffer.as_entire_binding(),
            })
            .collect();
        let bind_group = self.device.create_bind_group(&wgpu::BindGroupDescriptor {
            label: Some("hooke::render::drawing"),
            layout: &self.layout,
            entries: &entries,
        });
        let mut encoder = self
            .device
            .create_command_encoder(&wgpu::CommandEncoderDescriptor {
                label: Some("hooke::render::draw"),
            });
        let shadow_map = if shadow_mapped(scene, &self.style).is_some() {
            let map = self
                .shadow_map
                .get_or_insert_with(|| ShadowMap::new(&self.device, &self.map_layout, map_size));
            map.record(
                &mut encoder,
                &self.pipelines,
                &bind_group,
                scene,
                &self.style,
            );
            Some(&*map)
        } else {
            None
        };
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
            if let Some(map) = shadow_map {
                pass.set_bind_group(1, map.bind_group(), &[]);
            }
            self.pipelines.record(&mut pass, scene, &self.style);
        }
        self.targets.refresh_gamma(&mut encoder);
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
        let unpadded = width as usize * size_of::<image::Rgba<u8>>();
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

    /// Renders a world from the host: uploads its positions and current rest lengths into
    /// `scene` (made from the same model), then [`Renderer::render`]s from them. Meant for a
    /// [`CpuWorld`](crate::CpuWorld), whose state is on the host; any [`Simulation`] works (a GPU
    /// [`World`] is read back: [`Renderer::render_world`] draws it without a copy).
    ///
    /// # Errors
    /// [`Error::LengthMismatch`] if `scene` was made from a model of another size; those of
    /// [`Renderer::render`]; the world's readback errors.
    pub fn render_cpu<S: Simulation>(
        &mut self,
        scene: &mut Drawing,
        world: &S,
        camera: &Camera,
    ) -> Result<image::RgbaImage> {
        scene.set_positions(self, &world.positions()?)?;
        scene.set_rest_lengths(self, &world.rest_lengths()?)?;
        self.render(scene, Positions::Uploaded, camera)
    }

    /// Draws a GPU [`World`] from its position buffer, on the GPU, with nothing copied back
    /// (see [`Renderer::render_world`], which also reads the image back; an f64 World's
    /// positions are read back and uploaded).
    ///
    /// # Errors
    /// As [`Renderer::render_world`], without the readback errors (with them for an f64 World).
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
            return Err(Error::DeviceMismatch {
                what: "the World",
                user: "the renderer",
                fix: "make the renderer with Renderer::for_world(&world, ..) or \
                      Renderer::with_device(world.device().clone(), world.queue().clone(), ..)",
            });
        }
        drawing.actuate(self, world.actuators(), world.time())?;
        if world.precision() == crate::Precision::F64 {
            // The vertex shaders read `vec4<f32>`: an f64 World's positions are read back and
            // uploaded to the drawing's own buffer instead.
            drawing.set_positions(self, &world.positions()?)?;
            return self.draw(drawing, Positions::Uploaded, camera);
        }
        self.draw(drawing, Positions::Buffer(world.position_buffer()), camera)
    }

    /// Renders a GPU [`World`] running on this renderer's device: positions are read by the
    /// vertex shaders straight from [`World::position_buffer`] (no state is copied back to
    /// draw; a [`Precision::F64`](crate::Precision::F64) World's positions are read back and
    /// uploaded, 32 bytes per mass), and the rest lengths of actuated springs are set for [`World::time`] (see
    /// [`Drawing::actuate`]). Rest lengths changed with `World::set_rest_length` are not seen:
    /// give them to [`Drawing::set_rest_lengths`] as well. Only the finished image is read back.
    ///
    /// # Errors
    /// [`Error::DeviceMismatch`] if the World is on another device; [`Error::LengthMismatch`]
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
        if !(0.0..=1.0).contains(&s.obstacle_shadow) {
            return bad(
                "style.obstacle_shadow",
                f64::from(s.obstacle_shadow),
                "must lie in [0, 1] (brightness in shadow, fraction of lit)",
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
            let needed = u64::from(scene.masses) * size_of::<GpuPosition>() as u64;
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
}
