//! Offscreen rendering with wgpu: springs coloured by strain, masses, the ground, shaded faces,
//! the obstacles (shaded, with the shadows of springs, masses and obstacles on them and on the
//! ground), to PNG frames and GIF animations.
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
//! let camera = Camera::frame(world.position_slice(), 640, 480, scene.ground());
//! world.step(1000)?;
//! let image = renderer.render_cpu(&mut scene, &world, &camera)?;
//! image.save("frame.png").expect("write frame.png");
//! # Ok(()) }
//! ```
//!
//! To run a world (CPU or GPU) and write its GIF and energy plot in one call, see [`record`]
//! (feature `plot`, default).
//!
//! ## Conventions
//! World space is the crate's: SI units, right-handed, z up, the ground is the plane `z = 0`.
//! Images are `width` x `height` pixels, origin at the top-left corner, y down (see
//! [`Camera::project`]). Colours are sRGB ([`Srgba`]).
//!
//! ## Where things are
//! | file | what |
//! |---|---|
//! | `renderer.rs` | [`Renderer`]: new / with_device / resize / draw / read_image / render_* |
//! | `drawing.rs` | [`Drawing`]: what to draw of one model (topology, rest lengths, overlay) |
//! | `view.rs` | the uniform block (`GpuView`) filled per draw from camera and style; [`LIGHT`] |
//! | `pipelines.rs` | bind group layout, pipelines, draw order; the naga layout tests |
//! | `targets.rs` | colour, multisample and depth targets ([`TARGET_FORMAT`]), the gamma copy |
//! | `needs.rs` | what the renderer needs from a device (limits, flags) and the errors naming it |
//! | `camera.rs` | [`Camera`], [`Camera::frame`], [`bounds`], [`bounds_with`] (obstacles) |
//! | `style.rs` | [`Style`], [`Srgba`] |
//! | `faces.rs` | [`exterior_triangles`] of hexahedral cells (the solid look) |
//! | `mesh_surface.rs` | [`MeshSurface`]: a mesh body's own triangles, each vertex embedded in its voxel cell |
//! | `drawing_uploads.rs` | [`Drawing::new`] and the setters that write its buffers through a [`Renderer`] |
//! | `obstacle_mesh.rs` | the obstacles' triangles (made once per [`Drawing`]) and plane instances |
//! | `shadow_map.rs` | shadows in scenes with obstacles: a depth map seen straight down |
//! | `png.rs`, `gif.rs` | [`save_png`]; [`GifWriter`] (changed rectangles), [`FrameSchedule`] |
//! | `palette.rs` | the colours of one GIF frame: exact when few, else small largest error |
//! | `record.rs` | [`record`], [`record_cpu`]: run a world to a GIF and an energy plot |
//! | `input.rs` | [`input`]: viewer input (keys, picking, dragging, orbit) without a window |
//!
//! shaders/render.wgsl holds every pass; its structs have Rust mirrors of the same name.

mod camera;
mod drawing;
mod drawing_uploads;
mod faces;
mod gif;
pub mod input;
mod mesh_surface;
mod needs;
mod obstacle_mesh;
mod palette;
mod pipelines;
mod png;
#[cfg(feature = "plot")]
mod record;
mod renderer;
mod shadow_map;
mod style;
mod targets;
mod view;

pub use camera::{bounds, bounds_with, Camera, DEFAULT_AZIMUTH, DEFAULT_ELEVATION, DEFAULT_FOV_Y};
pub use drawing::{Drawing, OverlayLine};
pub use faces::{exterior_triangles, HEXAHEDRON_FACES};
pub use gif::{FrameSchedule, GifWriter};
pub use mesh_surface::{EmbeddedVertex, MeshSurface};
pub use png::save_png;
#[cfg(feature = "plot")]
pub use record::{
    record, record_cpu, record_cpu_with, record_with, Framing, RecordOptions, RecordingSummary,
};
pub use renderer::{Positions, Renderer};
pub use style::{Srgba, Style};
pub use targets::TARGET_FORMAT;
pub use view::LIGHT;
