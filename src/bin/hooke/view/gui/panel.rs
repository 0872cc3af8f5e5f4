//! The side panel: scenario list, play / step / reset, speed and style controls, live energy.

use eframe::egui;
use hooke::render::input::{scenario_key, scenario_keys_help, Key};

use super::app::Viewer;

impl Viewer {
    pub(crate) fn side_panel(&mut self, ui: &mut egui::Ui) {
        ui.heading("hooke viewer");
        ui.label("CPU reference world (f64)");
        ui.separator();
        ui.label(format!(
            "Scenario or creature (keys {})",
            scenario_keys_help(self.entries.len())
        ));
        let mut chosen = None;
        for (i, s) in self.entries.iter().enumerate() {
            let key = scenario_key(i).map_or_else(String::new, Key::label);
            if ui
                .radio(self.running.index == i, format!("{key} {}", s.name))
                .clicked()
            {
                chosen = Some(i);
            }
        }
        if let Some(i) = chosen {
            self.select(i);
        }
        ui.small(self.entries[self.running.index].about.as_str());
        ui.separator();
        ui.horizontal(|ui| {
            let label = if self.input.playing() {
                "Pause (space)"
            } else {
                "Play (space)"
            };
            if ui.button(label).clicked() {
                let a = self.input.key_pressed(Key::Space);
                a.into_iter().for_each(|a| self.act(a));
            }
            if ui.button("Step (s)").clicked() {
                let a = self.input.key_pressed(Key::S);
                a.into_iter().for_each(|a| self.act(a));
            }
            if ui.button("Reset (r)").clicked() {
                let a = self.input.key_pressed(Key::R);
                a.into_iter().for_each(|a| self.act(a));
            }
        });
        ui.add(
            egui::Slider::new(&mut self.speed, 0.01..=2.0)
                .logarithmic(true)
                .text("x real time"),
        );
        let style = self.renderer.style_mut();
        ui.add(
            egui::Slider::new(&mut style.strain_scale, 0.001..=0.2)
                .logarithmic(true)
                .text("full colour strain"),
        );
        ui.add(egui::Slider::new(&mut style.line_width, 1.0..=6.0).text("line px"));
        ui.checkbox(&mut style.shadows, "shadows");
        let surfaces = !self.entries[self.running.index].surfaces.is_empty();
        if !self.running.cells.is_empty() || surfaces {
            ui.checkbox(&mut self.solid, "solid faces");
        }
        ui.add(
            egui::Slider::new(&mut self.input.nudge_force, 0.1..=20.0)
                .logarithmic(true)
                .text("nudge N"),
        );
        ui.add(
            egui::Slider::new(&mut self.input.throw_speed, 0.2..=5.0)
                .logarithmic(true)
                .text("throw m/s (T)"),
        );
        ui.separator();
        let w = &self.running.world;
        ui.label(format!("t = {:.3} s   step {}", w.time(), w.steps()));
        ui.label(format!(
            "{} masses, {} springs",
            w.mass_count(),
            w.spring_count()
        ));
        let e = self.energy;
        egui::Grid::new("energy").num_columns(2).show(ui, |ui| {
            for (name, v) in [
                ("kinetic", e.kinetic),
                ("gravitational", e.gravity),
                ("elastic", e.elastic),
                ("ground", e.ground),
                ("total", e.total()),
                ("dissipated", e.dissipated),
                ("injected", e.injected),
                ("balance", e.balance()),
            ] {
                ui.label(name);
                ui.monospace(format!("{v:>12.6} J"));
                ui.end_row();
            }
        });
        ui.separator();
        ui.small(
            "Arrows push the topmost mass. Left-drag pulls a mass; right-drag turns; wheel zooms.",
        );
        ui.small(
            "T throws the body of the last mass dragged (else the first) at the nearest other.",
        );
        ui.small("Red: compressed. Blue: stretched.");
        if let Some(m) = &self.message {
            ui.colored_label(egui::Color32::RED, m);
        }
    }
}
