//! The viewer's state: the running scenario, the renderer and its texture in egui, the input
//! `ViewerInput` and camera orbit; switching scenarios, acting on input, stepping in real time.

use std::time::Instant;

use eframe::egui;
use eframe::egui_wgpu::wgpu;
use hooke::render::input::{Action, Orbit, ThrowScene, ViewerInput};
use hooke::render::{Camera, Drawing, MeshSurface, Renderer};
use hooke::{CpuWorld, DVec3, Energy};

use super::scenarios::{Built, SCENARIOS};

/// One thing the viewer can show: a built-in scenario or a file, by name.
pub(crate) struct Entry {
    /// Its name in the panel.
    pub(crate) name: String,
    /// One line about it.
    pub(crate) about: String,
    /// Builds its model and (for voxel bodies) the cells of its solid look.
    pub(crate) build: Box<dyn Fn() -> Built>,
    /// The surfaces of its mesh bodies (on the masses `build`'s model numbers), shaded with
    /// the solid look.
    pub(crate) surfaces: Vec<MeshSurface>,
}

impl Entry {
    /// An entry that shows `model` (with the solid look of `cells` and `surfaces`).
    #[allow(dead_code)] // used by `hooke view`, not by the viewer example
    pub(crate) fn model(
        name: String,
        about: String,
        model: hooke::Model,
        cells: Vec<[u32; 8]>,
        surfaces: Vec<MeshSurface>,
    ) -> Self {
        Self {
            name,
            about,
            build: Box::new(move || Ok((model.clone(), cells.clone()))),
            surfaces,
        }
    }
}

/// The viewer's built-in scenarios, as entries.
pub(crate) fn builtins() -> Vec<Entry> {
    SCENARIOS
        .iter()
        .map(|s| Entry {
            name: s.name.to_owned(),
            about: s.about.to_owned(),
            build: Box::new(s.build),
            surfaces: Vec::new(),
        })
        .collect()
}

/// Everything the viewer shows about one running entry.
pub(crate) struct Running {
    pub(crate) index: usize,
    pub(crate) world: CpuWorld,
    pub(crate) scene: Drawing,
    pub(crate) cells: Vec<[u32; 8]>,
    /// Simulated time not yet stepped, s.
    pub(crate) behind: f64,
}

impl Running {
    /// Entry `index` of `entries`, built and ready to run, drawn by `renderer`.
    fn start(renderer: &Renderer, entries: &[Entry], index: usize) -> hooke::Result<Self> {
        let (model, cells) = (entries[index].build)()?;
        let world = CpuWorld::new(&model)?;
        let scene = Drawing::new(renderer, &model)?;
        Ok(Self {
            index,
            world,
            scene,
            cells,
            behind: 0.0,
        })
    }

    /// The orbit framing the scenario's current positions in a `width` x `height` image.
    fn framing(&self, width: u32, height: u32) -> Orbit {
        let camera = Camera::frame_with(
            self.world.position_slice(),
            width,
            height,
            self.scene.ground(),
            self.scene.obstacles(),
        );
        Orbit::from_camera(&camera)
    }
}

pub(crate) struct Viewer {
    /// What can be shown, selected by its key (`hooke::render::input::SCENARIO_KEYS`).
    pub(crate) entries: Vec<Entry>,
    pub(crate) renderer: Renderer,
    pub(crate) egui_renderer: std::sync::Arc<egui::mutex::RwLock<eframe::egui_wgpu::Renderer>>,
    pub(crate) texture: egui::TextureId,
    pub(crate) running: Running,
    pub(crate) input: ViewerInput,
    pub(crate) orbit: Orbit,
    /// Simulated seconds per wall-clock second.
    pub(crate) speed: f64,
    /// Whether voxel and mesh bodies are drawn with shaded faces.
    pub(crate) solid: bool,
    pub(crate) last: Instant,
    pub(crate) energy: Energy,
    pub(crate) message: Option<String>,
}

