//! Interactive viewer: watch a scenario run, push it, drag it.
//!
//! `cargo run --release --features viewer --example viewer`
//!
//! - Space: play / pause; S: one step; R: reset; 1-9, 0, -, =, F1: pick a scenario (Facey's controls;
//!   the keys are `hooke::render::input::SCENARIO_KEYS`, the panel lists each).
//! - Arrow keys: push the topmost mass (Lipson), relative to the screen.
//! - Left mouse: drag the mass nearest the pointer (SDL: a spring to the pointer, drawn in
//!   yellow). Right mouse: turn the camera; wheel: zoom.
//! - T: throw the body of the last mass dragged (the first body if none) at the nearest other
//!   body, or at the point the camera looks at (`hooke::render::input::ViewerInput::throw`); try
//!   it in "Colliding cubes", whose bodies carry collision radii.
//!
//! Springs are coloured by strain: red compressed, blue stretched. The side panel shows the
//! energy terms live. The window and UI are winit and egui through eframe (its wgpu renderer);
//! the scene is drawn by `hooke::render::Renderer` on eframe's device and shown as a texture.
//! Input handling lives in `hooke::render::input` (tested without a window). Paused, the viewer
//! repaints only on input, so it idles.
//!
//! | file | what |
//! |---|---|
//! | `scenarios.rs` | the scenarios, built from hooke's builders and creatures |
//! | `app.rs` | the viewer's state: the running world, scenario switching, stepping |
//! | `keys.rs` | egui key events to `hooke::render::input` keys |
//! | `panel.rs` | the side panel: scenario list, controls, style, energy |
//! | `scene_view.rs` | the scene: mouse input, forces, drawing into the shown texture |

mod app;
mod keys;
mod panel;
mod scenarios;
mod scene_view;

use eframe::egui;

fn main() -> eframe::Result {
    env_logger::Builder::from_env(env_logger::Env::default().default_filter_or("hooke=warn"))
        .init(); // RUST_LOG=hooke=info shows adapter and variant choices
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
            app::Viewer::new(cc)
                .map(|v| Box::new(v) as Box<dyn eframe::App>)
                .map_err(|e| e.into())
        }),
    )
}
