//! The viewer's state: the running scenario, the renderer and its texture in egui, the input
//! `ViewerInput` and camera orbit; switching scenarios, acting on input, stepping in real time.

use std::time::Instant;

use eframe::egui;
use eframe::egui_wgpu::wgpu;
use hooke::render::input::{Action, Orbit, ThrowScene, ViewerInput};
use hooke::render::{Camera, Drawing, Renderer};
use hooke::{CpuWorld, DVec3, Energy};

use crate::scenarios::SCENARIOS;

/// Everything the viewer shows about one running scenario.
pub(crate) struct Running {
    pub(crate) index: usize,
    pub(crate) world: CpuWorld,
    pub(crate) scene: Drawing,
    pub(crate) cells: Vec<[u32; 8]>,
    /// Simulated time not yet stepped, s.
    pub(crate) behind: f64,
}

impl Running {
    /// Scenario `index`, built and ready to run, drawn by `renderer`.
    fn start(renderer: &Renderer, index: usize) -> hooke::Result<Self> {
        let (model, cells) = (SCENARIOS[index].build)()?;
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
    pub(crate) renderer: Renderer,
    pub(crate) egui_renderer: std::sync::Arc<egui::mutex::RwLock<eframe::egui_wgpu::Renderer>>,
    pub(crate) texture: egui::TextureId,
    pub(crate) running: Running,
    pub(crate) input: ViewerInput,
    pub(crate) orbit: Orbit,
    /// Simulated seconds per wall-clock second.
    pub(crate) speed: f64,
    /// Whether voxel bodies are drawn with shaded faces.
    pub(crate) solid: bool,
    pub(crate) last: Instant,
    pub(crate) energy: Energy,
    pub(crate) message: Option<String>,
}

impl Viewer {
    pub(crate) fn new(cc: &eframe::CreationContext<'_>) -> Result<Self, String> {
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
        let running = Running::start(&renderer, 0).map_err(|e| e.to_string())?;
        let orbit = running.framing(960, 720);
        Ok(Self {
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
        if index >= SCENARIOS.len() {
            return;
        }
        match Running::start(&self.renderer, index) {
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
