//! The GPU-side description of what to draw: spring topology, rest lengths, fixed flags,
//! triangles and overlay lines, uploaded once from a [`Model`].

use bytemuck::{Pod, Zeroable};
use glam::{DVec3, Vec3};

use super::obstacle_mesh::ObstacleMesh;
use crate::error::{Error, Result};
use crate::model::{Contact, Model, Shape, SpringLaw};
use crate::render::style::{linear, Srgba};
use crate::render::Renderer;

/// Bit of a mass's flags: the mass is fixed (drawn as a square). WGSL `override MASS_FIXED`.
pub(crate) const MASS_FIXED: u32 = 1;

/// One mass position as the shaders read it: xyz in m, w unused (WGSL `vec4<f32>`).
pub(crate) type GpuPosition = [f32; 4];

/// One overlay segment as the shader reads it. Mirror of WGSL `GpuOverlayLine` (the naga test
/// in `pipelines.rs` checks size and offsets).
#[repr(C)]
#[derive(Clone, Copy, Debug, Pod, Zeroable)]
pub(crate) struct GpuOverlayLine {
    /// One end, xyz in m, w = 1.
    pub(crate) a: [f32; 4],
    /// The other end, xyz in m, w = 1.
    pub(crate) b: [f32; 4],
    /// Linear RGBA.
    pub(crate) color: [f32; 4],
}
const _: () = assert!(std::mem::size_of::<GpuOverlayLine>() == 48);

/// A segment drawn over the scene (not depth tested), e.g. the line from a dragged mass to the
/// mouse (SDL).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct OverlayLine {
    /// One end, in m.
    pub a: Vec3,
    /// The other end, in m.
    pub b: Vec3,
    /// Its colour.
    pub color: Srgba,
}

/// What a [`Renderer`] draws for one model: the springs' mass indices and rest lengths, which
/// masses are fixed, the obstacles' triangles, optional shaded triangles, overlay lines, the
/// highlighted mass, whether there is a ground, and (for CPU worlds) a positions buffer.
///
/// Made once per model with [`Drawing::new`]; only topology and the (static) obstacles are
/// uploaded then. Positions come at
/// draw time from a [`crate::render::Positions`]: the scene's own buffer (filled by
/// [`Drawing::set_positions`] from a [`crate::CpuWorld`]) or any GPU buffer holding
/// `array<vec4<f32>>`, such as the GPU World's, on the same device. A scene must be drawn by a
/// renderer on the device it was made with.
#[derive(Debug)]
pub struct Drawing {
    pub(crate) masses: u32,
    pub(crate) springs: u32,
    pub(crate) triangles: u32,
    pub(crate) overlay_lines: u32,
    pub(crate) spring_buffer: wgpu::Buffer,
    pub(crate) rest_buffer: wgpu::Buffer,
    pub(crate) flag_buffer: wgpu::Buffer,
    pub(crate) triangle_buffer: wgpu::Buffer,
    pub(crate) overlay_buffer: wgpu::Buffer,
    pub(crate) position_buffer: wgpu::Buffer,
    pub(crate) highlight: Option<u32>,
    pub(crate) ground: bool,
    /// The obstacles' triangles (three vertices each) and planes, `None` without any.
    pub(crate) obstacles: Option<ObstacleBuffers>,
    shapes: Vec<Shape>,
    laws: Vec<SpringLaw>,
    /// Base rest lengths from the model, m (what actuators modulate).
    base_rest: Vec<f64>,
    staging: Vec<GpuPosition>,
}

/// The obstacle geometry on the device (vertex buffers, made once).
#[derive(Debug)]
pub(crate) struct ObstacleBuffers {
    /// `GpuObstacleVertex` triangle list.
    pub(crate) vertices: wgpu::Buffer,
    pub(crate) vertex_count: u32,
    /// `GpuPlane` instances.
    pub(crate) planes: wgpu::Buffer,
    pub(crate) plane_count: u32,
}

