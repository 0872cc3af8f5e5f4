//! State hashes: a 128-bit fingerprint of the exact bits a world's next step starts from, for
//! the world and for each body, the same definition on both backends
//! ([`Simulation::state_hashes`](crate::Simulation::state_hashes)). Two runs whose hashes agree
//! at a step hold the same bits there; the first step whose hashes differ is where two runs
//! part. docs/DETERMINISM.md says which runs are promised the same bits and how to check it.
//!
//! # What is hashed, byte by byte
//!
//! The hash is XXH3-128 with seed 0 (xxHash 0.8, whose output its specification freezes) of
//! these bytes, every number in its little-endian bit pattern (so `-0.0` and `0.0` differ, and
//! a NaN hashes its payload):
//!
//! 1. the step count ([`Simulation::steps`](crate::Simulation::steps)), `u64`, 8 bytes;
//! 2. the time ([`Simulation::time`](crate::Simulation::time)), s, `f64`, 8 bytes;
//! 3. the positions ([`Simulation::positions`](crate::Simulation::positions)), m: `x, y, z` of
//!    each mass in model order, `f64`, 24 bytes per mass;
//! 4. the velocities ([`Simulation::velocities`](crate::Simulation::velocities)), m/s, the same
//!    way;
//! 5. the rest lengths ([`Simulation::rest_lengths`](crate::Simulation::rest_lengths)), m: one
//!    `f64` per spring in model order (muscles' and commanded actuators' at the current time
//!    with the commands in force).
//!
//! A **body's hash** is the same over the body's masses and springs only
//! ([`Body::masses`], [`Body::springs`] of
//! [`Simulation::bodies_of_model`](crate::Simulation::bodies_of_model)): steps, time, its
//! positions, its velocities, its rest lengths. A **mass's hash** ([`StateView::mass_hashes`])
//! is the low 32 bits of XXH3-64 (seed 0) of its position and velocity, `x, y, z, vx, vy, vz`,
//! 48 bytes: short, because it only names which mass of a differing body differs.
//!
//! On the GPU in f32 the positions and velocities are the device's f32 values widened to f64
//! (exact), so the layout is the same on every backend and precision. The hash is printed as 32
//! lowercase hexadecimal digits, most significant first: what Python's `xxhash` prints.
//!
//! ```python
//! import numpy as np, xxhash
//! def state_hash(world):  # a hooke.CpuWorld or hooke.World
//!     data = (np.uint64(world.steps).tobytes() + np.float64(world.time).tobytes()
//!             + np.asarray(world.positions(), dtype="<f8").tobytes()
//!             + np.asarray(world.velocities(), dtype="<f8").tobytes()
//!             + np.asarray(world.rest_lengths(), dtype="<f8").tobytes())
//!     return xxhash.xxh3_128(data).hexdigest()
//! ```
//!
//! # What is not hashed
//!
//! Everything else the next step reads is either the model or an input the caller sets
//! between steps: masses, springs' laws and stiffnesses, actuators' parameters, external forces,
//! fixed flags and the drag spring. A replay that makes the same calls gives them the same
//! values, and a difference in any of them shows in the positions one step later. No contact
//! or friction state persists between steps (friction is decided from each step's own
//! velocities). The energy books (dissipated, injected) are tallies the step never reads:
//! switching them off changes no position bit, so they are left out.

use std::fmt;
use std::str::FromStr;

use glam::DVec3;
use xxhash_rust::xxh3::{xxh3_64, Xxh3Default};

use crate::model::Body;

/// A 128-bit state hash (see the [module docs](self) for what it covers). Prints as 32
/// lowercase hexadecimal digits, most significant first, and parses back from them.
///
/// ```
/// use hooke::StateHash;
///
/// let h: StateHash = "99aa06d3014798d86001c324468d497f".parse()?;
/// assert_eq!(h.to_string(), "99aa06d3014798d86001c324468d497f");
/// # Ok::<(), String>(())
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct StateHash(pub u128);

impl fmt::Display for StateHash {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{:032x}", self.0)
    }
}

impl FromStr for StateHash {
    type Err = String;

    /// Parses 32 hexadecimal digits.
    fn from_str(s: &str) -> Result<Self, String> {
        if s.len() != 32 || !s.bytes().all(|b| b.is_ascii_hexdigit()) {
            return Err(format!("{s:?} is not a state hash (32 hexadecimal digits)"));
        }
        u128::from_str_radix(s, 16)
            .map(Self)
            .map_err(|e| format!("{s:?}: {e}"))
    }
}

/// The hashes of one state: the world's and each body's
/// ([`Simulation::state_hashes`](crate::Simulation::state_hashes)).
#[derive(Clone, Debug, PartialEq)]
pub struct StateHashes {
    /// The step count the state is at.
    pub steps: u64,
    /// The time the state is at, s.
    pub time: f64,
    /// The whole world's hash.
    pub world: StateHash,
    /// Each body's hash, in the order of
    /// [`Simulation::bodies_of_model`](crate::Simulation::bodies_of_model).
    pub bodies: Vec<StateHash>,
}

/// The state a hash is taken of, borrowed: what the [module docs](self) list, in model order.
#[derive(Clone, Copy, Debug)]
pub struct StateView<'a> {
    /// Steps taken since the start or the last reset.
    pub steps: u64,
    /// Simulated time, s.
    pub time: f64,
    /// Position of every mass, m.
    pub positions: &'a [DVec3],
    /// Velocity of every mass, m/s.
    pub velocities: &'a [DVec3],
    /// Rest length of every spring, m.
    pub rest_lengths: &'a [f64],
}

