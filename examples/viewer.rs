//! Interactive viewer: watch a scenario run, push it, drag it.
//!
//! `cargo run --release --features viewer --example viewer`
//!
//! - Space: play / pause; S: one step; R: reset; 1-9: pick a scenario (seed 002's controls).
//! - Arrow keys: push the topmost mass (seed 000), relative to the screen.
//! - Left mouse: drag the mass nearest the pointer (seed 003: a spring to the pointer, drawn in
//!   yellow). Right mouse: turn the camera; wheel: zoom.
//!
//! Springs are coloured by strain: red compressed, blue stretched. The side panel shows the
//! energy terms live. The window and UI are winit and egui through eframe (its wgpu renderer);
//! the scene is drawn by `hooke::render::Renderer` on eframe's device and shown as a texture.
//! Input handling lives in `hooke::render::input` (tested without a window).

use std::time::Instant;

use eframe::egui;
use eframe::egui_wgpu::wgpu;
use hooke::render::input::{Action, Controller, Key, Orbit};
use hooke::render::{exterior_triangles, Camera, Drawing, OverlayLine, Positions, Renderer};
use hooke::{
    Actuator, Contact, CpuWorld, DVec3, Energy, Friction, Mass, Model, Params, Part, Spring,
    SpringLaw,
};

/// A model and (for voxel bodies) the hexahedral cells of its solid look.
type Built = hooke::Result<(Model, Vec<[u32; 8]>)>;

/// A scenario: a name, a model and (for voxel bodies) the hexahedral cells for the solid look.
struct Scenario {
    name: &'static str,
    about: &'static str,
    build: fn() -> Built,
}

const SCENARIOS: &[Scenario] = &[
    Scenario {
        name: "Bouncing cube",
        about: "Seed 000: 0.1 m cube, 8 x 0.1 kg, k = 10 000 N/m, penalty ground, no damping.",
        build: || Ok(bouncing_cube()),
    },
    Scenario {
        name: "Sliding cube",
        about: "Seed 000 with velocity damping 0.999/step and Coulomb friction (0.6 / 0.4), thrown sideways.",
        build: || Ok(sliding_cube()),
    },
    Scenario {
        name: "Pendulum",
        about: "Seed 000 advanced 1: the cube hangs from one fixed corner.",
        build: || Ok(pendulum()),
    },
    Scenario {
        name: "Breathing cube",
        about: "Seed 000 advanced 5: every rest length follows a 1 Hz sine of 10 %.",
        build: || Ok(breathing_cube()),
    },
    Scenario {
        name: "Three cubes",
        about: "Seed 000 advanced 6: three attached cubes in a row, damped, dropped tilted.",
        build: || Ok(three_cubes()),
    },
    Scenario {
        name: "Rope",
        about: "Seed 001: a 24-mass rope with material-law damped springs, one end fixed.",
        build: || Ok(rope()),
    },
    Scenario {
        name: "Cloth",
        about: "Seed 001: 16 x 16 cloth pinned at two corners, structural, shear and bend springs.",
        build: || Ok(cloth()),
    },
    Scenario {
        name: "Walking robot",
        about: "hooke::creatures::WalkingRobot: voxels and actuators that walk forward.",
        build: || creature(hooke::creatures::WalkingRobot::default().build()),
    },
    Scenario {
        name: "Whirligig",
        about: "Seed 002: a 6-spoke wheel whose resting oscillators roll it forward.",
        build: || creature(hooke::creatures::Wheel::whirligig().build()),
    },
    Scenario {
        name: "Pinwheel",
        about: "Seed 002: the 10-spoke wheel.",
        build: || creature(hooke::creatures::Wheel::pinwheel().build()),
    },
    Scenario {
        name: "Inchworm",
        about: "Seed 002: an accordion that crawls with friction oscillators.",
        build: || creature(hooke::creatures::Inchworm::default().build()),
    },
];

/// A creature from `hooke::creatures` as a scenario (no solid look).
fn creature(
    built: hooke::Result<hooke::creatures::Creature>,
) -> hooke::Result<(Model, Vec<[u32; 8]>)> {
    Ok((built?.model(), Vec::new()))
}

/// Corner `i` of the unit cube, at `(i & 1, (i >> 1) & 1, (i >> 2) & 1)`.
fn corner(i: u32) -> DVec3 {
    DVec3::new(
        f64::from(i & 1),
        f64::from((i >> 1) & 1),
        f64::from((i >> 2) & 1),
    )
}