impl ObstacleBuffers {
    fn new(device: &wgpu::Device, shapes: &[Shape]) -> Option<Self> {
        use wgpu::util::DeviceExt;
        if shapes.is_empty() {
            return None;
        }
        let mesh = ObstacleMesh::new(shapes);
        let buffer = |label: &str, bytes: &[u8]| {
            let mut contents = bytes.to_vec();
            contents.resize(bytes.len().max(MIN_BUFFER as usize), 0);
            device.create_buffer_init(&wgpu::util::BufferInitDescriptor {
                label: Some(label),
                contents: &contents,
                usage: wgpu::BufferUsages::VERTEX,
            })
        };
        Some(Self {
            vertices: buffer(
                "hooke::render::obstacle_vertices",
                bytemuck::cast_slice(&mesh.vertices),
            ),
            vertex_count: mesh.vertices.len() as u32,
            planes: buffer("hooke::render::planes", bytemuck::cast_slice(&mesh.planes)),
            plane_count: mesh.planes.len() as u32,
        })
    }
}

/// Smallest buffer made, in bytes: wgpu refuses zero-sized bindings.
const MIN_BUFFER: u64 = 16;

fn storage_buffer(device: &wgpu::Device, label: &str, bytes: &[u8]) -> wgpu::Buffer {
    use wgpu::util::DeviceExt;
    let size = (bytes.len() as u64).max(MIN_BUFFER).next_multiple_of(4) as usize;
    let mut contents = Vec::with_capacity(size);
    contents.extend_from_slice(bytes);
    contents.resize(size, 0);
    device.create_buffer_init(&wgpu::util::BufferInitDescriptor {
        label: Some(label),
        contents: &contents,
        usage: wgpu::BufferUsages::STORAGE | wgpu::BufferUsages::COPY_DST,
    })
}

impl Drawing {
    /// Uploads the drawing data of `model` to `renderer`'s device: spring ends, rest lengths (the
    /// zero-length law gets 0, so it is drawn neutral), fixed flags, the obstacles' triangles.
    /// The scene has a ground when the model's contact is not [`Contact::None`]. The position
    /// buffer starts at the model's initial positions.
    ///
    /// # Errors
    /// [`Model::validate`]'s errors: a model that cannot be simulated is not drawn either.
    pub fn new(renderer: &Renderer, model: &Model) -> Result<Self> {
        model.validate()?;
        let device = renderer.device();
        let ends: Vec<[u32; 2]> = model.springs.iter().map(|s| [s.a, s.b]).collect();
        let laws: Vec<SpringLaw> = model.springs.iter().map(|s| s.law).collect();
        let rest: Vec<f32> = model
            .springs
            .iter()
            .map(|s| match s.law {
                SpringLaw::ZeroLength => 0.0,
                _ => s.rest_length as f32,
            })
            .collect();
        let flags: Vec<u32> = model
            .masses
            .iter()
            .map(|m| if m.fixed { MASS_FIXED } else { 0 })
            .collect();
        let positions: Vec<GpuPosition> =
            model.masses.iter().map(|m| to_vec4(m.position)).collect();
        let shapes: Vec<Shape> = model.obstacles.iter().map(|o| o.shape.clone()).collect();
        Ok(Self {
            masses: model.masses.len() as u32,
            springs: model.springs.len() as u32,
            triangles: 0,
            overlay_lines: 0,
            spring_buffer: storage_buffer(
                device,
                "hooke::render::springs",
                bytemuck::cast_slice(&ends),
            ),
            rest_buffer: storage_buffer(
                device,
                "hooke::render::rest_lengths",
                bytemuck::cast_slice(&rest),
            ),
            flag_buffer: storage_buffer(
                device,
                "hooke::render::mass_flags",
                bytemuck::cast_slice(&flags),
            ),
            triangle_buffer: storage_buffer(device, "hooke::render::triangles", &[]),
            overlay_buffer: storage_buffer(device, "hooke::render::overlay", &[]),
            position_buffer: storage_buffer(
                device,
                "hooke::render::positions",
                bytemuck::cast_slice(&positions),
            ),
            highlight: None,
            ground: model.params.contact != Contact::None,
            obstacles: ObstacleBuffers::new(device, &shapes),
            shapes,
            laws,
            base_rest: model.springs.iter().map(|s| s.rest_length).collect(),
            staging: positions,
        })
    }

