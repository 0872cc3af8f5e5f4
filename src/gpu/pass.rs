//! Running work on the device: the one encoder -> compute pass -> submit sequence, inside a
//! validation error scope, that stepping and the reductions share.

use crate::error::{Error, Result};

/// A wgpu error as the crate's.
pub(crate) fn gpu_error(e: wgpu::Error) -> Error {
    Error::Gpu(e.to_string())
}

/// Records one compute pass labelled `label` with `record`, submits it and reports a validation
/// error.
///
/// # Errors
/// [`Error::Gpu`] on a validation error.
pub(crate) fn run_pass(
    device: &wgpu::Device,
    queue: &wgpu::Queue,
    label: &str,
    record: impl FnOnce(&mut wgpu::ComputePass<'_>),
) -> Result<()> {
    run_pass_between(device, queue, label, |_| {}, record, |_| {})
}

/// As [`run_pass`], with copies recorded `before` and `after` the pass in the same submission.
///
/// # Errors
/// [`Error::Gpu`] on a validation error.
pub(crate) fn run_pass_between(
    device: &wgpu::Device,
    queue: &wgpu::Queue,
    label: &str,
    before: impl FnOnce(&mut wgpu::CommandEncoder),
    record: impl FnOnce(&mut wgpu::ComputePass<'_>),
    after: impl FnOnce(&mut wgpu::CommandEncoder),
) -> Result<()> {
    let scope = device.push_error_scope(wgpu::ErrorFilter::Validation);
    let mut encoder =
        device.create_command_encoder(&wgpu::CommandEncoderDescriptor { label: Some(label) });
    before(&mut encoder);
    {
        let mut pass = encoder.begin_compute_pass(&wgpu::ComputePassDescriptor {
            label: Some(label),
            timestamp_writes: None,
        });
        record(&mut pass);
    }
    after(&mut encoder);
    queue.submit([encoder.finish()]);
    match pollster::block_on(scope.pop()) {
        Some(e) => Err(gpu_error(e)),
        None => Ok(()),
    }
}

/// Zeroes `buffers` on the device (one submission labelled `label`).
pub(crate) fn clear(
    device: &wgpu::Device,
    queue: &wgpu::Queue,
    label: &str,
    buffers: &[&wgpu::Buffer],
) {
    let mut encoder =
        device.create_command_encoder(&wgpu::CommandEncoderDescriptor { label: Some(label) });
    for buffer in buffers {
        encoder.clear_buffer(buffer, 0, None);
    }
    queue.submit([encoder.finish()]);
}