/// A block of `nx` x `ny` x `nz` cubes of side `side` m, every pair of masses within a cell
/// joined (the seed 000 cube per cell; shared springs appear once). Returns the part and its
/// cells.
fn block(nx: u32, ny: u32, nz: u32, side: f64, k: f64, c: f64) -> (Part, Vec<[u32; 8]>) {
    let mut part = Part::new();
    let index = |x: u32, y: u32, z: u32| x + (nx + 1) * (y + (ny + 1) * z);
    for z in 0..=nz {
        for y in 0..=ny {
            for x in 0..=nx {
                let p = DVec3::new(f64::from(x), f64::from(y), f64::from(z)) * side;
                part.add_mass(Mass::new(0.1, p));
            }
        }
    }
    let mut cells = Vec::new();
    let mut joined = std::collections::BTreeSet::new();
    for z in 0..nz {
        for y in 0..ny {
            for x in 0..nx {
                let cell: [u32; 8] = std::array::from_fn(|i| {
                    let o = corner(i as u32);
                    index(x + o.x as u32, y + o.y as u32, z + o.z as u32)
                });
                for a in 0..8 {
                    for b in a + 1..8 {
                        let (m, n) = (cell[a].min(cell[b]), cell[a].max(cell[b]));
                        if joined.insert((m, n)) {
                            part.connect(m, n, k, c);
                        }
                    }
                }
                cells.push(cell);
            }
        }
    }
    (part, cells)
}

fn single_model(params: Params, part: Part, cells: Vec<[u32; 8]>) -> (Model, Vec<[u32; 8]>) {
    let mut model = Model::new(params);
    model.add("body", part);
    (model, cells)
}

fn bouncing_cube() -> (Model, Vec<[u32; 8]>) {
    let (mut part, cells) = block(1, 1, 1, 0.1, 10_000.0, 0.0);
    part.translate(DVec3::new(-0.05, -0.05, 0.2));
    single_model(Params::default(), part, cells)
}

fn sliding_cube() -> (Model, Vec<[u32; 8]>) {
    let (mut part, cells) = block(1, 1, 1, 0.1, 10_000.0, 0.0);
    part.translate(DVec3::new(-0.3, -0.05, 0.05));
    part.set_velocity(DVec3::new(1.5, 0.0, 0.0));
    let params = Params {
        velocity_damping: Params::damping_rate_from_factor(0.999, 1e-4),
        friction: Friction::coulomb(0.6, 0.4),
        ..Params::default()
    };
    single_model(params, part, cells)
}

fn pendulum() -> (Model, Vec<[u32; 8]>) {
    let (mut part, cells) = block(1, 1, 1, 0.1, 10_000.0, 1.0);
    part.translate(DVec3::new(0.0, 0.0, 0.3));
    // Fix the corner at (0, 0, 0.4) (corner 4): the cube swings from it.
    part.masses[4].fixed = true;
    part.set_velocity(DVec3::new(0.5, 0.2, 0.0));
    part.masses[4].velocity = DVec3::ZERO;
    single_model(Params::default(), part, cells)
}

fn breathing_cube() -> (Model, Vec<[u32; 8]>) {
    let (mut part, cells) = block(1, 1, 1, 0.1, 10_000.0, 2.0);
    part.translate(DVec3::new(-0.05, -0.05, 0.0));
    for s in 0..part.springs.len() as u32 {
        part.actuators.push(Actuator {
            spring: s,
            amplitude: 0.1,
            omega: std::f64::consts::TAU,
            phase: 0.0,
            duty: None,
        });
    }
    let params = Params {
        friction: Friction::coulomb(0.8, 0.6),
        ..Params::default()
    };
    single_model(params, part, cells)
}

fn three_cubes() -> (Model, Vec<[u32; 8]>) {
    let (mut part, cells) = block(3, 1, 1, 0.1, 10_000.0, 2.0);
    // Tilt about y by 15 degrees, then lift.
    let (s, c) = 15f64.to_radians().sin_cos();
    for m in &mut part.masses {
        let p = m.position;
        m.position = DVec3::new(c * p.x - s * p.z, p.y, s * p.x + c * p.z);
    }
    part.translate(DVec3::new(-0.15, -0.05, 0.15));
    let params = Params {
        friction: Friction::coulomb(0.5, 0.4),
        ..Params::default()
    };
    single_model(params, part, cells)
}

