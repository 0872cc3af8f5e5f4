//! Numerics: the stable time step estimate, blow-up errors on both backends, the `Params`
//! presets, values the GPU's f32 cannot hold, and the benchmark scene's friction rule. One test
//! binary, one file per topic.

use crate::common;

mod blow_up;
mod f32_range;
mod naive_friction;
mod presets;
mod stable_dt;
