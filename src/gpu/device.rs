//! Finding an adapter and opening a device suited to hooke.

use crate::error::{Error, Result};

/// The wgpu features hooke uses when the adapter has them: 64-bit integer atomics for the
/// fixed-point force scatter.
#[must_use]
pub fn wanted_features() -> wgpu::Features {
    wgpu::Features::SHADER_INT64 | wgpu::Features::SHADER_INT64_ATOMIC_ALL_OPS
}

fn describe(info: &wgpu::AdapterInfo) -> String {
    format!("{} ({:?}, {:?})", info.name, info.backend, info.device_type)
}

/// Rank of an adapter: Vulkan first, then discrete, integrated, virtual and CPU devices.
fn rank(info: &wgpu::AdapterInfo) -> (u8, u8) {
    let backend = match info.backend {
        wgpu::Backend::Vulkan => 0,
        wgpu::Backend::Metal | wgpu::Backend::Dx12 => 1,
        _ => 2,
    };
    let kind = match info.device_type {
        wgpu::DeviceType::DiscreteGpu => 0,
        wgpu::DeviceType::IntegratedGpu => 1,
        wgpu::DeviceType::VirtualGpu => 2,
        wgpu::DeviceType::Cpu => 3,
        wgpu::DeviceType::Other => 4,
    };
    (backend, kind)
}

/// Picks an adapter: the backends named by `WGPU_BACKEND` (all by default); among them the first
/// whose name contains `WGPU_ADAPTER_NAME` (case-insensitive) if that is set, otherwise the best by
/// backend (Vulkan first) and device type (discrete GPU first, CPU last).
///
/// # Errors
/// [`Error::NoAdapter`], listing every adapter seen, when none qualifies.
pub async fn pick_adapter(instance: &wgpu::Instance) -> Result<wgpu::Adapter> {
    let backends = wgpu::Backends::from_env().unwrap_or(wgpu::Backends::all());
    let adapters = instance.enumerate_adapters(backends).await;
    let seen: Vec<String> = adapters.iter().map(|a| describe(&a.get_info())).collect();
    let found = if seen.is_empty() {
        format!("no adapters on backends {backends:?}")
    } else {
        format!("seen: {}", seen.join(", "))
    };
    let wanted = std::env::var("WGPU_ADAPTER_NAME").ok();
    let mut candidates: Vec<wgpu::Adapter> = adapters
        .into_iter()
        .filter(|a| {
            wanted.as_ref().is_none_or(|name| {
                a.get_info()
                    .name
                    .to_lowercase()
                    .contains(&name.to_lowercase())
            })
        })
        .collect();
    candidates.sort_by_key(|a| rank(&a.get_info()));
    match candidates.into_iter().next() {
        Some(a) => Ok(a),
        None => Err(Error::NoAdapter {
            found: match wanted {
                Some(name) => format!("none named like WGPU_ADAPTER_NAME={name:?}; {found}"),
                None => found,
            },
        }),
    }
}

/// Opens a device on `adapter` with the adapter's own limits (not wgpu's defaults, which cap a
/// storage buffer at 128 MiB) and the features of [`wanted_features`] that it has.
///
/// # Errors
/// [`Error::RequestDevice`] if the device cannot be opened.
pub async fn open_device(adapter: &wgpu::Adapter) -> Result<(wgpu::Device, wgpu::Queue)> {
    let desc = wgpu::DeviceDescriptor {
        label: Some("hooke::device"),
        required_features: adapter.features() & wanted_features(),
        required_limits: adapter.limits(),
        ..Default::default()
    };
    Ok(adapter.request_device(&desc).await?)
}

/// Picks an adapter as [`pick_adapter`] does and opens a device on it as [`open_device`] does:
/// what [`World::new`](crate::World::new) uses. Call it once and share the device between Worlds
/// with [`World::with_device`](crate::World::with_device).
///
/// # Errors
/// [`Error::NoAdapter`] (with the list of adapters seen and how to install lavapipe) or
/// [`Error::RequestDevice`].
pub fn request_device() -> Result<(wgpu::Device, wgpu::Queue)> {
    pollster::block_on(async {
        let instance =
            wgpu::Instance::new(wgpu::InstanceDescriptor::new_without_display_handle_from_env());
        let adapter = pick_adapter(&instance).await?;
        open_device(&adapter).await
    })
}