impl Viewer {
    /// The viewer of `entries` (at least one), showing the first.
    pub(crate) fn new(
        cc: &eframe::CreationContext<'_>,
        entries: Vec<Entry>,
    ) -> Result<Self, String> {
        let rs = cc
            .wgpu_render_state
            .as_ref()
            .ok_or("eframe started without its wgpu renderer")?;
        let renderer = Renderer::with_device(rs.device.clone(), rs.queue.clone(), 960, 720)
            .map_err(|e| e.to_string())?;
        let texture = rs.renderer.write().register_native_texture(
            &rs.device,
            renderer.target_view_gamma(),
            wgpu::FilterMode::Linear,
        );
        if entries.is_empty() {
            return Err("nothing to show".to_owned());
        }
        let running = Running::start(&renderer, &entries, 0)
            .map_err(|e| format!("{}: {e}", entries[0].name))?;
        let orbit = running.framing(960, 720);
        Ok(Self {
            entries,
            renderer,
            egui_renderer: rs.renderer.clone(),
            texture,
            running,
            input: ViewerInput::new(),
            orbit,
            speed: 0.25,
            solid: false,
            last: Instant::now(),
            energy: Energy::default(),
            message: None,
        })
    }

    pub(crate) fn select(&mut self, index: usize) {
        if index >= self.entries.len() {
            return;
        }
        match Running::start(&self.renderer, &self.entries, index) {
            Ok(running) => {
                let (w, h) = self.renderer.size();
                self.orbit = running.framing(w, h);
                self.running = running;
                self.input = ViewerInput::new();
                self.message = None;
            }
            Err(e) => self.message = Some(e.to_string()),
        }
    }

    pub(crate) fn act(&mut self, action: Action) {
        let world = &mut self.running.world;
        let result = match action {
            Action::TogglePlay | Action::Grab(_) => Ok(()),
            Action::Step => world.step(1),
            Action::Reset => {
                world.reset();
                self.running.behind = 0.0;
                self.message = None;
                world.set_drag(None)
            }
            Action::SelectScenario(i) => {
                self.select(i);
                Ok(())
            }
            Action::Release => world.set_drag(None),
            Action::Throw => self.throw(),
        };
        if let Err(e) = result {
            self.fail(e);
        }
    }

    /// Throws the picked body (the first if none is picked) at the nearest other body, or at
    /// the point the camera looks at when there is no other, and plays.
    fn throw(&mut self) -> hooke::Result<()> {
        let world = &mut self.running.world;
        let centres: Vec<DVec3> = world.bodies()?.iter().map(|b| b.centre_of_mass).collect();
        let scene = ThrowScene {
            bodies: world.bodies_of_model(),
            centres_of_mass: &centres,
            fallback: self.orbit.target.as_dvec3(),
            gravity: world.params().gravity,
        };
        if let Some((body, velocity)) = self.input.throw(&scene) {
            world.set_body_velocity(body, velocity)?;
            self.input.set_playing(true);
        }
        Ok(())
    }

    pub(crate) fn fail(&mut self, e: hooke::Error) {
        self.input.set_playing(false);
        self.message = Some(e.to_string());
    }

    /// Advances the simulation by the wall time since the last frame times the speed, at most
    /// 1/20 s of wall time per frame.
    pub(crate) fn advance(&mut self) {
        let now = Instant::now();
        let wall = now.duration_since(self.last).as_secs_f64().min(0.05);
        self.last = now;
        if !self.input.playing() {
            self.running.behind = 0.0;
            return;
        }
        let dt = self.running.world.params().dt;
        self.running.behind += wall * self.speed;
        let steps = (self.running.behind / dt).floor();
        self.running.behind -= steps * dt;
        if let Err(e) = self.running.world.step(steps as u64) {
            self.fail(e);
        }
    }
}

impl eframe::App for Viewer {
    fn ui(&mut self, ui: &mut egui::Ui, _frame: &mut eframe::Frame) {
        self.handle_keys(ui);
        egui::Panel::left("controls")
            .resizable(false)
            .exact_size(300.0)
            .show(ui, |ui| {
                // A panel taller than the window scrolls, with a bar that shows it (egui's
                // default floating bar is invisible until hovered: the panel looked clipped).
                ui.style_mut().spacing.scroll = egui::style::ScrollStyle::solid();
                egui::ScrollArea::vertical()
                    .auto_shrink(false)
                    .show(ui, |ui| self.side_panel(ui));
            });
        egui::CentralPanel::default()
            .frame(egui::Frame::NONE)
            .show(ui, |ui| self.scene_view(ui));
        // Only a running simulation changes by itself: paused, egui repaints on input alone and
        // the viewer idles.
        if self.input.playing() {
            ui.ctx().request_repaint();
        }
    }
}
