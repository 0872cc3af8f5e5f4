//! The World's real type on the host side. The host builds every device record once, in f64
//! (the `real64` mirrors of [`layout`](super::layout)); [`Precision`] encodes records for the
//! kernels' precision when they are uploaded (narrowing each real field to f32 in
//! [`Precision::F32`], as they are in [`Precision::F64`]) and decodes what is read back to f64.
//! Buffer sizes and field offsets come from the same place, so no upload, readback or partial
//! write can assume one precision while the kernels run in the other.

use bytemuck::Pod;

/// The real type the World's kernels compute in ([`WorldOptions::precision`](crate::WorldOptions::precision)).
///
/// Positions (m), velocities (m/s) and forces (N) are read and written as f64 by the API in
/// both; the precision is what the device computes and stores them in.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum Precision {
    /// 32-bit floats: works on every adapter; about 1e-4 m from the f64 CPU reference
    /// ([`crate::CpuWorld`]) on the parity scenes after 0.5 s.
    #[default]
    F32,
    /// 64-bit floats, the CPU reference's precision. Needs `wgpu::Features::SHADER_F64` and the
    /// 64-bit integer atomics `SHADER_INT64 | SHADER_INT64_ATOMIC_ALL_OPS` (the fixed-point sums
    /// of f64 forces need 64 bits; [`AtomicWidth::Bits32`](crate::AtomicWidth::Bits32) is then an error). Lavapipe and most
    /// Vulkan desktop GPUs have them; Metal and the OpenGL backend do not: building a World
    /// then fails with [`Error::Gpu`](crate::Error::Gpu) naming the missing feature and the
    /// adapter. Costs twice the device memory per mass and per spring and, on GPUs, the
    /// adapter's f64 rate (1/2 to 1/64 of f32).
    ///
    /// The same kernel source runs in both (`alias Real`); the host builds every record in f64
    /// and uploads it as it is, the fixed-point quantum is about `F / 2^48`
    /// ([`fixed`](crate::gpu::fixed)), and the heightfield samples are f64 too. On the parity
    /// scenes the World then stays within about 1e-13 m of [`crate::CpuWorld`] (the Lipson cube
    /// over 0.5 s: 3e-14 m, against 3e-6 m in f32; `tests/integration/gpu_f64.rs`), and reruns are
    /// bit-identical. [`World::position_buffer`](super::World::position_buffer) then holds
    /// `vec4<f64>`, and no value is checked against f32's range.
    F64,
}

/// A device record built in f64 that has an f32 twin of the same fields.
pub(crate) trait Narrow: Pod {
    /// The f32 twin.
    type F32: Pod;
    /// The twin, every real field rounded to the nearest f32.
    fn narrow(&self) -> Self::F32;
    /// The record of an f32 twin (exact).
    fn widen(narrow: &Self::F32) -> Self;
}

/// One field of a record converted between its f64 and f32 twins (reals rounded to nearest or
/// widened exactly; integers copied; the f64 alignment padding, `[u32; 0]` in f32, dropped or
/// zeroed).
pub(crate) trait Cast<T> {
    fn cast(&self) -> T;
}

impl Cast<f32> for f64 {
    fn cast(&self) -> f32 {
        *self as f32
    }
}

impl Cast<f64> for f32 {
    fn cast(&self) -> f64 {
        f64::from(*self)
    }
}

impl<const N: usize> Cast<[f32; N]> for [f64; N] {
    fn cast(&self) -> [f32; N] {
        self.map(|x| x as f32)
    }
}

impl<const N: usize> Cast<[f64; N]> for [f32; N] {
    fn cast(&self) -> [f64; N] {
        self.map(f64::from)
    }
}

impl Cast<u32> for u32 {
    fn cast(&self) -> u32 {
        *self
    }
}

/// Integer arrays: the words both twins have are copied, the rest zeroed (the f64 alignment
/// padding is `[u32; n]` in f64 and `[u32; 0]` in f32).
impl<const N: usize, const M: usize> Cast<[u32; M]> for [u32; N] {
    fn cast(&self) -> [u32; M] {
        std::array::from_fn(|i| self.get(i).copied().unwrap_or(0))
    }
}

impl Narrow for f64 {
    type F32 = f32;
    fn narrow(&self) -> f32 {
        *self as f32
    }
    fn widen(narrow: &f32) -> Self {
        f64::from(*narrow)
    }
}

impl<const N: usize> Narrow for [f64; N]
where
    [f64; N]: Pod,
    [f32; N]: Pod,
{
    type F32 = [f32; N];
    fn narrow(&self) -> [f32; N] {
        self.cast()
    }
    fn widen(narrow: &[f32; N]) -> Self {
        narrow.cast()
    }
}

impl Precision {
    /// Bytes of one real (4 or 8).
    #[must_use]
    pub(crate) const fn real_bytes(self) -> u64 {
        match self {
            Precision::F32 => 4,
            Precision::F64 => 8,
        }
    }

    /// Bytes of `count` records `T` in a device array of this precision.
    #[must_use]
    pub(crate) fn bytes<T: Narrow>(self, count: u64) -> u64 {
        count
            * match self {
                Precision::F32 => std::mem::size_of::<T::F32>(),
                Precision::F64 => std::mem::size_of::<T>(),
            } as u64
    }

    /// `items` as the device's bytes in this precision.
    #[must_use]
    pub(crate) fn encode<T: Narrow>(self, items: &[T]) -> Vec<u8> {
        match self {
            Precision::F32 => {
                let narrow: Vec<T::F32> = items.iter().map(Narrow::narrow).collect();
                bytemuck::cast_slice(&narrow).to_vec()
            }
            Precision::F64 => bytemuck::cast_slice(items).to_vec(),
        }
    }

    /// One record as the device's bytes in this precision.
    #[must_use]
    pub(crate) fn encode_one<T: Narrow>(self, item: &T) -> Vec<u8> {
        self.encode(std::slice::from_ref(item))
    }

    /// The records of device bytes in this precision (a whole number of records).
    #[must_use]
    pub(crate) fn decode<T: Narrow>(self, bytes: &[u8]) -> Vec<T> {
        match self {
            Precision::F32 => bytemuck::pod_collect_to_vec::<u8, T::F32>(bytes)
                .iter()
                .map(T::widen)
                .collect(),
            Precision::F64 => bytemuck::pod_collect_to_vec(bytes),
        }
    }

    /// `x` as the device holds it: rounded to the nearest f32 in [`Precision::F32`], itself in
    /// [`Precision::F64`].
    #[must_use]
    pub(crate) fn round(self, x: f64) -> f64 {
        match self {
            Precision::F32 => f64::from(x as f32),
            Precision::F64 => x,
        }
    }

    /// A WGSL literal of the real `x` as the device holds it (`Real(…f)` or `…lf`), exact.
    #[must_use]
    pub(crate) fn wgsl_literal(self, x: f64) -> String {
        match self {
            Precision::F32 => format!("Real({:?}f)", x as f32),
            Precision::F64 => format!("{x:?}lf"),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn wgsl_literals_are_exact() {
        assert_eq!(Precision::F32.wgsl_literal(0.1), "Real(0.1f)");
        assert_eq!(Precision::F64.wgsl_literal(0.1), "0.1lf");
        assert_eq!(Precision::F64.wgsl_literal(1e5), "100000.0lf");
    }
}
