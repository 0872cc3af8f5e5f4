//! Building a [`Drawing`] and writing its buffers: the `impl Drawing` whose methods take the
//! [`Renderer`] whose device and queue hold them (the drawing's data and readers are in
//! `drawing.rs`, which the renderer's passes import).

use glam::DVec3;

use super::drawing::{
    check_len, storage_buffer, to_vec4, GpuOverlayLine, GpuPosition, GpuSurfaceCorner,
    ObstacleBuffers, MASS_FIXED,
};
use super::mesh_surface::{check_triangles, MeshSurface};
use super::renderer::Renderer;
use super::style::linear;
use super::{Drawing, OverlayLine};
use crate::error::{Error, Result};
use crate::model::spring_law::rest_in_law;
use crate::model::{Contact, Model, Shape, SpringLaw};

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
            .map(|s| rest_in_law(s.law, s.rest_length) as f32)
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
            surface_corners: 0,
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
            surface_buffer: storage_buffer(device, "hooke::render::surface", &[]),
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
            .map(|(&r, &law)| rest_in_law(law, r) as f32)
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

    /// Sets the mesh surfaces to shade (mesh bodies drawn with their own triangles, see
    /// [`MeshSurface`]), lit like the triangles of [`Drawing::set_triangles`]: their vertices
    /// follow the masses they ride on at every draw. An empty slice removes them.
    ///
    /// # Errors
    /// [`Error::IndexOutOfRange`] for a mass or surface vertex index that does not exist;
    /// [`Error::InvalidParameter`] for more than `u32::MAX` triangle corners in all.
    pub fn set_surfaces(&mut self, renderer: &Renderer, surfaces: &[MeshSurface]) -> Result<()> {
        for s in surfaces {
            check_triangles(&s.triangles, s.vertices.len())?;
        }
        if let Some(m) = surfaces.iter().filter_map(MeshSurface::max_mass).max() {
            if m >= self.masses {
                return Err(Error::IndexOutOfRange {
                    what: "mass (of a mesh surface)",
                    index: m as usize,
                    len: self.masses(),
                });
            }
        }
        let corners: Vec<GpuSurfaceCorner> = surfaces
            .iter()
            .flat_map(|s| {
                s.triangles.iter().flatten().map(|&v| {
                    let v = &s.vertices[v as usize];
                    GpuSurfaceCorner {
                        masses: v.masses,
                        weights: v.weights.map(|w| w as f32),
                    }
                })
            })
            .collect();
        let count = u32::try_from(corners.len()).map_err(|_| Error::InvalidParameter {
            name: "mesh surface triangle corners",
            value: corners.len() as f64,
            expected: "must be at most u32::MAX in all",
        })?;
        self.surface_buffer = storage_buffer(
            renderer.device(),
            "hooke::render::surface",
            bytemuck::cast_slice(&corners),
        );
        self.surface_corners = count;
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
}
