//! Finding an adapter and opening a device suited to hooke.
//!
//! The primary backends (Vulkan, Metal, DX12) are asked first, in an instance of their own; an
//! OpenGL instance (EGL probing for displays) is created only when none of them offers an adapter.
//! `WGPU_BACKEND` overrides the order: only the backends it names are tried, in one instance.
//!
//! On a headless Linux box, the message `error: XDG_RUNTIME_DIR is invalid or not set in the
//! environment.` comes from Mesa's Vulkan device-select layer, not from OpenGL; see
//! `quiet_mesa_device_select` below.

use super::no_adapter::{no_adapter, Tried};
use crate::error::Result;

/// The wgpu features hooke uses when the adapter has them: 64-bit integer atomics for the
/// fixed-point force scatter, and 64-bit floats for
/// [`Precision::F64`](crate::Precision::F64).
#[must_use]
pub fn wanted_features() -> wgpu::Features {
    wgpu::Features::SHADER_INT64
        | wgpu::Features::SHADER_INT64_ATOMIC_ALL_OPS
        | wgpu::Features::SHADER_F64
}

/// `name (backend, device type)`, as adapters are listed in logs and errors.
pub(crate) fn describe(info: &wgpu::AdapterInfo) -> String {
    format!("{} ({:?}, {:?})", info.name, info.backend, info.device_type)
}