impl StateView<'_> {
    /// The whole world's hash.
    #[must_use]
    pub fn hash(&self) -> StateHash {
        self.hash_of(0..self.positions.len(), 0..self.rest_lengths.len())
    }

    /// The hash of `body` (its masses and springs only). Indices past the state's ends are left
    /// out (a body of another model).
    #[must_use]
    pub fn body_hash(&self, body: &Body) -> StateHash {
        self.hash_of(body.masses.clone(), body.springs.clone())
    }

    /// The world's hash and each of `bodies`' hashes.
    #[must_use]
    pub fn hashes(&self, bodies: &[Body]) -> StateHashes {
        StateHashes {
            steps: self.steps,
            time: self.time,
            world: self.hash(),
            bodies: bodies.iter().map(|b| self.body_hash(b)).collect(),
        }
    }

    /// Each mass's hash: the low 32 bits of XXH3-64 of its position and velocity (48 bytes,
    /// see the [module docs](self)).
    #[must_use]
    pub fn mass_hashes(&self) -> Vec<u32> {
        let mut bytes = Vec::with_capacity(48);
        self.positions
            .iter()
            .zip(self.velocities)
            .map(|(p, v)| {
                bytes.clear();
                extend_vec3s(&mut bytes, &[*p, *v]);
                xxh3_64(&bytes) as u32
            })
            .collect()
    }

    fn hash_of(
        &self,
        masses: std::ops::Range<usize>,
        springs: std::ops::Range<usize>,
    ) -> StateHash {
        let clip = |r: std::ops::Range<usize>, len: usize| r.start.min(len)..r.end.min(len);
        let masses = clip(masses, self.positions.len().min(self.velocities.len()));
        let springs = clip(springs, self.rest_lengths.len());
        let mut h = Xxh3Default::new();
        h.update(&self.steps.to_le_bytes());
        h.update(&self.time.to_le_bytes());
        let mut bytes = Vec::new();
        extend_vec3s(&mut bytes, &self.positions[masses.clone()]);
        extend_vec3s(&mut bytes, &self.velocities[masses]);
        for r in &self.rest_lengths[springs] {
            bytes.extend_from_slice(&r.to_le_bytes());
        }
        h.update(&bytes);
        StateHash(h.digest128())
    }
}

/// Appends `x, y, z` of each vector as little-endian f64s.
fn extend_vec3s(bytes: &mut Vec<u8>, v: &[DVec3]) {
    bytes.reserve(24 * v.len());
    for p in v {
        for c in p.to_array() {
            bytes.extend_from_slice(&c.to_le_bytes());
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// XXH3-128 of no bytes, from the xxHash specification's test vectors: pins the hash
    /// function and the printed digit order.
    #[test]
    fn printed_hash_is_xxh3_128_most_significant_digit_first() {
        let h = StateHash(xxhash_rust::xxh3::xxh3_128(b""));
        assert_eq!(h.to_string(), "99aa06d3014798d86001c324468d497f");
        assert_eq!(h.to_string().parse::<StateHash>(), Ok(h));
        assert!("99aa".parse::<StateHash>().is_err());
        assert!("z9aa06d3014798d86001c324468d497f"
            .parse::<StateHash>()
            .is_err());
    }

    fn view<'a>(pos: &'a [DVec3], vel: &'a [DVec3], rest: &'a [f64]) -> StateView<'a> {
        StateView {
            steps: 7,
            time: 7e-4,
            positions: pos,
            velocities: vel,
            rest_lengths: rest,
        }
    }

    #[test]
    fn hash_is_of_the_documented_bytes() {
        let pos = [DVec3::new(1.0, -0.0, 2.5), DVec3::new(3.0, 4.0, 5.0)];
        let vel = [DVec3::new(0.1, 0.2, 0.3), DVec3::new(-1.0, 0.0, 1e-300)];
        let rest = [0.5];
        let mut bytes = Vec::new();
        bytes.extend_from_slice(&7u64.to_le_bytes());
        bytes.extend_from_slice(&7e-4f64.to_le_bytes());
        for x in [
            1.0, -0.0, 2.5, 3.0, 4.0, 5.0, 0.1, 0.2, 0.3, -1.0, 0.0, 1e-300, 0.5,
        ] {
            bytes.extend_from_slice(&f64::to_le_bytes(x));
        }
        let v = view(&pos, &vel, &rest);
        assert_eq!(v.hash().0, xxhash_rust::xxh3::xxh3_128(&bytes));
        // A body of the second mass alone and no spring.
        let body = Body {
            name: "b".into(),
            masses: 1..2,
            springs: 1..1,
            self_collision: true,
        };
        let mut one = Vec::new();
        one.extend_from_slice(&7u64.to_le_bytes());
        one.extend_from_slice(&7e-4f64.to_le_bytes());
        for x in [3.0, 4.0, 5.0, -1.0, 0.0, 1e-300] {
            one.extend_from_slice(&f64::to_le_bytes(x));
        }
        assert_eq!(v.body_hash(&body).0, xxhash_rust::xxh3::xxh3_128(&one));
        let masses = v.mass_hashes();
        assert_eq!(masses[1], xxhash_rust::xxh3::xxh3_64(&one[16..]) as u32);
    }

    #[test]
    fn one_bit_of_one_value_changes_the_hash() {
        let pos = [DVec3::new(1.0, 0.0, 2.5)];
        let vel = [DVec3::ZERO];
        let a = view(&pos, &vel, &[]).hash();
        // 0.0 and -0.0 compare equal but are different bits.
        let vel2 = [DVec3::new(0.0, -0.0, 0.0)];
        assert_ne!(view(&pos, &vel2, &[]).hash(), a);
        let pos2 = [DVec3::new(f64::from_bits(1.0f64.to_bits() + 1), 0.0, 2.5)];
        assert_ne!(view(&pos2, &vel, &[]).hash(), a);
    }
}
