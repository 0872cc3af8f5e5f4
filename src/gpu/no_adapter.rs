//! What [`Error::NoAdapter`] says when no adapter qualifies: what each backend tried offered,
//! and the one thing that gets an adapter on this kind of machine (a package to install, or an
//! environment variable that excluded the adapters seen). The message is built by pure
//! functions of what was seen, the environment and the OS, unit-tested below.

use crate::error::Error;

/// One instance's worth of adapter search: the backends asked and the adapters they offered
/// (as `name (backend, device type)`).
#[derive(Clone, Debug)]
pub(super) struct Tried {
    pub(super) backends: wgpu::Backends,
    pub(super) seen: Vec<String>,
}

/// The error for a search that found nothing usable after `tried`, with `WGPU_ADAPTER_NAME` =
/// `name` and `WGPU_BACKEND` = `backend_env`, on this machine.
pub(super) fn no_adapter(
    tried: &[Tried],
    name: Option<&str>,
    backend_env: &Option<String>,
) -> Error {
    let os_release = std::fs::read_to_string("/etc/os-release").ok();
    let compiled = wgpu::Instance::enabled_backend_features();
    let tried: Vec<Tried> = tried
        .iter()
        .map(|t| Tried {
            backends: t.backends & compiled,
            seen: t.seen.clone(),
        })
        .collect();
    Error::NoAdapter {
        found: found(&tried, name, backend_env.as_deref()),
        advice: advice(
            &tried,
            name,
            backend_env.as_deref(),
            std::env::consts::OS,
            os_release.as_deref(),
        ),
    }
}

/// `Vulkan, GL`: the backends of `backends` by the names wgpu gives them.
fn backend_names(backends: wgpu::Backends) -> String {
    let names: Vec<&str> = [
        (wgpu::Backends::VULKAN, "Vulkan"),
        (wgpu::Backends::METAL, "Metal"),
        (wgpu::Backends::DX12, "DX12"),
        (wgpu::Backends::BROWSER_WEBGPU, "WebGPU"),
        (wgpu::Backends::GL, "GL"),
        (wgpu::Backends::NOOP, "noop"),
    ]
    .into_iter()
    .filter(|(b, _)| backends.contains(*b))
    .map(|(_, name)| name)
    .collect();
    if names.is_empty() {
        "no backend".to_string()
    } else {
        names.join(", ")
    }
}

/// What was seen, per backend tried: `Vulkan: no adapter; then GL: llvmpipe (Gl, Cpu)`.
#[must_use]
fn found(tried: &[Tried], name: Option<&str>, backend_env: Option<&str>) -> String {
    let mut parts: Vec<String> = tried
        .iter()
        .map(|t| {
            let seen = if t.seen.is_empty() {
                "no adapter".to_string()
            } else {
                t.seen.join(", ")
            };
            format!("{}: {seen}", backend_names(t.backends))
        })
        .collect();
    let mut text = parts.remove(0);
    for part in parts {
        text = format!("{text}; then {part}");
    }
    if let Some(env) = backend_env {
        text = format!("WGPU_BACKEND={env:?}, so only {text}");
    }
    if let Some(name) = name {
        if tried.iter().any(|t| !t.seen.is_empty()) {
            text = format!("{text}; none named like WGPU_ADAPTER_NAME={name:?}");
        }
    }
    text
}

/// The one thing to do: drop the environment variable that excluded the adapters seen, or
/// install a driver (`os` as in [`std::env::consts::OS`], `os_release` the text of
/// `/etc/os-release` on Linux).
#[must_use]
fn advice(
    tried: &[Tried],
    name: Option<&str>,
    backend_env: Option<&str>,
    os: &str,
    os_release: Option<&str>,
) -> String {
    let seen_any = tried.iter().any(|t| !t.seen.is_empty());
    match (name, backend_env) {
        (Some(_), _) if seen_any => {
            "unset WGPU_ADAPTER_NAME (or set it to part of one of the names seen)".to_string()
        }
        (_, Some(_)) => "unset WGPU_BACKEND, so that every backend is tried".to_string(),
        _ => install_advice(os, os_release),
    }
}

/// How to get a driver on `os` (and, on Linux, the distribution `os_release` describes).
#[must_use]
fn install_advice(os: &str, os_release: Option<&str>) -> String {
    match os {
        "linux" => {
            let command = linux_command(os_release.unwrap_or(""));
            match command {
                Some(command) => format!(
                    "install Mesa's Vulkan driver, which runs on the CPU (lavapipe) when there \
                     is no GPU: {command} (as root)"
                ),
                None => "install Mesa's Vulkan driver (lavapipe, which runs on the CPU when \
                         there is no GPU) and the Vulkan loader with the package manager \
                         (Debian and Ubuntu: apt-get install mesa-vulkan-drivers libvulkan1)"
                    .to_string(),
            }
        }
        "macos" | "ios" => "wgpu needs Metal: run on macOS 10.13 or later with a \
                            Metal-capable GPU"
            .to_string(),
        "windows" => "install or update the GPU driver (wgpu uses DX12 or Vulkan; DX12's \
                      WARP adapter runs on the CPU)"
            .to_string(),
        other => format!(
            "install a Vulkan driver for {other} (Mesa's lavapipe runs on the CPU when there \
             is no GPU)"
        ),
    }
}

