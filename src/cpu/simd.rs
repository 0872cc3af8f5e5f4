//! Which SIMD instructions the CPU reference's walks are compiled for: [`SimdLevel`], detected
//! once per process, or forced with the environment variable `HOOKE_SIMD` (`scalar`, `avx2` or
//! `avx512`, read once, at the first step of any world). Every level gives the same bits: each
//! walk performs the scalar code's IEEE operations in the scalar code's order (Rust never fuses
//! a product and a sum), so the level changes only the speed; forcing one is how that is checked
//! (`tests/integration/hashes.rs` runs the scenes on every level the machine has and compares
//! their state hashes).

use std::fmt;
use std::str::FromStr;
use std::sync::OnceLock;

/// The environment variable that forces a [`SimdLevel`] (read once per process).
pub const SIMD_ENV: &str = "HOOKE_SIMD";

/// An instruction set the CPU reference's SIMD walks can run on.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum SimdLevel {
    /// No SIMD beyond the target's baseline (SSE2 on x86-64): the portable fallback.
    Scalar,
    /// x86-64-v3: AVX2, FMA, BMI1/2 (the walks use no FMA: products and sums stay separate).
    Avx2,
    /// x86-64-v4: AVX-512 F/BW/CD/DQ/VL on top of x86-64-v3; also the whole-register permutes
    /// and loads of the lanes walks.
    Avx512,
}

impl SimdLevel {
    /// Every level, lowest first.
    pub const ALL: [Self; 3] = [Self::Scalar, Self::Avx2, Self::Avx512];

    /// The name `HOOKE_SIMD` takes: `scalar`, `avx2` or `avx512`.
    #[must_use]
    pub fn name(self) -> &'static str {
        match self {
            Self::Scalar => "scalar",
            Self::Avx2 => "avx2",
            Self::Avx512 => "avx512",
        }
    }

    /// Whether this CPU has the level's instructions.
    #[must_use]
    pub fn is_available(self) -> bool {
        match self {
            Self::Scalar => true,
            #[cfg(target_arch = "x86_64")]
            Self::Avx2 => pulp::x86::V3::try_new().is_some(),
            #[cfg(target_arch = "x86_64")]
            Self::Avx512 => pulp::x86::V4::try_new().is_some(),
            #[cfg(not(target_arch = "x86_64"))]
            Self::Avx2 | Self::Avx512 => false,
        }
    }

    /// The levels this CPU has, lowest first.
    #[must_use]
    pub fn available() -> Vec<Self> {
        Self::ALL.into_iter().filter(|l| l.is_available()).collect()
    }

    /// The highest level this CPU has (what runs unless `HOOKE_SIMD` says otherwise).
    #[must_use]
    pub fn detected() -> Self {
        Self::available().into_iter().last().unwrap_or(Self::Scalar)
    }

    /// The level `HOOKE_SIMD` asks for (`None` when it is not set or empty), checked against
    /// this CPU.
    ///
    /// # Errors
    /// A message naming `HOOKE_SIMD` for a value that names no level, or a level this CPU does
    /// not have (and the levels it has).
    pub fn from_env() -> Result<Option<Self>, String> {
        let Some(text) = std::env::var_os(SIMD_ENV) else {
            return Ok(None);
        };
        let text = text.to_string_lossy();
        if text.trim().is_empty() {
            return Ok(None);
        }
        let bad = |reason: String| format!("{SIMD_ENV}={text}: {reason}");
        let level: Self = text.parse().map_err(bad)?;
        if !level.is_available() {
            let have: Vec<&str> = Self::available().iter().map(|l| l.name()).collect();
            return Err(bad(format!(
                "{} is not available on this CPU (it has: {})",
                level.name(),
                have.join(", ")
            )));
        }
        Ok(Some(level))
    }

    /// The level the walks run on in this process: `HOOKE_SIMD`'s when it is set and valid,
    /// else [`SimdLevel::detected`]. Read once; an invalid `HOOKE_SIMD` is logged
    /// (`log::error!`) and the detected level used (the `hooke` command refuses it instead).
    #[must_use]
    pub fn in_force() -> Self {
        static LEVEL: OnceLock<SimdLevel> = OnceLock::new();
        *LEVEL.get_or_init(|| match Self::from_env() {
            Ok(level) => level.unwrap_or_else(Self::detected),
            Err(e) => {
                log::error!("{e}; using {}", Self::detected());
                Self::detected()
            }
        })
    }
}

impl fmt::Display for SimdLevel {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl FromStr for SimdLevel {
    type Err = String;

    /// `scalar`, `avx2` or `avx512` (any case).
    fn from_str(s: &str) -> Result<Self, String> {
        let t = s.trim().to_ascii_lowercase();
        Self::ALL
            .into_iter()
            .find(|l| l.name() == t)
            .ok_or_else(|| format!("{s:?} is not a SIMD level (scalar, avx2 or avx512)"))
    }
}

/// The [`pulp::Arch`] of [`SimdLevel::in_force`]: every walk dispatches through this, never
/// through `pulp::Arch::new()` (a test checks).
#[must_use]
pub(super) fn arch() -> pulp::Arch {
    #[cfg(target_arch = "x86_64")]
    match SimdLevel::in_force() {
        SimdLevel::Scalar => pulp::Arch::Scalar,
        SimdLevel::Avx2 => pulp::x86::V3::try_new().map_or(pulp::Arch::Scalar, pulp::Arch::V3),
        SimdLevel::Avx512 => pulp::Arch::new(),
    }
    #[cfg(not(target_arch = "x86_64"))]
    pulp::Arch::new()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn levels_parse_from_their_names_and_nothing_else() {
        for l in SimdLevel::ALL {
            assert_eq!(l.name().parse::<SimdLevel>(), Ok(l));
            assert_eq!(l.name().to_uppercase().parse::<SimdLevel>(), Ok(l));
        }
        let e = "sse".parse::<SimdLevel>().unwrap_err();
        assert!(e.contains("scalar, avx2 or avx512"), "{e}");
    }

    #[test]
    fn scalar_is_always_available_and_detected_is_the_highest() {
        let have = SimdLevel::available();
        assert_eq!(have[0], SimdLevel::Scalar);
        assert_eq!(SimdLevel::detected(), *have.last().unwrap());
    }
}
