//! Saving images as PNG files.

use std::path::Path;

use super::{Camera, Drawing, Renderer};
use crate::error::{Error, Result};
use crate::simulation::Simulation;

/// Writes `image` as a PNG file at `path`.
///
/// # Errors
/// [`Error::ImageWrite`] if it cannot be encoded or written.
pub fn save_png(image: &image::RgbaImage, path: impl AsRef<Path>) -> Result<()> {
    let path = path.as_ref();
    image
        .save_with_format(path, image::ImageFormat::Png)
        .map_err(|source| Error::ImageWrite {
            path: path.to_path_buf(),
            source,
        })
}

impl Renderer {
    /// Renders a world read back to the host (a CPU world; see [`Renderer::render_cpu`]) to a
    /// PNG file at `path`.
    ///
    /// # Errors
    /// Those of [`Renderer::render_cpu`]; [`Error::ImageWrite`] if the file cannot be written.
    pub fn save_png_cpu<S: Simulation>(
        &mut self,
        scene: &mut Drawing,
        world: &S,
        camera: &Camera,
        path: impl AsRef<Path>,
    ) -> Result<()> {
        let image = self.render_cpu(scene, world, camera)?;
        save_png(&image, path)
    }
}