fn rope() -> (Model, Vec<[u32; 8]>) {
    let mut part = Part::new();
    let n = 24;
    let seg = 0.025;
    for i in 0..n {
        let m = Mass::new(0.01, DVec3::new(f64::from(i) * seg, 0.0, 0.7));
        part.add_mass(if i == 0 { m.fixed() } else { m });
    }
    for i in 0..n - 1 {
        part.add_spring(
            Spring::hooke(i, i + 1, 60.0, seg)
                .with_law(SpringLaw::Material)
                .with_damping(0.05),
        );
    }
    let params = Params {
        air_drag: 0.002,
        ..Params::default()
    };
    single_model(params, part, Vec::new())
}

fn cloth() -> (Model, Vec<[u32; 8]>) {
    let mut part = Part::new();
    let n = 16u32;
    let h = 0.4 / f64::from(n - 1);
    for j in 0..n {
        for i in 0..n {
            let p = DVec3::new(f64::from(i) * h - 0.2, 0.0, 0.6 - f64::from(j) * h * 0.2);
            let p = p + DVec3::new(0.0, f64::from(j) * h * 0.98, 0.0);
            let m = Mass::new(0.004, p);
            let pinned = j == 0 && (i == 0 || i == n - 1);
            part.add_mass(if pinned { m.fixed() } else { m });
        }
    }
    let id = |i: u32, j: u32| i + n * j;
    for j in 0..n {
        for i in 0..n {
            let mut link = |a: u32, b: u32, k: f64| {
                part.connect(a, b, k, 0.02);
            };
            if i + 1 < n {
                link(id(i, j), id(i + 1, j), 40.0);
            }
            if j + 1 < n {
                link(id(i, j), id(i, j + 1), 40.0);
            }
            if i + 1 < n && j + 1 < n {
                link(id(i, j), id(i + 1, j + 1), 10.0);
                link(id(i + 1, j), id(i, j + 1), 10.0);
            }
            if i + 2 < n {
                link(id(i, j), id(i + 2, j), 2.0);
            }
            if j + 2 < n {
                link(id(i, j), id(i, j + 2), 2.0);
            }
        }
    }
    let params = Params {
        dt: 2e-4,
        air_drag: 0.0005,
        contact: Contact::Penalty {
            stiffness: 2_000.0,
            damping: 1.0,
        },
        friction: Friction::coulomb(0.5, 0.4),
        ..Params::default()
    };
    single_model(params, part, Vec::new())
}

/// Everything the viewer shows about one running scenario.
struct Running {
    index: usize,
    world: CpuWorld,
    scene: Drawing,
    cells: Vec<[u32; 8]>,
    /// Simulated time not yet stepped, s.
    behind: f64,
}

struct Viewer {
    renderer: Renderer,
    egui_renderer: std::sync::Arc<egui::mutex::RwLock<eframe::egui_wgpu::Renderer>>,
    texture: egui::TextureId,
    running: Running,
    controller: Controller,
    orbit: Orbit,
    speed: f64,
    solid: bool,
    last: Instant,
    energy: Energy,
    message: Option<String>,
}

impl Viewer {
    fn new(cc: &eframe::CreationContext<'_>) -> Result<Self, String> {
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
        let running = start(&renderer, 0).map_err(|e| e.to_string())?;
        let camera = Camera::frame(running.world.positions(), 960, 720, running.scene.ground());
        Ok(Self {
            renderer,
            egui_renderer: rs.renderer.clone(),
            texture,
            running,
            controller: Controller::new(),
            orbit: Orbit::from_camera(&camera),
            speed: 0.25,
            solid: false,
            last: Instant::now(),
            energy: Energy::default(),
            message: None,
        })
    }

    fn select(&mut self, index: usize) {
        if index >= SCENARIOS.len() {
            return;
        }
        match start(&self.renderer, index) {
            Ok(running) => {
                let (w, h) = self.renderer.size();
                let camera = Camera::frame(running.world.positions(), w, h, running.scene.ground());
                self.orbit = Orbit::from_camera(&camera);
                self.running = running;
                self.controller = Controller::new();
                self.message = None;
            }
            Err(e) => self.message = Some(e.to_string()),
        }
    }