    /// Number of masses.
    #[must_use]
    pub fn masses(&self) -> usize {
        self.masses as usize
    }

    /// Number of springs.
    #[must_use]
    pub fn springs(&self) -> usize {
        self.springs as usize
    }

    /// Number of shaded triangles.
    #[must_use]
    pub fn triangles(&self) -> usize {
        self.triangles as usize
    }

    /// The scene's own positions buffer (`array<vec4<f32>>`, xyz in m, one per mass), the one
    /// [`crate::render::Positions::Uploaded`] draws from.
    #[must_use]
    pub fn position_buffer(&self) -> &wgpu::Buffer {
        &self.position_buffer
    }

    /// Uploads mass positions (m), e.g. [`crate::CpuWorld::positions`], to the scene's own
    /// positions buffer (converted to `f32`).
    ///
    /// # Errors
    /// [`Error::LengthMismatch`] unless there is exactly one position per mass.
    pub fn set_positions(&mut self, renderer: &Renderer, positions: &[DVec3]) -> Result<()> {
        check_len("positions", self.masses(), positions.len())?;
        self.staging.clear();
        self.staging.extend(positions.iter().map(|&p| to_vec4(p)));
        if !self.staging.is_empty() {
            renderer.queue().write_buffer(
                &self.position_buffer,
                0,
                bytemuck::cast_slice(&self.staging),
            );
        }
        Ok(())
    }

    /// Uploads current rest lengths (m), one per spring, e.g. [`crate::CpuWorld::rest_lengths`]
    /// when actuators move them; strain colours are measured against these. Zero-length-law
    /// springs stay at 0 (neutral).
    ///
    /// # Errors
    /// [`Error::LengthMismatch`] unless there is exactly one rest length per spring.
    pub fn set_rest_lengths(&mut self, renderer: &Renderer, rest_lengths: &[f64]) -> Result<()> {
        check_len("rest lengths", self.springs(), rest_lengths.len())?;
        let rest: Vec<f32> = rest_lengths
            .iter()
            .zip(&self.laws)
            .map(|(&r, law)| match law {
                SpringLaw::ZeroLength => 0.0,
                _ => r as f32,
            })
            .collect();
        if !rest.is_empty() {
            renderer
                .queue()
                .write_buffer(&self.rest_buffer, 0, bytemuck::cast_slice(&rest));
        }
        Ok(())
    }

    /// Uploads the rest lengths `actuators` give at time `time` (s): the model's base rest
    /// lengths, with each actuated spring's replaced by [`crate::Actuator::rest_length`]. This is
    /// how strain colours follow the muscles of a GPU World, whose actuated rest lengths live only
    /// in its shaders ([`crate::render::Renderer::render_world`] calls it with the World's
    /// actuators and time). Does nothing when there are no actuators.
    ///
    /// # Errors
    /// [`Error::IndexOutOfRange`] for an actuator naming a missing spring.
    pub fn actuate(
        &mut self,
        renderer: &Renderer,
        actuators: &[crate::model::Actuator],
        time: f64,
    ) -> Result<()> {
        if actuators.is_empty() {
            return Ok(());
        }
        let mut rest = self.base_rest.clone();
        for a in actuators {
            let s = a.spring as usize;
            let Some(r) = rest.get_mut(s) else {
                return Err(Error::IndexOutOfRange {
                    what: "spring",
                    index: s,
                    len: self.springs(),
                });
            };
            *r = a.rest_length(self.base_rest[s], time);
        }
        self.set_rest_lengths(renderer, &rest)
    }

