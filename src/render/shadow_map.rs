//! Shadows in scenes with obstacles: a shadow map seen straight down.
//!
//! A scene without obstacles flattens its springs and masses onto `z = 0` and draws them over
//! the ground. With obstacles that is not enough (a body on a step casts on the step, not on the
//! ground under it, and the steps shadow the ground under an overhang), so each draw first
//! renders a depth-only map: an orthographic view looking down -z over a square around the
//! camera's target ([`SHADOW_REACH`](super::view::SHADOW_REACH) camera distances each way), in
//! which every texel keeps the height of the highest spring, mass or obstacle above it (springs
//! and masses at about their drawn width at the target; obstacles lowered a little, so that a
//! surface does not shadow itself). Every receiving surface (ground, planes, obstacles) then
//! darkens where the map holds something above it (`in_shadow` in shaders/render.wgsl: a
//! tolerance below the receiver, a normal offset and a 2 x 2 bilinear filter, as shadow mapping
//! usually does against self-shadowing and aliasing; the filter is a comparison sampler's). It is the same light as the ground's
//! shadows: straight down.
//!
//! The map is made on the first draw of a scene with obstacles and kept; a renderer that never
//! draws one never makes it.

use super::drawing::Drawing;
use super::pipelines::{shadow_mapped, Pipelines};
use super::style::Style;
use super::targets::DEPTH_FORMAT;

/// Side of the shadow map in texels on devices that allow it (else the device's
/// `max_texture_dimension_2d`): 1024 texels over 1.5 camera distances, about one image pixel at
/// the target for a 480-pixel-high image (2048 cost lavapipe a few ms more per frame for little
/// to see).
pub(super) const SHADOW_MAP_SIZE: u32 = 1024;

/// The layout of bind group 1: the shadow map and its comparison sampler, read by fragment
/// shaders with `textureSampleCompareLevel` (`textureLoad` of a depth texture does not
/// translate to GLSL, so it would not run on OpenGL).
pub(super) fn map_layout(device: &wgpu::Device) -> wgpu::BindGroupLayout {
    device.create_bind_group_layout(&wgpu::BindGroupLayoutDescriptor {
        label: Some("hooke::render::shadow_map"),
        entries: &[
            wgpu::BindGroupLayoutEntry {
                binding: 0,
                visibility: wgpu::ShaderStages::FRAGMENT,
                ty: wgpu::BindingType::Texture {
                    sample_type: wgpu::TextureSampleType::Depth,
                    view_dimension: wgpu::TextureViewDimension::D2,
                    multisampled: false,
                },
                count: None,
            },
            wgpu::BindGroupLayoutEntry {
                binding: 1,
                visibility: wgpu::ShaderStages::FRAGMENT,
                ty: wgpu::BindingType::Sampler(wgpu::SamplerBindingType::Comparison),
                count: None,
            },
        ],
    })
}

/// The map's side in texels on `device`.
pub(super) fn map_size(device: &wgpu::Device) -> u32 {
    SHADOW_MAP_SIZE.min(device.limits().max_texture_dimension_2d)
}

/// The shadow map texture and the bind group that reads it.
#[derive(Debug)]
pub(super) struct ShadowMap {
    view: wgpu::TextureView,
    bind_group: wgpu::BindGroup,
}

impl ShadowMap {
    /// A `size` x `size` map on `device`.
    pub(super) fn new(device: &wgpu::Device, layout: &wgpu::BindGroupLayout, size: u32) -> Self {
        let texture = device.create_texture(&wgpu::TextureDescriptor {
            label: Some("hooke::render::shadow_map"),
            size: wgpu::Extent3d {
                width: size,
                height: size,
                depth_or_array_layers: 1,
            },
            mip_level_count: 1,
            sample_count: 1,
            dimension: wgpu::TextureDimension::D2,
            format: DEPTH_FORMAT,
            usage: wgpu::TextureUsages::RENDER_ATTACHMENT | wgpu::TextureUsages::TEXTURE_BINDING,
            view_formats: &[],
        });
        let view = texture.create_view(&wgpu::TextureViewDescriptor::default());
        // Nothing above the receiver passes; four texels blended bilinearly.
        let sampler = device.create_sampler(&wgpu::SamplerDescriptor {
            label: Some("hooke::render::shadow_map"),
            mag_filter: wgpu::FilterMode::Linear,
            min_filter: wgpu::FilterMode::Linear,
            compare: Some(wgpu::CompareFunction::LessEqual),
            ..Default::default()
        });
        let bind_group = device.create_bind_group(&wgpu::BindGroupDescriptor {
            label: Some("hooke::render::shadow_map"),
            layout,
            entries: &[
                wgpu::BindGroupEntry {
                    binding: 0,
                    resource: wgpu::BindingResource::TextureView(&view),
                },
                wgpu::BindGroupEntry {
                    binding: 1,
                    resource: wgpu::BindingResource::Sampler(&sampler),
                },
            ],
        });
        Self { view, bind_group }
    }

    /// The bind group of the map (group 1 of the shadowed pipelines).
    pub(super) fn bind_group(&self) -> &wgpu::BindGroup {
        &self.bind_group
    }

    /// Records the map pass of `scene` in `style`: cleared to "nothing above", then (with
    /// `style.shadows`) the planes, the other obstacles, the springs and the masses, each kept
    /// where it is the highest. `drawing` is the scene's bind group 0.
    pub(super) fn record(
        &self,
        encoder: &mut wgpu::CommandEncoder,
        pipelines: &Pipelines,
        drawing: &wgpu::BindGroup,
        scene: &Drawing,
        style: &Style,
    ) {
        let mut pass = encoder.begin_render_pass(&wgpu::RenderPassDescriptor {
            label: Some("hooke::render::shadow_map"),
            color_attachments: &[],
            depth_stencil_attachment: Some(wgpu::RenderPassDepthStencilAttachment {
                view: &self.view,
                depth_ops: Some(wgpu::Operations {
                    load: wgpu::LoadOp::Clear(1.0),
                    store: wgpu::StoreOp::Store,
                }),
                stencil_ops: None,
            }),
            timestamp_writes: None,
            occlusion_query_set: None,
            multiview_mask: None,
        });
        let Some(obstacles) = shadow_mapped(scene, style).filter(|_| style.shadows) else {
            return;
        };
        pass.set_bind_group(0, drawing, &[]);
        if obstacles.plane_count > 0 {
            pass.set_pipeline(&pipelines.map.planes);
            pass.set_vertex_buffer(0, obstacles.planes.slice(..));
            pass.draw(0..6, 0..obstacles.plane_count);
        }
        if obstacles.vertex_count > 0 {
            pass.set_pipeline(&pipelines.map.obstacles);
            pass.set_vertex_buffer(0, obstacles.vertices.slice(..));
            pass.draw(0..obstacles.vertex_count, 0..1);
        }
        if style.show_springs && scene.springs > 0 {
            pass.set_pipeline(&pipelines.map.springs);
            pass.draw(0..6, 0..scene.springs);
        }
        if style.show_masses && style.mass_radius > 0.0 && scene.masses > 0 {
            pass.set_pipeline(&pipelines.map.masses);
            pass.draw(0..6, 0..scene.masses);
        }
    }
}
