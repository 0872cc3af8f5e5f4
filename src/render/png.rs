//! Saving images as PNG files.

use std::path::Path;

use super::{Camera, Drawing, Renderer};
use crate::cpu::CpuWorld;
use crate::error::{Error, Result};

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
    /// Renders a CPU world to a PNG file at `path`.
    ///
    /// # Errors
    /// Those of [`Renderer::render_cpu`]; [`Error::ImageWrite`] if the file cannot be written.
    pub fn save_png_cpu(
        &mut self,
        scene: &mut Drawing,
        world: &CpuWorld,
        camera: &Camera,
        path: impl AsRef<Path>,
    ) -> Result<()> {
        let image = self.render_cpu(scene, world, camera)?;
        save_png(&image, path)
    }
}