/// One line about an adapter for a person or a results file: name, graphics backend, device
/// type and driver, e.g. `llvmpipe (LLVM 15.0.6, 256 bits) (Vulkan, Cpu), driver llvmpipe Mesa
/// 22.3.6`.
#[must_use]
pub fn adapter_summary(info: &wgpu::AdapterInfo) -> String {
    let driver = [info.driver.as_str(), info.driver_info.as_str()]
        .into_iter()
        .filter(|s| !s.is_empty())
        .collect::<Vec<_>>()
        .join(" ");
    let mut line = format!("{} ({:?}, {:?})", info.name, info.backend, info.device_type);
    if !driver.is_empty() {
        line += &format!(", driver {driver}");
    }
    line
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

/// Whether Mesa's Vulkan device-select layer would print `error: XDG_RUNTIME_DIR is invalid or
/// not set in the environment.` and learn nothing: no Wayland session to ask (no
/// `XDG_RUNTIME_DIR`, no `WAYLAND_SOCKET`, no absolute `WAYLAND_DISPLAY`), and the user has not
/// configured the layer (`NODEVICE_SELECT`, `MESA_VK_DEVICE_SELECT`). `var` reads the
/// environment.
#[must_use]
fn device_select_would_only_complain(var: impl Fn(&str) -> Option<String>) -> bool {
    let unset = |name: &str| var(name).is_none_or(|v| v.is_empty());
    unset("XDG_RUNTIME_DIR")
        && unset("WAYLAND_SOCKET")
        && var("WAYLAND_DISPLAY").is_none_or(|d| !d.starts_with('/'))
        && var("NODEVICE_SELECT").is_none()
        && var("MESA_VK_DEVICE_SELECT").is_none()
}

/// Mesa's Vulkan driver package installs an implicit layer (`VK_LAYER_MESA_device_select`)
/// that, when an instance enables Wayland surfaces (wgpu's always do), asks the Wayland
/// compositor which GPU drives the display. In a session without `XDG_RUNTIME_DIR` (a headless
/// box, ssh, CI) libwayland then prints `error: XDG_RUNTIME_DIR is invalid or not set in the
/// environment.` twice per instance, and the layer learns nothing. hooke ranks adapters
/// itself, so in exactly that case it turns the layer off for its own process with the layer's
/// documented switch, `NODEVICE_SELECT=1`, once, before its first Vulkan instance. The
/// environment is left alone when the user configured the layer or a Wayland session is there.
fn quiet_mesa_device_select() {
    static ONCE: std::sync::Once = std::sync::Once::new();
    ONCE.call_once(|| {
        if cfg!(target_os = "linux") && device_select_would_only_complain(|n| std::env::var(n).ok())
        {
            std::env::set_var("NODEVICE_SELECT", "1");
            log::debug!(
                "no XDG_RUNTIME_DIR: NODEVICE_SELECT=1 set, so Mesa's device-select layer does \
                 not ask for a Wayland display"
            );
        }
    });
}

/// `WGPU_ADAPTER_NAME`, if set.
fn wanted_name() -> Option<String> {
    std::env::var("WGPU_ADAPTER_NAME").ok()
}

/// The adapters of `backends` in `instance`, as tried (for the error), and the best of them
/// whose name contains `name` (case-insensitive) if given.
async fn best_of(
    instance: &wgpu::Instance,
    backends: wgpu::Backends,
    name: Option<&str>,
) -> (Tried, Option<wgpu::Adapter>) {
    let adapters = instance.enumerate_adapters(backends).await;
    let tried = Tried {
        backends,
        seen: adapters.iter().map(|a| describe(&a.get_info())).collect(),
    };
    let best = adapters
        .into_iter()
        .filter(|a| {
            name.is_none_or(|name| {
                a.get_info()
                    .name
                    .to_lowercase()
                    .contains(&name.to_lowercase())
            })
        })
        .min_by_key(|a| rank(&a.get_info()));
    (tried, best)
}

/// Logs the adapter chosen and what was seen (`info`).
fn log_choice(adapter: &wgpu::Adapter, tried: &[Tried]) {
    let seen: Vec<String> = tried.iter().flat_map(|t| t.seen.iter().cloned()).collect();
    log::info!(
        "adapter {} chosen; seen: {}",
        describe(&adapter.get_info()),
        seen.join(", ")
    );
}

/// Picks an adapter of `instance`: the backends named by `WGPU_BACKEND` (all the instance has by
/// default); among them the first whose name contains `WGPU_ADAPTER_NAME` (case-insensitive) if
/// that is set, otherwise the best by backend (Vulkan first) and device type (discrete GPU
/// first, CPU last). [`find_adapter`] makes its own instances and asks OpenGL only when no
/// primary backend answers; use this one to pick from an instance you already have.
///
/// # Errors
/// [`Error::NoAdapter`](crate::Error::NoAdapter), listing every adapter seen and how to get one,
/// when none qualifies.
pub async fn pick_adapter(instance: &wgpu::Instance) -> Result<wgpu::Adapter> {
    let backends = wgpu::Backends::from_env().unwrap_or(wgpu::Backends::all());
    let name = wanted_name();
    let (tried, best) = best_of(instance, backends, name.as_deref()).await;
    let tried = [tried];
    match best {
        Some(adapter) => {
            log_choice(&adapter, &tried);
            Ok(adapter)
        }
        None => Err(no_adapter(&tried, name.as_deref(), &backend_env())),
    }
}

/// `WGPU_BACKEND`, if set.
fn backend_env() -> Option<String> {
    std::env::var("WGPU_BACKEND").ok()
}

/// Finds an adapter without a window: the primary backends (Vulkan, Metal, DX12) first, OpenGL
/// only when none of them has an adapter, so that EGL is never probed on a machine with a
/// Vulkan driver. Within a tier, the adapter is chosen as [`pick_adapter`] chooses
/// (`WGPU_ADAPTER_NAME`, then Vulkan first and real GPUs before CPU ones). When `WGPU_BACKEND`
/// is set, only the backends it names are tried.
///
/// On Linux without `XDG_RUNTIME_DIR` (and with neither `NODEVICE_SELECT` nor
/// `MESA_VK_DEVICE_SELECT` set) it sets `NODEVICE_SELECT=1` in its own process first, so that
/// Mesa's Vulkan device-select layer does not print `XDG_RUNTIME_DIR is invalid or not set`
/// while trying to reach a Wayland display that is not there.
///
/// # Errors
/// [`Error::NoAdapter`](crate::Error::NoAdapter), saying what each backend offered and the
/// command that installs a driver on this kind of machine (or which environment variable
/// excluded the adapters seen).
pub async fn find_adapter() -> Result<wgpu::Adapter> {
    let tiers = search_tiers();
    let name = wanted_name();
    let mut tried = Vec::new();
    quiet_mesa_device_select();
    for backends in tiers {
        let mut desc = wgpu::InstanceDescriptor::new_without_display_handle_from_env();
        desc.backends = backends;
        let instance = wgpu::Instance::new(desc);
        let (seen, best) = best_of(&instance, backends, name.as_deref()).await;
        tried.push(seen);
        if let Some(adapter) = best {
            log_choice(&adapter, &tried);
            return Ok(adapter);
        }
    }
    Err(no_adapter(&tried, name.as_deref(), &backend_env()))
}

/// Whether `info` is a hardware GPU: any device type but [`wgpu::DeviceType::Cpu`], which is
/// what software rasterisers (Mesa's lavapipe and llvmpipe, WARP) report. On a CPU-only machine
/// the CPU reference ([`CpuWorld`](crate::CpuWorld)) runs hooke's models several times faster
/// than the GPU World on a software adapter, so [`BackendChoice::Auto`](crate::BackendChoice)
/// takes a GPU only when this holds.
#[must_use]
pub fn is_hardware(info: &wgpu::AdapterInfo) -> bool {
    is_hardware_type(info.device_type)
}

/// [`is_hardware`] of a device type.
fn is_hardware_type(device_type: wgpu::DeviceType) -> bool {
    device_type != wgpu::DeviceType::Cpu
}

/// The adapter [`find_adapter`] would pick, if it is a hardware GPU ([`is_hardware`]); otherwise
/// the best hardware adapter of the primary backends (Vulkan, Metal, DX12; those of
/// `WGPU_BACKEND` when it is set), and `None` when there is none (no adapter at
/// all, or only software ones such as lavapipe). The one place where "a real GPU is here" is
/// decided: [`BackendChoice::Auto`](crate::BackendChoice) asks it.
pub async fn hardware_adapter() -> Option<wgpu::Adapter> {
    let first = find_adapter().await.ok()?;
    if is_hardware(&first.get_info()) {
        return Some(first);
    }
    // An adapter named by WGPU_ADAPTER_NAME is the user's choice: no other is looked for.
    // OpenGL is asked only when WGPU_BACKEND names it: probing EGL on a headless machine only
    // prints errors, and a GPU with OpenGL but no Vulkan driver is rare.
    if wanted_name().is_none() {
        let backends = wgpu::Backends::from_env().unwrap_or(wgpu::Backends::PRIMARY);
        let mut desc = wgpu::InstanceDescriptor::new_without_display_handle_from_env();
        desc.backends = backends;
        let best = wgpu::Instance::new(desc)
            .enumerate_adapters(backends)
            .await
            .into_iter()
            .filter(|a| is_hardware(&a.get_info()))
            .min_by_key(|a| rank(&a.get_info()));
        if best.is_some() {
            return best;
        }
    }
    log::info!(
        "no hardware GPU: the adapter found is {}",
        describe(&first.get_info())
    );
    None
}

/// The backends [`find_adapter`] asks, tier by tier: those of `WGPU_BACKEND` when it is set,
/// else the primary ones (Vulkan, Metal, DX12) and then the secondary ones (OpenGL).
fn search_tiers() -> Vec<wgpu::Backends> {
    match wgpu::Backends::from_env() {
        Some(backends) => vec![backends],
        None => vec![wgpu::Backends::PRIMARY, wgpu::Backends::SECONDARY],
    }
}

/// Opens a device on `adapter` with the adapter's own limits (not wgpu's defaults, which cap a
/// storage buffer at 128 MiB and a shader stage at 8 storage buffers, fewer than the passes of
/// a step bind) and the features of [`wanted_features`] that it has.
///
/// # Errors
/// [`Error::RequestDevice`](crate::Error::RequestDevice) if the device cannot be opened.
pub async fn open_device(adapter: &wgpu::Adapter) -> Result<(wgpu::Device, wgpu::Queue)> {
    open_device_with_limits(adapter, adapter.limits()).await
}

/// Opens a device on `adapter` with `limits` (each at most the adapter's own,
/// `adapter.limits()`) and the features of [`wanted_features`] that it has: to check that a
/// scene runs within a smaller device's limits, e.g. WebGPU's defaults
/// (`wgpu::Limits::default()`) or OpenGL's 16 storage buffers per shader stage. A
/// [`World`](crate::World) built on the device plans within its limits: it falls back from the
/// fused steps and the stencil variant of the spring pass when they bind too many storage
/// buffers, shrinks its workgroups to what the device allows, and refuses with
/// [`Error::DeviceUnsupported`](crate::Error::DeviceUnsupported) or
/// [`Error::DeviceLimit`](crate::Error::DeviceLimit), naming the limit, when no path fits.
///
/// # Errors
/// [`Error::RequestDevice`](crate::Error::RequestDevice) if the device cannot be opened (a limit
/// above the adapter's among them).
pub async fn open_device_with_limits(
    adapter: &wgpu::Adapter,
    limits: wgpu::Limits,
) -> Result<(wgpu::Device, wgpu::Queue)> {
    let features = adapter.features() & wanted_features();
    let downlevel = adapter.get_downlevel_capabilities();
    log::debug!(
        "device on {}: features {features:?} (of {:?} wanted); max_buffer_size {} B, \
         max_storage_buffer_binding_size {} B, max_compute_workgroups_per_dimension {}, \
         max_storage_buffers_per_shader_stage {}, max_texture_dimension_2d {} px; \
         downlevel {:?}, shader model {:?}",
        describe(&adapter.get_info()),
        wanted_features(),
        limits.max_buffer_size,
        limits.max_storage_buffer_binding_size,
        limits.max_compute_workgroups_per_dimension,
        limits.max_storage_buffers_per_shader_stage,
        limits.max_texture_dimension_2d,
        downlevel.flags,
        downlevel.shader_model,
    );
    let desc = wgpu::DeviceDescriptor {
        label: Some("hooke::device"),
        required_features: features,
        required_limits: limits,
        ..Default::default()
    };
    Ok(adapter.request_device(&desc).await?)
}

/// Finds an adapter as [`find_adapter`] does and opens a device on it as [`open_device`] does:
/// what [`World::new`](crate::World::new) and [`Renderer::new`](crate::render::Renderer::new)
/// use. Call it once and share the device between Worlds with
/// [`World::with_device`](crate::World::with_device).
///
/// # Errors
/// [`Error::NoAdapter`](crate::Error::NoAdapter) (what was seen and how to install a driver) or
/// [`Error::RequestDevice`](crate::Error::RequestDevice).
pub fn request_device() -> Result<(wgpu::Device, wgpu::Queue)> {
    pollster::block_on(async {
        let adapter = find_adapter().await?;
        open_device(&adapter).await
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn env<'a>(vars: &'a [(&'a str, &'a str)]) -> impl Fn(&str) -> Option<String> + 'a {
        move |name| {
            vars.iter()
                .find(|(n, _)| *n == name)
                .map(|(_, v)| v.to_string())
        }
    }

    /// Software adapters (lavapipe and llvmpipe report `Cpu`) are not hardware; GPUs of every
    /// other kind are.
    #[test]
    fn a_software_adapter_is_not_hardware() {
        assert!(!is_hardware_type(wgpu::DeviceType::Cpu));
        for t in [
            wgpu::DeviceType::DiscreteGpu,
            wgpu::DeviceType::IntegratedGpu,
            wgpu::DeviceType::VirtualGpu,
            wgpu::DeviceType::Other,
        ] {
            assert!(is_hardware_type(t), "{t:?}");
        }
    }

    /// The layer is turned off only where its Wayland probe can only fail and the user has not
    /// configured it.
    #[test]
    fn device_select_is_quieted_only_in_headless_sessions() {
        assert!(device_select_would_only_complain(env(&[])));
        assert!(device_select_would_only_complain(env(&[
            ("XDG_RUNTIME_DIR", ""),
            ("DISPLAY", ":0"),
            ("WAYLAND_DISPLAY", "wayland-0"),
        ])));
        for vars in [
            &[("XDG_RUNTIME_DIR", "/run/user/1000")][..],
            &[("WAYLAND_DISPLAY", "/tmp/wayland-1")],
            &[("WAYLAND_SOCKET", "3")],
            &[("NODEVICE_SELECT", "0")],
            &[("MESA_VK_DEVICE_SELECT", "list")],
        ] {
            assert!(!device_select_would_only_complain(env(vars)), "{vars:?}");
        }
    }
}