    fn act(&mut self, action: Action) {
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
        };
        if let Err(e) = result {
            self.fail(e);
        }
    }

    fn fail(&mut self, e: hooke::Error) {
        self.controller.set_playing(false);
        self.message = Some(e.to_string());
    }

    /// Advances the simulation by the wall time since the last frame times the speed, at most
    /// 1/20 s of wall time per frame.
    fn advance(&mut self) {
        let now = Instant::now();
        let wall = now.duration_since(self.last).as_secs_f64().min(0.05);
        self.last = now;
        if !self.controller.playing() {
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

    fn handle_keys(&mut self, ui: &egui::Ui) {
        let events = ui.input(|i| i.events.clone());
        for event in events {
            if let egui::Event::Key {
                key,
                pressed,
                repeat: false,
                ..
            } = event
            {
                let Some(key) = map_key(key) else { continue };
                if pressed {
                    if let Some(action) = self.controller.key_pressed(key) {
                        self.act(action);
                    }
                } else {
                    self.controller.key_released(key);
                }
            }
        }
    }

    fn side_panel(&mut self, ui: &mut egui::Ui) {
        ui.heading("hooke viewer");
        ui.label("CPU reference world (f64)");
        ui.separator();
        ui.label("Scenario or creature (keys 1-9)");
        let mut chosen = None;
        for (i, s) in SCENARIOS.iter().enumerate() {
            if ui
                .radio(self.running.index == i, format!("{} {}", i + 1, s.name))
                .clicked()
            {
                chosen = Some(i);
            }
        }
        if let Some(i) = chosen {
            self.select(i);
        }
        ui.small(SCENARIOS[self.running.index].about);
        ui.separator();
        ui.horizontal(|ui| {
            let label = if self.controller.playing() {
                "Pause (space)"
            } else {
                "Play (space)"
            };
            if ui.button(label).clicked() {
                let a = self.controller.key_pressed(Key::Space);
                a.into_iter().for_each(|a| self.act(a));
            }
            if ui.button("Step (s)").clicked() {
                let a = self.controller.key_pressed(Key::S);
                a.into_iter().for_each(|a| self.act(a));
            }
            if ui.button("Reset (r)").clicked() {
                let a = self.controller.key_pressed(Key::R);
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
        if !self.running.cells.is_empty() {
            ui.checkbox(&mut self.solid, "solid faces");
        }
        ui.add(
            egui::Slider::new(&mut self.controller.nudge_force, 0.1..=20.0)
                .logarithmic(true)
                .text("nudge N"),
        );
        ui.separator();
        let w = &self.running.world;
        ui.label(format!("t = {:.3} s   step {}", w.time(), w.steps()));
        ui.label(format!(
            "{} masses, {} springs",
            w.positions().len(),
            w.rest_lengths().len()
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
        ui.small("Red: compressed. Blue: stretched.");
        if let Some(m) = &self.message {
            ui.colored_label(egui::Color32::RED, m);
        }
    }

    fn scene_view(&mut self, ui: &mut egui::Ui) {
        let size = ui.available_size();
        let (rect, response) = ui.allocate_exact_size(size, egui::Sense::click_and_drag());
        let ppp = ui.pixels_per_point();
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
        let (w, h) = self.renderer.size();
        let camera = self.orbit.camera();
        let to_pixels =
            |p: egui::Pos2| glam::Vec2::new((p.x - rect.min.x) * ppp, (p.y - rect.min.y) * ppp);

        // Mouse: left drags a mass, right turns, the wheel zooms.
        let (primary_pressed, primary_released, pointer) = ui.input(|i| {
            (
                i.pointer.primary_pressed(),
                i.pointer.primary_released(),
                i.pointer.latest_pos(),
            )
        });
        if primary_pressed && response.hovered() {
            if let Some(p) = pointer {
                let action = self.controller.mouse_pressed(
                    to_pixels(p),
                    &camera,
                    w,
                    h,
                    self.running.world.positions(),
                );
                action.into_iter().for_each(|a| self.act(a));
            }
        }
        if let Some(p) = pointer {
            self.controller.mouse_moved(to_pixels(p));
        }
        if primary_released {
            let action = self.controller.mouse_released();
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
        let camera = self.orbit.camera();

        // Forces from the controller: arrow nudge and the drag spring.
        let updates = self
            .controller
            .nudge(&camera, self.running.world.positions());
        for (mass, force) in updates {
            if let Err(e) = self.running.world.set_external_force(mass, force) {
                self.fail(e);
            }
        }
        let drag = self.controller.drag_spring(&camera, w, h);
        if self.controller.drag().is_some() {
            if let Err(e) = self.running.world.set_drag(drag) {
                self.fail(e);
            }
        }

        self.advance();
        self.energy = self.running.world.energy();

        // Draw: the drag line in yellow (seed 003), the dragged mass highlighted.
        let running = &mut self.running;
        let highlight = self.controller.drag().map(|d| d.mass);
        let overlay: Vec<OverlayLine> = drag
            .iter()
            .map(|d| OverlayLine {
                a: running.world.positions()[d.mass].as_vec3(),
                b: d.target.as_vec3(),
                color: self.renderer.style().highlight,
            })
            .collect();
        let triangles = if self.solid {
            exterior_triangles(&running.cells)
        } else {
            Vec::new()
        };
        let drawn = (|| {
            running.scene.set_highlight(highlight)?;
            running.scene.set_overlay(&self.renderer, &overlay)?;
            if running.scene.triangles() != triangles.len() {
                running.scene.set_triangles(&self.renderer, &triangles)?;
            }
            running
                .scene
                .set_positions(&self.renderer, running.world.positions())?;
            running
                .scene
                .set_rest_lengths(&self.renderer, running.world.rest_lengths())?;
            self.renderer
                .draw(&running.scene, Positions::Uploaded, &camera)
        })();
        if let Err(e) = drawn {
            self.message = Some(e.to_string());
        }
        ui.painter().image(
            self.texture,
            rect,
            egui::Rect::from_min_max(egui::pos2(0.0, 0.0), egui::pos2(1.0, 1.0)),
            egui::Color32::WHITE,
        );
    }
}

fn start(renderer: &Renderer, index: usize) -> hooke::Result<Running> {
    let (model, cells) = (SCENARIOS[index].build)()?;
    let world = CpuWorld::new(&model)?;
    let scene = Drawing::new(renderer, &model)?;
    Ok(Running {
        index,
        world,
        scene,
        cells,
        behind: 0.0,
    })
}

fn map_key(key: egui::Key) -> Option<Key> {
    Some(match key {
        egui::Key::Space => Key::Space,
        egui::Key::S => Key::S,
        egui::Key::R => Key::R,
        egui::Key::ArrowLeft => Key::Left,
        egui::Key::ArrowRight => Key::Right,
        egui::Key::ArrowUp => Key::Up,
        egui::Key::ArrowDown => Key::Down,
        egui::Key::Num1 => Key::Digit(1),
        egui::Key::Num2 => Key::Digit(2),
        egui::Key::Num3 => Key::Digit(3),
        egui::Key::Num4 => Key::Digit(4),
        egui::Key::Num5 => Key::Digit(5),
        egui::Key::Num6 => Key::Digit(6),
        egui::Key::Num7 => Key::Digit(7),
        egui::Key::Num8 => Key::Digit(8),
        egui::Key::Num9 => Key::Digit(9),
        _ => return None,
    })
}

impl eframe::App for Viewer {
    fn ui(&mut self, ui: &mut egui::Ui, _frame: &mut eframe::Frame) {
        self.handle_keys(ui);
        egui::Panel::left("controls")
            .resizable(false)
            .exact_size(300.0)
            .show(ui, |ui| {
                egui::ScrollArea::vertical().show(ui, |ui| self.side_panel(ui));
            });
        egui::CentralPanel::default()
            .frame(egui::Frame::NONE)
            .show(ui, |ui| self.scene_view(ui));
        ui.ctx().request_repaint();
    }
}

fn main() -> eframe::Result {
    let options = eframe::NativeOptions {
        viewport: egui::ViewportBuilder::default()
            .with_inner_size([1280.0, 760.0])
            .with_title("hooke viewer"),
        ..Default::default()
    };
    eframe::run_native(
        "hooke viewer",
        options,
        Box::new(|cc| {
            Viewer::new(cc)
                .map(|v| Box::new(v) as Box<dyn eframe::App>)
                .map_err(|e| e.into())
        }),
    )
}
