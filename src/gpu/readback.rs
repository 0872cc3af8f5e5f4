//! Reading device memory back to the host: the one staging -> map -> poll sequence that the
//! World's readbacks and the renderer's image readback share.

use crate::error::{Error, Result};

/// Records copies into `staging` (usage `MAP_READ | COPY_DST`) with `encode`, submits them, waits
/// for the device and returns the first `size` bytes of `staging`.
///
/// # Errors
/// [`Error::Poll`], [`Error::BufferAsync`] or [`Error::MapRange`] if the device fails, and
/// [`Error::Gpu`] if the mapping callback never runs.
pub(crate) fn read_back(
    device: &wgpu::Device,
    queue: &wgpu::Queue,
    staging: &wgpu::Buffer,
    size: u64,
    encode: impl FnOnce(&mut wgpu::CommandEncoder, &wgpu::Buffer),
) -> Result<Vec<u8>> {
    let mut encoder = device.create_command_encoder(&wgpu::CommandEncoderDescriptor {
        label: Some("hooke::readback"),
    });
    encode(&mut encoder, staging);
    queue.submit([encoder.finish()]);
    let (tx, rx) = std::sync::mpsc::channel();
    staging
        .slice(..size)
        .map_async(wgpu::MapMode::Read, move |r| {
            let _ = tx.send(r);
        });
    device.poll(wgpu::PollType::wait_indefinitely())?;
    rx.recv()
        .map_err(|_| Error::Gpu("buffer mapping callback never ran".to_string()))??;
    let bytes = staging.slice(..size).get_mapped_range()?.to_vec();
    staging.unmap();
    Ok(bytes)
}

/// A `MAP_READ | COPY_DST` staging buffer of `size` bytes.
pub(crate) fn staging(device: &wgpu::Device, label: &str, size: u64) -> wgpu::Buffer {
    device.create_buffer(&wgpu::BufferDescriptor {
        label: Some(label),
        size,
        usage: wgpu::BufferUsages::MAP_READ | wgpu::BufferUsages::COPY_DST,
        mapped_at_creation: false,
    })
}