/// The install command of the Linux distribution whose `/etc/os-release` is `os_release`
/// (matched by `ID` and `ID_LIKE`), if known.
#[must_use]
fn linux_command(os_release: &str) -> Option<&'static str> {
    let ids: Vec<String> = os_release
        .lines()
        .filter_map(|line| {
            let (key, value) = line.split_once('=')?;
            matches!(key.trim(), "ID" | "ID_LIKE").then(|| value.trim().trim_matches('"'))
        })
        .flat_map(|v| v.split_whitespace().map(str::to_lowercase))
        .collect();
    let is = |names: &[&str]| ids.iter().any(|id| names.contains(&id.as_str()));
    if is(&["debian", "ubuntu"]) {
        Some("apt-get install mesa-vulkan-drivers libvulkan1")
    } else if is(&["fedora", "rhel", "centos"]) {
        Some("dnf install mesa-vulkan-drivers vulkan-loader")
    } else if is(&["arch"]) {
        Some("pacman -S vulkan-swrast vulkan-icd-loader")
    } else if is(&["alpine"]) {
        Some("apk add mesa-vulkan-swrast vulkan-loader")
    } else {
        None
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const DEBIAN: &str =
        "PRETTY_NAME=\"Debian GNU/Linux 12 (bookworm)\"\nNAME=\"Debian GNU/Linux\"\n\
                          VERSION_ID=\"12\"\nID=debian\n";
    const MINT: &str = "NAME=\"Linux Mint\"\nID=linuxmint\nID_LIKE=\"ubuntu debian\"\n";
    const ROCKY: &str = "NAME=\"Rocky Linux\"\nID=\"rocky\"\nID_LIKE=\"rhel centos fedora\"\n";

    fn nothing_on(backends: &[wgpu::Backends]) -> Vec<Tried> {
        backends
            .iter()
            .map(|&backends| Tried {
                backends,
                seen: Vec::new(),
            })
            .collect()
    }

    fn message(
        tried: &[Tried],
        name: Option<&str>,
        env: Option<&str>,
        os: &str,
        rel: &str,
    ) -> String {
        Error::NoAdapter {
            found: found(tried, name, env),
            advice: advice(tried, name, env, os, Some(rel)),
        }
        .to_string()
    }

    /// A Debian box without any driver: both tiers are listed in the order tried, and the fix
    /// is the apt-get line.
    #[test]
    fn no_driver_on_debian_names_each_backend_tried_and_the_apt_command() {
        let tried = nothing_on(&[wgpu::Backends::VULKAN, wgpu::Backends::GL]);
        let text = message(&tried, None, None, "linux", DEBIAN);
        assert!(
            text.contains("Vulkan: no adapter; then GL: no adapter"),
            "{text}"
        );
        assert!(
            text.contains("apt-get install mesa-vulkan-drivers libvulkan1"),
            "{text}"
        );
    }

    /// Distributions are matched by `ID_LIKE` too; an unknown one gets the generic advice, which
    /// still names the Debian command as an example.
    #[test]
    fn the_install_command_follows_the_distribution() {
        assert_eq!(
            linux_command(MINT),
            Some("apt-get install mesa-vulkan-drivers libvulkan1")
        );
        assert_eq!(
            linux_command(ROCKY),
            Some("dnf install mesa-vulkan-drivers vulkan-loader")
        );
        assert_eq!(
            linux_command("ID=arch\n"),
            Some("pacman -S vulkan-swrast vulkan-icd-loader")
        );
        assert_eq!(linux_command("ID=gentoo\n"), None);
        assert!(install_advice("linux", Some("ID=gentoo\n")).contains("package manager"));
        assert!(install_advice("macos", None).contains("Metal"));
        assert!(install_advice("windows", None).contains("DX12"));
    }

    /// Adapters were there but `WGPU_ADAPTER_NAME` excluded them all: the message lists them and
    /// says to unset the variable, not to install a driver.
    #[test]
    fn an_adapter_name_matching_nothing_is_named_as_the_cause() {
        let tried = vec![Tried {
            backends: wgpu::Backends::VULKAN,
            seen: vec!["llvmpipe (LLVM 15.0.6, 256 bits) (Vulkan, Cpu)".to_string()],
        }];
        let text = message(&tried, Some("nvidia"), None, "linux", DEBIAN);
        assert!(
            text.contains("llvmpipe (LLVM 15.0.6, 256 bits) (Vulkan, Cpu)"),
            "{text}"
        );
        assert!(text.contains("WGPU_ADAPTER_NAME=\"nvidia\""), "{text}");
        assert!(text.contains("unset WGPU_ADAPTER_NAME"), "{text}");
        assert!(!text.contains("apt-get"), "{text}");
    }

    /// `WGPU_BACKEND` limited the search to a backend without adapters: the fix is to unset it.
    #[test]
    fn a_backend_override_with_no_adapter_is_named_as_the_cause() {
        let tried = nothing_on(&[wgpu::Backends::GL]);
        let text = message(&tried, None, Some("gl"), "linux", DEBIAN);
        assert!(
            text.contains("WGPU_BACKEND=\"gl\", so only GL: no adapter"),
            "{text}"
        );
        assert!(text.contains("unset WGPU_BACKEND"), "{text}");
        // A value wgpu does not know names no backend at all.
        let tried = nothing_on(&[wgpu::Backends::empty()]);
        let text = message(&tried, None, Some("vulcan"), "linux", DEBIAN);
        assert!(text.contains("no backend: no adapter"), "{text}");
    }
}
