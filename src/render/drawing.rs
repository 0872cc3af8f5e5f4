//! The GPU-side description of what to draw: spring topology, rest lengths, fixed flags,
//! triangles and overlay lines, uploaded once from a [`Model`](crate::Model).

use bytemuck::{Pod, Zeroable};
use glam::{DVec3, Vec3};

use super::obstacle_mesh::ObstacleMesh;
use super::style::Srgba;
use crate::error::{Error, Result};
use crate::model::{Shape, SpringLaw};

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

/// One corner of a mesh surface triangle as the shader reads it: a mesh vertex's cell corner
/// masses and trilinear weights ([`crate::render::EmbeddedVertex`] in `f32`). Mirror of WGSL
/// `GpuSurfaceCorner`.
#[repr(C)]
#[derive(Clone, Copy, Debug, Pod, Zeroable)]
pub(crate) struct GpuSurfaceCorner {
    /// Corner masses, corner `x + 2 y + 4 z`.
    pub(crate) masses: [u32; 8],
    /// Their weights.
    pub(crate) weights: [f32; 8],
}
const _: () = assert!(std::mem::size_of::<GpuSurfaceCorner>() == 64);

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

/// What a [`Renderer`](super::Renderer) draws for one model: the springs' mass indices and rest lengths, which
/// masses are fixed, the obstacles' triangles, optional shaded triangles and mesh surfaces,
/// overlay lines, the
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
    /// Corners of the mesh surfaces' triangles (three per triangle).
    pub(crate) surface_corners: u32,
    pub(crate) overlay_lines: u32,
    pub(crate) spring_buffer: wgpu::Buffer,
    pub(crate) rest_buffer: wgpu::Buffer,
    pub(crate) flag_buffer: wgpu::Buffer,
    pub(crate) triangle_buffer: wgpu::Buffer,
    pub(crate) overlay_buffer: wgpu::Buffer,
    /// `GpuSurfaceCorner`s, three per mesh surface triangle.
    pub(crate) surface_buffer: wgpu::Buffer,
    pub(crate) position_buffer: wgpu::Buffer,
    pub(crate) highlight: Option<u32>,
    pub(crate) ground: bool,
    /// The obstacles' triangles (three vertices each) and planes, `None` without any.
    pub(crate) obstacles: Option<ObstacleBuffers>,
    pub(super) shapes: Vec<Shape>,
    pub(super) laws: Vec<SpringLaw>,
    /// Base rest lengths from the model, m (what actuators modulate).
    pub(super) base_rest: Vec<f64>,
    /// The positions as last uploaded (kept for its memory).
    pub(super) staging: Vec<GpuPosition>,
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
    pub(super) fn new(device: &wgpu::Device, shapes: &[Shape]) -> Option<Self> {
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

pub(super) fn storage_buffer(device: &wgpu::Device, label: &str, bytes: &[u8]) -> wgpu::Buffer {
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

    /// Number of mesh surface triangles drawn ([`Drawing::set_surfaces`]).
    #[must_use]
    pub fn surface_triangles(&self) -> usize {
        self.surface_corners as usize / 3
    }

    /// The scene's own positions buffer (`array<vec4<f32>>`, xyz in m, one per mass), the one
    /// [`crate::render::Positions::Uploaded`] draws from.
    #[must_use]
    pub fn position_buffer(&self) -> &wgpu::Buffer {
        &self.position_buffer
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
    /// contact is [`Contact::None`](crate::Contact::None)).
    pub fn set_ground(&mut self, ground: bool) {
        self.ground = ground;
    }
}

pub(super) fn check_len(what: &'static str, expected: usize, got: usize) -> Result<()> {
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

pub(super) fn to_vec4(p: DVec3) -> GpuPosition {
    [p.x as f32, p.y as f32, p.z as f32, 1.0]
}
