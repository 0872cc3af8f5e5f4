//! An image body's picture read within limits: the file's bytes within the input-file limit
//! ([`read_input`](crate::read_input)), and its dimensions, read from its header, within
//! [`MAX_IMAGE_PIXELS`] before any pixel is decoded. A small file whose header claims a huge
//! picture is refused instead of being decoded into gigabytes.

use std::io::Cursor;
use std::path::Path;

use image::{DynamicImage, ImageError, ImageReader, Limits};

use crate::error::{Error, Result};

/// The most pixels (width x height) a picture of an [`ImageBody`](super::ImageBody) may have:
/// 2^24 = 16 777 216 (4096 x 4096). Decoded, such a picture takes at most 256 MiB (16 bytes a
/// pixel for 32-bit float RGBA, the widest the decoder produces), and a body of all its pixels
/// about 8.4e7 masses and springs, within [`MAX_BUILT_ELEMENTS`](crate::MAX_BUILT_ELEMENTS).
pub const MAX_IMAGE_PIXELS: u64 = 1 << 24;

/// Checks a picture of `width x height` pixels from `path` against [`MAX_IMAGE_PIXELS`].
///
/// # Errors
/// [`Error::ImageTooLarge`] naming `path` and the dimensions.
pub(super) fn check_pixels(path: &Path, width: u32, height: u32) -> Result<()> {
    if u64::from(width) * u64::from(height) > MAX_IMAGE_PIXELS {
        return Err(Error::ImageTooLarge {
            path: path.to_path_buf(),
            width,
            height,
            limit: MAX_IMAGE_PIXELS,
        });
    }
    Ok(())
}

/// The picture in file `path`: its bytes read within the input-file limit, its header's
/// dimensions checked, then decoded with the decoder's own limits set to the same bounds.
///
/// # Errors
/// [`Error::InputTooLarge`] for a file above the input-file limit; [`Error::ImageTooLarge`] for
/// a picture of more than [`MAX_IMAGE_PIXELS`]; [`Error::Image`] naming `path` for a file that
/// cannot be read or decoded.
pub(super) fn read_image(path: &Path) -> Result<DynamicImage> {
    let image_error = |source| Error::Image {
        path: path.to_path_buf(),
        source,
    };
    let bytes = crate::read_input(path).map_err(|e| match e {
        Error::SceneIo { source, .. } => image_error(ImageError::IoError(source)),
        other => other,
    })?;
    let reader = || {
        ImageReader::new(Cursor::new(&bytes[..]))
            .with_guessed_format()
            .map_err(|e| image_error(ImageError::IoError(e)))
    };
    let (width, height) = reader()?.into_dimensions().map_err(image_error)?;
    check_pixels(path, width, height)?;
    let mut limits = Limits::default();
    limits.max_image_width = Some(width);
    limits.max_image_height = Some(height);
    limits.max_alloc = Some(16 * MAX_IMAGE_PIXELS);
    let mut reader = reader()?;
    reader.limits(limits);
    reader.decode().map_err(image_error)
}
