//! What the renderer needs from a device, and the errors that name it when it is missing.
//!
//! The renderer asks for no optional feature and no downlevel flag it can do without (its gamma
//! view needs no `VIEW_FORMATS`, which OpenGL lacks; see `targets.rs`). What remains:
//! - limits, checked up front from the device's [`wgpu::Limits`] ([`check_limits`]): one
//!   read-only storage buffer per [`BINDINGS`] entry in the vertex stage, a uniform binding the
//!   size of [`GpuView`], a second bind group with one depth texture and a comparison sampler read by fragment shaders
//!   (the shadow map of scenes with obstacles, at most 1024 texels a side, less where the device
//!   allows less), one vertex buffer, and the image size ([`check_size`]);
//! - what wgpu checks while the targets, the bind group layout and the pipelines are made (4x
//!   multisampling of the target formats, storage buffers read by vertex shaders: downlevel flag
//!   `VERTEX_STORAGE`): each is made in its own error scopes ([`made`]) and a failure is
//!   reported as [`Error::DeviceUnsupported`] naming that need, with wgpu's own message.

use std::mem::size_of;

use super::pipelines::{Binding, BINDINGS};
use super::targets::{DEPTH_FORMAT, SAMPLES, TARGET_FORMAT};
use super::view::GpuView;
use crate::error::{Error, Result};

/// What [`Error::DeviceUnsupported`] says the renderer was doing.
const TASK: &str = "run hooke's renderer";

/// `name (backend, device type)` of `device`'s adapter.
fn adapter(device: &wgpu::Device) -> String {
    crate::gpu::describe_adapter(&device.adapter_info())
}

/// The storage buffers a vertex shader of the renderer binds.
fn vertex_storage_buffers() -> u32 {
    BINDINGS
        .iter()
        .filter(|(_, kind)| *kind == Binding::StorageRead)
        .count() as u32
}

/// The limits the renderer needs that `limits` does not meet: `(limit name, needed, allowed)`.
#[must_use]
pub(super) fn missing_limits(limits: &wgpu::Limits) -> Vec<(&'static str, u64, u64)> {
    let needs = [
        (
            "max_storage_buffers_per_shader_stage",
            u64::from(vertex_storage_buffers()),
            u64::from(limits.max_storage_buffers_per_shader_stage),
        ),
        (
            "max_uniform_buffer_binding_size",
            size_of::<GpuView>() as u64,
            limits.max_uniform_buffer_binding_size,
        ),
        // Group 1: the shadow map of scenes with obstacles (`shadow_map.rs`).
        ("max_bind_groups", 2, u64::from(limits.max_bind_groups)),
        (
            "max_sampled_textures_per_shader_stage",
            1,
            u64::from(limits.max_sampled_textures_per_shader_stage),
        ),
        (
            "max_samplers_per_shader_stage",
            1,
            u64::from(limits.max_samplers_per_shader_stage),
        ),
        // Obstacle triangles or plane instances.
        (
            "max_vertex_buffers",
            1,
            u64::from(limits.max_vertex_buffers),
        ),
    ];
    needs
        .into_iter()
        .filter(|(_, needed, allowed)| needed > allowed)
        .collect()
}

/// Checks `device`'s limits against what the renderer binds.
///
/// # Errors
/// [`Error::DeviceUnsupported`] naming the first limit that is too low.
pub(super) fn check_limits(device: &wgpu::Device) -> Result<()> {
    match missing_limits(&device.limits()).first() {
        None => Ok(()),
        Some(&(limit, needed, allowed)) => Err(Error::DeviceUnsupported {
            task: TASK,
            needs: format!("the limit {limit} >= {needed}"),
            adapter: adapter(device),
            detail: format!("the device allows {allowed}"),
        }),
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

/// What making the render targets needs.
pub(super) fn targets_need() -> String {
    format!(
        "{SAMPLES}x multisampled render targets of {TARGET_FORMAT:?} and {DEPTH_FORMAT:?} \
         (texture format feature MULTISAMPLE_X{SAMPLES}) that can be resolved and copied"
    )
}

/// What the bind group layout needs.
pub(super) const LAYOUT_NEEDS: &str =
    "read-only storage buffers in vertex shaders (downlevel flag VERTEX_STORAGE)";

/// What the pipelines need.
pub(super) const PIPELINES_NEED: &str = "the render pipelines of shaders/render.wgsl \
     (vertex storage reads, min blending, depth testing, multisampling)";

/// Runs `make` on `device` in validation and internal error scopes: its result, or
/// [`Error::DeviceUnsupported`] naming `needs` when wgpu reports an error.
///
/// # Errors
/// As above.
pub(super) fn made<T>(device: &wgpu::Device, needs: &str, make: impl FnOnce() -> T) -> Result<T> {
    // Internal errors too: a shader the backend cannot translate (e.g. to GLSL) is one, and
    // outside a scope it would panic in wgpu's default handler.
    let internal = device.push_error_scope(wgpu::ErrorFilter::Internal);
    let validation = device.push_error_scope(wgpu::ErrorFilter::Validation);
    let made = make();
    let validation = pollster::block_on(validation.pop());
    let internal = pollster::block_on(internal.pop());
    match validation.or(internal) {
        None => Ok(made),
        Some(error) => Err(Error::DeviceUnsupported {
            task: TASK,
            needs: needs.to_string(),
            adapter: adapter(device),
            detail: format!("wgpu says: {error}"),
        }),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// wgpu's WebGPU defaults (which every Vulkan, Metal and DX12 adapter meets) are enough for
    /// the renderer.
    #[test]
    fn webgpu_default_limits_are_enough() {
        assert!(missing_limits(&wgpu::Limits::default()).is_empty());
    }

    /// GLES3-class limits (4 storage buffers per stage) and WebGL2-class ones (none) are refused
    /// naming the limit, the number of storage buffers the vertex shaders bind (seven in
    /// [`BINDINGS`]) and what the device allows.
    #[test]
    fn too_few_vertex_storage_buffers_are_named() {
        for (limits, allowed) in [
            (wgpu::Limits::downlevel_defaults(), 4),
            (wgpu::Limits::downlevel_webgl2_defaults(), 0),
        ] {
            assert_eq!(
                missing_limits(&limits),
                vec![("max_storage_buffers_per_shader_stage", 7, allowed)]
            );
        }
    }
}
