//! `hooke view`: the interactive viewer on a scene file, a champion, or the built-in scenarios.
//! The window needs the `viewer` feature; loading (`load.rs`) does not, and is checked first.

mod load;

#[cfg(feature = "viewer")]
mod gui;

use std::error::Error;

use crate::args::ViewArgs;

/// How to get a `hooke` with the viewer.
#[cfg(not(feature = "viewer"))]
const NO_VIEWER: &str = "this hooke was built without the viewer; install it with `cargo \
install hooke --features cli,viewer` (from a clone: `cargo run --release --features cli,viewer \
-- view FILE`)";

/// Runs `hooke view`.
pub(crate) fn view(args: &ViewArgs) -> Result<(), Box<dyn Error>> {
    let loaded = args.file.as_deref().map(load::load).transpose()?;
    show(loaded)
}

/// Opens the window on `loaded` (the built-in scenarios when `None`).
#[cfg(feature = "viewer")]
fn show(loaded: Option<load::Loaded>) -> Result<(), Box<dyn Error>> {
    let entries = match loaded {
        Some(l) => vec![gui::Entry::model(
            l.name, l.about, l.model, l.cells, l.surfaces,
        )],
        None => gui::builtins(),
    };
    gui::run(entries).map_err(Into::into)
}

/// Says how to get the viewer (after the file was checked, so a bad file is named either way).
#[cfg(not(feature = "viewer"))]
fn show(_loaded: Option<load::Loaded>) -> Result<(), Box<dyn Error>> {
    Err(NO_VIEWER.into())
}