    /// Sets the triangles to shade (the solid look of voxel bodies, Lipson), each three mass
    /// indices. Both sides are lit. See [`crate::render::exterior_triangles`] to get the
    /// exterior faces of a set of hexahedral cells. An empty slice removes them.
    ///
    /// # Errors
    /// [`Error::IndexOutOfRange`] for a mass index that does not exist.
    pub fn set_triangles(&mut self, renderer: &Renderer, triangles: &[[u32; 3]]) -> Result<()> {
        for &i in triangles.iter().flatten() {
            if i >= self.masses {
                return Err(Error::IndexOutOfRange {
                    what: "mass",
                    index: i as usize,
                    len: self.masses(),
                });
            }
        }
        self.triangle_buffer = storage_buffer(
            renderer.device(),
            "hooke::render::triangles",
            bytemuck::cast_slice(triangles),
        );
        self.triangles = triangles.len() as u32;
        Ok(())
    }

    /// Sets the overlay segments drawn over everything (an empty slice removes them).
    ///
    /// # Errors
    /// [`Error::InvalidParameter`] for a non-finite end point.
    pub fn set_overlay(&mut self, renderer: &Renderer, lines: &[OverlayLine]) -> Result<()> {
        if lines.iter().any(|l| !(l.a.is_finite() && l.b.is_finite())) {
            return Err(Error::InvalidParameter {
                name: "overlay line end",
                value: f64::NAN,
                expected: "must be finite (m)",
            });
        }
        let gpu: Vec<GpuOverlayLine> = lines
            .iter()
            .map(|l| GpuOverlayLine {
                a: l.a.extend(1.0).to_array(),
                b: l.b.extend(1.0).to_array(),
                color: linear(l.color),
            })
            .collect();
        let bytes: &[u8] = bytemuck::cast_slice(&gpu);
        if self.overlay_buffer.size() < bytes.len() as u64 {
            self.overlay_buffer =
                storage_buffer(renderer.device(), "hooke::render::overlay", bytes);
        } else if !bytes.is_empty() {
            renderer
                .queue()
                .write_buffer(&self.overlay_buffer, 0, bytes);
        }
        self.overlay_lines = lines.len() as u32;
        Ok(())
    }

    /// Highlights one mass (drawn larger, in [`crate::render::Style::highlight`]), or none.
    ///
    /// # Errors
    /// [`Error::IndexOutOfRange`] for a mass that does not exist.
    pub fn set_highlight(&mut self, mass: Option<usize>) -> Result<()> {
        if let Some(m) = mass {
            if m >= self.masses() {
                return Err(Error::IndexOutOfRange {
                    what: "mass",
                    index: m,
                    len: self.masses(),
                });
            }
        }
        self.highlight = mass.map(|m| m as u32);
        Ok(())
    }

    /// The shapes of the model's obstacles, in model order (drawn, and framed by
    /// [`crate::render::Camera::frame_with`]).
    #[must_use]
    pub fn obstacles(&self) -> &[Shape] {
        &self.shapes
    }

    /// Whether the scene has a ground plane at `z = 0` to draw.
    #[must_use]
    pub fn ground(&self) -> bool {
        self.ground
    }

    /// Turns the ground plane on or off for this scene (by default on unless the model's
    /// contact is [`Contact::None`]).
    pub fn set_ground(&mut self, ground: bool) {
        self.ground = ground;
    }
}

fn check_len(what: &'static str, expected: usize, got: usize) -> Result<()> {
    if expected == got {
        Ok(())
    } else {
        Err(Error::LengthMismatch {
            what,
            expected,
            got,
        })
    }
}

fn to_vec4(p: DVec3) -> GpuPosition {
    [p.x as f32, p.y as f32, p.z as f32, 1.0]
}
