//! Interactive viewer: watch hooke's built-in scenarios run, push them, drag them. The same
//! window as `hooke view` (its code is `src/bin/hooke/view/gui/`, included here), which also
//! opens scene files and evolved champions.
//!
//! `cargo run --release --features viewer --example viewer`
//!
//! Space: play / pause; S: one step; R: reset; 1-9, 0, -, =, F1: pick a scenario; arrow keys
//! push the topmost mass; left mouse drags a mass, right mouse turns the camera, the wheel
//! zooms; T throws a body at another.

#[path = "../../src/bin/hooke/view/gui/mod.rs"]
mod gui;

fn main() -> Result<(), String> {
    env_logger::Builder::from_env(env_logger::Env::default().default_filter_or("hooke=warn"))
        .init(); // RUST_LOG=hooke=info shows adapter and variant choices
    gui::run(gui::builtins())
}
