//! The render targets: the single-sampled colour texture that is resolved into, read back and
//! shown by UIs, its multisampled twin and the depth buffer. Remade whenever the image size
//! changes.

use crate::error::{Error, Result};

/// Format of the renderer's colour target and of the images it returns: 8-bit RGBA, sRGB.
pub const TARGET_FORMAT: wgpu::TextureFormat = wgpu::TextureFormat::Rgba8UnormSrgb;

/// Depth buffer format.
pub(super) const DEPTH_FORMAT: wgpu::TextureFormat = wgpu::TextureFormat::Depth32Float;

/// Multisample count (4 is supported by every WebGPU device for the formats used here).
pub(super) const SAMPLES: u32 = 4;

/// The render targets of one image size.
#[derive(Debug)]
pub(super) struct Targets {
    /// Single-sampled colour target: resolved into, read back, sampled by UIs.
    pub(super) color: wgpu::Texture,
    pub(super) color_view: wgpu::TextureView,
    /// The same texture seen as `Rgba8Unorm`: sampling returns the sRGB-encoded bytes.
    pub(super) color_view_raw: wgpu::TextureView,
    pub(super) msaa_view: wgpu::TextureView,
    pub(super) depth_view: wgpu::TextureView,
}

impl Targets {
    /// The targets of a `width` x `height` image on `device` (the size is not checked: see
    /// [`check_size`]).
    pub(super) fn new(device: &wgpu::Device, width: u32, height: u32) -> Self {
        let size = wgpu::Extent3d {
            width,
            height,
            depth_or_array_layers: 1,
        };
        let texture = |label, samples, format, usage, view_formats: &[wgpu::TextureFormat]| {
            device.create_texture(&wgpu::TextureDescriptor {
                label: Some(label),
                size,
                mip_level_count: 1,
                sample_count: samples,
                dimension: wgpu::TextureDimension::D2,
                format,
                usage,
                view_formats,
            })
        };
        let color = texture(
            "hooke::render::color",
            1,
            TARGET_FORMAT,
            wgpu::TextureUsages::RENDER_ATTACHMENT
                | wgpu::TextureUsages::COPY_SRC
                | wgpu::TextureUsages::TEXTURE_BINDING,
            &[wgpu::TextureFormat::Rgba8Unorm],
        );
        let msaa = texture(
            "hooke::render::color_msaa",
            SAMPLES,
            TARGET_FORMAT,
            wgpu::TextureUsages::RENDER_ATTACHMENT,
            &[],
        );
        let depth = texture(
            "hooke::render::depth",
            SAMPLES,
            DEPTH_FORMAT,
            wgpu::TextureUsages::RENDER_ATTACHMENT,
            &[],
        );
        Self {
            color_view: color.create_view(&Default::default()),
            color_view_raw: color.create_view(&wgpu::TextureViewDescriptor {
                label: Some("hooke::render::color_gamma"),
                format: Some(wgpu::TextureFormat::Rgba8Unorm),
                ..Default::default()
            }),
            color,
            msaa_view: msaa.create_view(&Default::default()),
            depth_view: depth.create_view(&Default::default()),
        }
    }
}

/// Checks an image size against `device`'s limit.
///
/// # Errors
/// [`Error::InvalidParameter`] for a zero size or one above `max_texture_dimension_2d`.
pub(super) fn check_size(device: &wgpu::Device, width: u32, height: u32) -> Result<()> {
    let limit = device.limits().max_texture_dimension_2d;
    for (name, v) in [("image width", width), ("image height", height)] {
        if v == 0 || v > limit {
            return Err(Error::InvalidParameter {
                name,
                value: f64::from(v),
                expected: "must be > 0 and at most the device's max_texture_dimension_2d pixels",
            });
        }
    }
    Ok(())
}
