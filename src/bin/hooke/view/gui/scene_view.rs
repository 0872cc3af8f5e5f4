//! The scene: the renderer's target shown in the central panel, sized to it; the mouse drags
//! masses (left), turns (right) and zooms (wheel); the input's forces reach the world,
//! which then advances; the frame is drawn with the drag line and the dragged mass highlighted.

use eframe::egui;
use eframe::egui_wgpu::wgpu;
use hooke::render::{exterior_triangles, Camera, MeshSurface, OverlayLine, Positions};
use hooke::DragSpring;

use super::app::Viewer;

impl Viewer {
    pub(crate) fn scene_view(&mut self, ui: &mut egui::Ui) {
        let size = ui.available_size();
        let (rect, response) = ui.allocate_exact_size(size, egui::Sense::click_and_drag());
        let ppp = ui.pixels_per_point();
        self.fit_target(rect, ppp);
        self.pointer(ui, &response, rect, ppp);
        let camera = self.orbit.camera();
        let drag = self.apply_forces(&camera);
        self.advance();
        match self.running.world.energy() {
            Ok(e) => self.energy = e,
            Err(e) => self.message = Some(e.to_string()),
        }
        if let Err(e) = self.draw(&camera, drag) {
            self.message = Some(e.to_string());
        }
        ui.painter().image(
            self.texture,
            rect,
            egui::Rect::from_min_max(egui::pos2(0.0, 0.0), egui::pos2(1.0, 1.0)),
            egui::Color32::WHITE,
        );
    }

    /// Resizes the renderer to `rect` in physical pixels (`ppp` per point) and points egui's
    /// texture at the new target.
    fn fit_target(&mut self, rect: egui::Rect, ppp: f32) {
        let w = ((rect.width() * ppp).round() as u32).max(1);
        let h = ((rect.height() * ppp).round() as u32).max(1);
        if (w, h) != self.renderer.size() && self.renderer.resize(w, h).is_ok() {
            let rs_device = self.renderer.device().clone();
            self.egui_renderer
                .write()
                .update_egui_texture_from_wgpu_texture(
                    &rs_device,
                    self.renderer.target_view_gamma(),
                    wgpu::FilterMode::Linear,
                    self.texture,
                );
        }
    }

    /// Mouse: left drags a mass, right turns, the wheel zooms.
    fn pointer(&mut self, ui: &egui::Ui, response: &egui::Response, rect: egui::Rect, ppp: f32) {
        let (w, h) = self.renderer.size();
        let camera = self.orbit.camera();
        let to_pixels =
            |p: egui::Pos2| glam::Vec2::new((p.x - rect.min.x) * ppp, (p.y - rect.min.y) * ppp);
        let (primary_pressed, primary_released, pointer) = ui.input(|i| {
            (
                i.pointer.primary_pressed(),
                i.pointer.primary_released(),
                i.pointer.latest_pos(),
            )
        });
        if primary_pressed && response.hovered() {
            if let Some(p) = pointer {
                let action = self.input.mouse_pressed(
                    to_pixels(p),
                    &camera,
                    w,
                    h,
                    self.running.world.position_slice(),
                );
                action.into_iter().for_each(|a| self.act(a));
            }
        }
        if let Some(p) = pointer {
            self.input.mouse_moved(to_pixels(p));
        }
        if primary_released {
            let action = self.input.mouse_released();
            action.into_iter().for_each(|a| self.act(a));
        }
        if response.dragged_by(egui::PointerButton::Secondary) {
            let d = response.drag_delta();
            self.orbit.turn(d.x, d.y);
        }
        if response.hovered() {
            let scroll = ui.input(|i| i.smooth_scroll_delta.y);
            if scroll != 0.0 {
                self.orbit.zoom((-scroll * 0.002).exp());
            }
        }
    }

    /// Forces from the input: the arrow-key nudge and the drag spring (returned, to draw).
    fn apply_forces(&mut self, camera: &Camera) -> Option<DragSpring> {
        let (w, h) = self.renderer.size();
        let updates = self
            .input
            .nudge(camera, self.running.world.position_slice());
        for (mass, force) in updates {
            if let Err(e) = self.running.world.set_external_force(mass, force) {
                self.fail(e);
            }
        }
        let drag = self.input.drag_spring(camera, w, h);
        if self.input.drag().is_some() {
            if let Err(e) = self.running.world.set_drag(drag) {
                self.fail(e);
            }
        }
        drag
    }

    /// Draws the world into the target: the drag line in yellow (SDL), the dragged mass
    /// highlighted, shaded faces if asked.
    fn draw(&mut self, camera: &Camera, drag: Option<DragSpring>) -> hooke::Result<()> {
        let running = &mut self.running;
        let highlight = self.input.drag().map(|d| d.mass);
        let overlay: Vec<OverlayLine> = drag
            .iter()
            .map(|d| OverlayLine {
                a: running.world.position_slice()[d.mass].as_vec3(),
                b: d.target.as_vec3(),
                color: self.renderer.style().highlight,
            })
            .collect();
        let triangles = if self.solid {
            exterior_triangles(&running.cells)
        } else {
            Vec::new()
        };
        running.scene.set_highlight(highlight)?;
        running.scene.set_overlay(&self.renderer, &overlay)?;
        if running.scene.triangles() != triangles.len() {
            running.scene.set_triangles(&self.renderer, &triangles)?;
        }
        // Mesh bodies: their own triangles, riding on their voxels.
        let surfaces: &[MeshSurface] = if self.solid {
            &self.entries[running.index].surfaces
        } else {
            &[]
        };
        let shown: usize = surfaces.iter().map(|s| s.triangles.len()).sum();
        if running.scene.surface_triangles() != shown {
            running.scene.set_surfaces(&self.renderer, surfaces)?;
        }
        running
            .scene
            .set_positions(&self.renderer, running.world.position_slice())?;
        running
            .scene
            .set_rest_lengths(&self.renderer, &running.world.rest_lengths()?)?;
        self.renderer
            .draw(&running.scene, Positions::Uploaded, camera)
    }
}
