//! The render targets: the single-sampled colour texture that is resolved into and read back,
//! its multisampled twin, the depth buffer, and (when a UI asks for it) an `Rgba8Unorm` copy of
//! the colour texture. Remade whenever the image size changes.

use std::sync::OnceLock;

/// Format of the renderer's colour target and of the images it returns: 8-bit RGBA, sRGB.
pub const TARGET_FORMAT: wgpu::TextureFormat = wgpu::TextureFormat::Rgba8UnormSrgb;

/// Format of the gamma copy: the same bytes as [`TARGET_FORMAT`], sampled undecoded.
pub(super) const GAMMA_FORMAT: wgpu::TextureFormat = wgpu::TextureFormat::Rgba8Unorm;

/// Depth buffer format.
pub(super) const DEPTH_FORMAT: wgpu::TextureFormat = wgpu::TextureFormat::Depth32Float;

/// Multisample count (4 is supported by every WebGPU device for the formats used here, and by
/// every OpenGL ES 3.0 one).
pub(super) const SAMPLES: u32 = 4;

/// The render targets of one image size.
#[derive(Debug)]
pub(super) struct Targets {
    /// Single-sampled colour target: resolved into, read back, sampled by UIs.
    pub(super) color: wgpu::Texture,
    pub(super) color_view: wgpu::TextureView,
    pub(super) msaa_view: wgpu::TextureView,
    pub(super) depth_view: wgpu::TextureView,
    /// A [`GAMMA_FORMAT`] texture holding the bytes of `color` and its view: made on the first
    /// [`Targets::gamma_view`], then refreshed by every draw ([`Targets::refresh_gamma`]). A copy
    /// rather than a second view of `color` because a view in another format needs the downlevel
    /// flag `VIEW_FORMATS`, which the OpenGL backend lacks.
    gamma: OnceLock<(wgpu::Texture, wgpu::TextureView)>,
}

/// A `width` x `height` texture on `device`.
fn texture(
    device: &wgpu::Device,
    label: &str,
    (width, height): (u32, u32),
    sample_count: u32,
    format: wgpu::TextureFormat,
    usage: wgpu::TextureUsages,
) -> wgpu::Texture {
    device.create_texture(&wgpu::TextureDescriptor {
        label: Some(label),
        size: wgpu::Extent3d {
            width,
            height,
            depth_or_array_layers: 1,
        },
        mip_level_count: 1,
        sample_count,
        dimension: wgpu::TextureDimension::D2,
        format,
        usage,
        view_formats: &[],
    })
}

impl Targets {
    /// The targets of a `width` x `height` image on `device` (the size is not checked: see
    /// `needs::check_size`).
    pub(super) fn new(device: &wgpu::Device, width: u32, height: u32) -> Self {
        let size = (width, height);
        let color = texture(
            device,
            "hooke::render::color",
            size,
            1,
            TARGET_FORMAT,
            wgpu::TextureUsages::RENDER_ATTACHMENT
                | wgpu::TextureUsages::COPY_SRC
                | wgpu::TextureUsages::TEXTURE_BINDING,
        );
        let msaa = texture(
            device,
            "hooke::render::color_msaa",
            size,
            SAMPLES,
            TARGET_FORMAT,
            wgpu::TextureUsages::RENDER_ATTACHMENT,
        );
        let depth = texture(
            device,
            "hooke::render::depth",
            size,
            SAMPLES,
            DEPTH_FORMAT,
            wgpu::TextureUsages::RENDER_ATTACHMENT,
        );
        Self {
            color_view: color.create_view(&Default::default()),
            color,
            msaa_view: msaa.create_view(&Default::default()),
            depth_view: depth.create_view(&Default::default()),
            gamma: OnceLock::new(),
        }
    }

    /// Records a copy of the colour target into the gamma copy, if one was asked for.
    pub(super) fn refresh_gamma(&self, encoder: &mut wgpu::CommandEncoder) {
        if let Some((gamma, _)) = self.gamma.get() {
            encoder.copy_texture_to_texture(
                self.color.as_image_copy(),
                gamma.as_image_copy(),
                self.color.size(),
            );
        }
    }

    /// The view of the gamma copy; made, and filled with what was drawn so far, on the first
    /// call.
    pub(super) fn gamma_view(
        &self,
        device: &wgpu::Device,
        queue: &wgpu::Queue,
    ) -> &wgpu::TextureView {
        let mut fresh = false;
        let (_, view) = self.gamma.get_or_init(|| {
            fresh = true;
            let gamma = texture(
                device,
                "hooke::render::color_gamma",
                (self.color.width(), self.color.height()),
                1,
                GAMMA_FORMAT,
                wgpu::TextureUsages::COPY_DST
                    | wgpu::TextureUsages::COPY_SRC
                    | wgpu::TextureUsages::TEXTURE_BINDING,
            );
            let view = gamma.create_view(&Default::default());
            (gamma, view)
        });
        if fresh {
            let mut encoder = device.create_command_encoder(&wgpu::CommandEncoderDescriptor {
                label: Some("hooke::render::color_gamma"),
            });
            self.refresh_gamma(&mut encoder);
            queue.submit([encoder.finish()]);
        }
        view
    }
}
