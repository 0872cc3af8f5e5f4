//! The mass pass eight masses at a time: `integrate_mass` (with `ground` and `friction`) in
//! SIMD lanes, bit for bit, for blocks of masses that need none of its rarer parts.
//!
//! A block of [`LANES`] consecutive masses runs here when the model has no obstacles and no
//! collision forces, none of the block's masses is fixed and none is the drag spring's. Every
//! branch of `integrate_mass` becomes a select: each lane computes what its mass would (the
//! ground contact of the model's contact law, the friction rule's cases, each mass's friction
//! oscillator) and keeps what the scalar code keeps, performing the same IEEE operations in the
//! same order (no fused multiply-add: Rust never contracts; the same `f64::max`; a sum that the
//! scalar code skips is selected away, not added as zero). The speed limit's cheap test runs in
//! lanes and a lane over it asks `SpeedLimit::over` itself. The energies are booked mass by mass
//! in mass order, as `integrate_range` books them. So a block gives exactly the scalar pass's
//! positions, velocities, contacts and energy totals (tests below); [`pulp::Arch`] compiles it
//! for AVX2 or AVX-512 where the CPU has it.

use glam::DVec3;

use super::lanes::Wide;
use super::mass_pass::{MassOutcome, MassPass};
use crate::model::{Contact, FrictionRule, Integrator};
use crate::sensors::ContactReading;

/// Masses per block: one per f64 lane of an AVX-512 register.
pub(super) const LANES: usize = 8;

/// Models of more masses keep the scalar pass: its state then streams from memory, and the
/// lanes' strided loads (gathers) lost 5-25 % on the n = 120 lattice (1.7 M masses) while they
/// gained on the n = 60 lattice (216 000) and the inchworm herd (10 000) (docs/PERFORMANCE.md).
pub(super) const MASS_LANES_MAX_MASSES: usize = 1 << 18;

/// One f64 per lane.
type L = [f64; LANES];

/// A vector per lane.
#[derive(Clone, Copy)]
struct V {
    x: L,
    y: L,
    z: L,
}

/// `f(l)` for every lane.
#[inline(always)]
fn lanes(f: impl Fn(usize) -> f64) -> L {
    std::array::from_fn(f)
}

impl V {
    /// The first [`LANES`] vectors of `v`, one per lane: with AVX-512 (`wide`), three
    /// whole-vector loads split by component with two-source permutes ([`split_avx512`]); the
    /// per-lane reads otherwise (which the compiler makes gathers: ~40 % of the pass). The same
    /// values either way.
    #[inline(always)]
    fn load(v: &[DVec3], wide: Wide) -> Self {
        let v = &v[..LANES];
        #[cfg(target_arch = "x86_64")]
        if let Some(simd) = wide {
            let [x, y, z] = split_avx512(simd, v);
            return Self { x, y, z };
        }
        let _ = wide;
        Self {
            x: lanes(|l| v[l].x),
            y: lanes(|l| v[l].y),
            z: lanes(|l| v[l].z),
        }
    }

    /// `f` applied to each component of each lane (with the component's index).
    #[inline(always)]
    fn map(f: impl Fn(usize, usize) -> f64) -> Self {
        Self {
            x: lanes(|l| f(0, l)),
            y: lanes(|l| f(1, l)),
            z: lanes(|l| f(2, l)),
        }
    }

    #[inline(always)]
    fn c(&self, c: usize) -> &L {
        match c {
            0 => &self.x,
            1 => &self.y,
            _ => &self.z,
        }
    }

    /// `self + o`, as glam adds vectors.
    #[inline(always)]
    fn add(&self, o: &Self) -> Self {
        Self::map(|c, l| self.c(c)[l] + o.c(c)[l])
    }

    /// `(x o.x + y o.y) + z o.z`, as glam's `dot`.
    #[inline(always)]
    fn dot(&self, o: &Self) -> L {
        lanes(|l| (self.x[l] * o.x[l] + self.y[l] * o.y[l]) + self.z[l] * o.z[l])
    }

    /// Whether every component is finite, per lane.
    #[inline(always)]
    fn finite(&self) -> [bool; LANES] {
        std::array::from_fn(|l| {
            self.x[l].is_finite() && self.y[l].is_finite() && self.z[l].is_finite()
        })
    }
}

/// Eight `DVec3`s (x0 y0 z0 x1 ... z7) split into their x, y and z lanes: three 512-bit loads,
/// and per component two two-source permutes (the first picks the component's lanes from the
/// first two loads, the second the last two or three from the third).
#[cfg(target_arch = "x86_64")]
#[inline(always)]
fn split_avx512(simd: pulp::x86::V4, v: &[DVec3]) -> [L; 3] {
    use std::arch::x86_64::{__m512d, __m512i};
    let a: &[f64] = bytemuck::cast_slice(v);
    let part = |k: usize| -> __m512d {
        let run: L = a[k * LANES..(k + 1) * LANES]
            .try_into()
            .expect("LANES reals");
        bytemuck::cast(run)
    };
    let (a0, a1, a2) = (part(0), part(1), part(2));
    let f = simd.avx512f;
    // Index i < 8 takes lane i of the first source, 8 + i lane i of the second.
    let pick = |lo: [i64; 8], hi: [i64; 8]| -> L {
        let first = f._mm512_permutex2var_pd(a0, bytemuck::cast::<_, __m512i>(lo), a1);
        bytemuck::cast(f._mm512_permutex2var_pd(first, bytemuck::cast::<_, __m512i>(hi), a2))
    };
    [
        pick([0, 3, 6, 9, 12, 15, 0, 0], [0, 1, 2, 3, 4, 5, 10, 13]),
        pick([1, 4, 7, 10, 13, 0, 0, 0], [0, 1, 2, 3, 4, 8, 11, 14]),
        pick([2, 5, 8, 11, 14, 0, 0, 0], [0, 1, 2, 3, 4, 9, 12, 15]),
    ]
}

/// What the ground gives each lane (`Ground`, and the normal force friction saw).
struct GroundLanes {
    conservative_z: L,
    dissipative: V,
    normal_z: L,
    touching: [bool; LANES],
}

/// The block's inputs that `integrate_mass` reads per mass.
struct Inputs {
    m: L,
    x0: V,
    v0: V,
    applied: V,
    conservative: V,
    drag: V,
    mu_s: L,
    mu_k: L,
}

/// Integrates masses `i0..i0 + LANES` (`pos`, `vel` and `force` their slices) into `out`
/// and their contact readings into `contacts` (empty: not recorded); see the module docs for
/// when a block may. The caller has checked [`MassPass::lanes_serve`].
#[inline(always)]
pub(super) fn integrate_block(
    pass: &MassPass<'_>,
    i0: usize,
    pos: &mut [DVec3],
    vel: &mut [DVec3],
    force: &[DVec3],
    contacts: &mut [ContactReading],
    out: &mut MassOutcome,
) {
    let p = pass.params;
    let dt = p.dt;
    let inputs = inputs(pass, i0, pos, vel, force);
    let Inputs {
        m, x0, v0, applied, ..
    } = inputs;
    let g = ground(pass, &inputs);
    let dissipative = g.dissipative;
    let total = V::map(|c, l| {
        let conservative = inputs.conservative.c(c)[l];
        let ground = if c == 2 { g.conservative_z[l] } else { 0.0 };
        (conservative + ground) + dissipative.c(c)[l]
    });
    let v_pre = V::map(|c, l| v0.c(c)[l] + total.c(c)[l] / m[l] * dt);
    let v_new = V::map(|c, l| v_pre.c(c)[l] * pass.damping_factor);
    let x_new = match p.integrator {
        Integrator::SemiImplicitEuler => V::map(|c, l| x0.c(c)[l] + v_new.c(c)[l] * dt),
        Integrator::ExplicitEuler => V::map(|c, l| x0.c(c)[l] + v0.c(c)[l] * dt),
    };
    let work = V::map(|c, l| 0.5 * (v0.c(c)[l] + v_pre.c(c)[l]) * dt);
    let (finite_x, finite_v) = (x_new.finite(), v_new.finite());
    let (dissipative_work, injected) = (dissipative.dot(&work), applied.dot(&work));
    let (pre2, new2) = (v_pre.dot(&v_pre), v_new.dot(&v_new));
    let t = pass.time + dt;
    let base = pass.limit.floor_speed(t);
    for l in 0..LANES {
        let i = i0 + l;
        pos[l] = DVec3::new(x_new.x[l], x_new.y[l], x_new.z[l]);
        vel[l] = DVec3::new(v_new.x[l], v_new.y[l], v_new.z[l]);
        if pass.book_energy {
            out.dissipated -= dissipative_work[l];
            out.dissipated += 0.5 * m[l] * (pre2[l] - new2[l]);
            out.injected += injected[l];
        }
        // The speed limit's cheap test first, as `SpeedLimit::over` (which decides the rest).
        let over = new2[l] > base * base && pass.limit.over(m[l], t, vel[l]);
        if (!(finite_x[l] && finite_v[l]) || over) && out.first_bad.is_none() {
            out.first_bad = Some(i);
        }
        if let Some(c) = contacts.get_mut(l) {
            *c = ContactReading {
                touching: g.touching[l],
                normal_force: DVec3::new(0.0, 0.0, g.normal_z[l]),
            };
        }
    }
}

/// The block's masses, states and the forces `integrate_mass` sums before the ground.
#[inline(always)]
fn inputs(pass: &MassPass<'_>, i0: usize, pos: &[DVec3], vel: &[DVec3], f: &[DVec3]) -> Inputs {
    let (p, wide) = (pass.params, pass.wide);
    let m = lanes(|l| pass.mass[i0 + l]);
    let (x0, v0, sf) = (V::load(pos, wide), V::load(vel, wide), V::load(f, wide));
    let applied = V::load(&pass.external[i0..i0 + LANES], wide);
    let gravity = p.gravity.to_array();
    let conservative = V::map(|c, l| (sf.c(c)[l] + m[l] * gravity[c]) + applied.c(c)[l]);
    let air = -p.air_drag;
    let drag = V::map(|c, l| air * v0.c(c)[l]);
    let fr = &p.friction;
    let mu: [Option<f64>; LANES] = std::array::from_fn(|l| pass.oscillators.coefficient(i0 + l));
    let mu_s = lanes(|l| mu[l].unwrap_or(fr.static_coefficient));
    let mu_k = lanes(|l| mu[l].unwrap_or(fr.kinetic_coefficient));
    Inputs {
        m,
        x0,
        v0,
        applied,
        conservative,
        drag,
        mu_s,
        mu_k,
    }
}

/// `MassPass::ground` in lanes: the contact law's normal force, then friction where it touches.
///
/// Conditions are compared where they select (a compare into a mask register each time, which
/// is cheaper than an array of `bool`s converted back).
#[inline(always)]
fn ground(pass: &MassPass<'_>, b: &Inputs) -> GroundLanes {
    let p = pass.params;
    let dt = p.dt;
    let (x, v, m) = (&b.x0, &b.v0, &b.m);
    let f = b.conservative.add(&b.drag);
    let mut g = GroundLanes {
        conservative_z: [0.0; LANES],
        dissipative: b.drag,
        normal_z: [0.0; LANES],
        touching: [false; LANES],
    };
    // Not `z >= 0` (penalty) or `z > 0` (restitution): a NaN height touches, as in the scalar
    // code.
    let touches = |l: usize| match p.contact {
        Contact::None => false,
        Contact::Penalty { .. } => x.z[l] < 0.0 || x.z[l].is_nan(),
        Contact::Restitution { .. } => x.z[l] <= 0.0 || x.z[l].is_nan(),
    };
    g.touching = std::array::from_fn(touches);
    if !g.touching.contains(&true) {
        // Nothing touches: every select below would keep its lane as it is.
        return g;
    }
    let dz = g.dissipative.z;
    let normal: L = match p.contact {
        Contact::None => return g,
        Contact::Penalty { stiffness, damping } => {
            let spring = lanes(|l| -stiffness * x.z[l]);
            let n = lanes(|l| (spring[l] - damping * v.z[l]).max(0.0));
            g.conservative_z = lanes(|l| if touches(l) { 0.0 + spring[l] } else { 0.0 });
            g.dissipative.z = lanes(|l| {
                let touched = dz[l] + (n[l] - spring[l]);
                if touches(l) {
                    touched
                } else {
                    dz[l]
                }
            });
            g.normal_z = lanes(|l| if touches(l) { n[l] } else { 0.0 });
            n
        }
        Contact::Restitution { restitution } => {
            let n = lanes(|l| (-f.z[l]).max(0.0));
            let impulse = lanes(|l| {
                let hit = -m[l] * (1.0 + restitution) * v.z[l] / dt;
                if v.z[l] < 0.0 {
                    hit
                } else {
                    0.0
                }
            });
            g.dissipative.z = lanes(|l| {
                let touched = dz[l] + (n[l] + impulse[l]);
                if touches(l) {
                    touched
                } else {
                    dz[l]
                }
            });
            g.normal_z = lanes(|l| if touches(l) { n[l] + impulse[l] } else { 0.0 });
            n
        }
    };
    let fr = friction(pass, b, &normal, &f);
    let d = g.dissipative;
    g.dissipative = V::map(|c, l| {
        let touched = d.c(c)[l] + fr.c(c)[l];
        if touches(l) {
            touched
        } else {
            d.c(c)[l]
        }
    });
    g
}

/// `friction` in lanes for the ground (normal `+z`): tangential velocity and force are the x
/// and y components, z being 0.
#[inline(always)]
fn friction(pass: &MassPass<'_>, b: &Inputs, normal: &L, f: &V) -> V {
    let p = pass.params;
    let (dt, rule, rest_speed) = (p.dt, p.friction.rule, p.friction.rest_speed);
    let (m, v) = (&b.m, &b.v0);
    let vt = V::map(|c, l| if c == 2 { 0.0 } else { v.c(c)[l] });
    let ft = V::map(|c, l| if c == 2 { 0.0 } else { f.c(c)[l] });
    let f_stop = V::map(|c, l| -(m[l] * vt.c(c)[l] / dt + ft.c(c)[l]));
    let (stop2, speed2) = (f_stop.dot(&f_stop), vt.dot(&vt));
    let stop = lanes(|l| stop2[l].sqrt());
    let speed = lanes(|l| speed2[l].sqrt());
    let mu_k_n = lanes(|l| b.mu_k[l] * normal[l]);
    let kinetic = V::map(|c, l| -mu_k_n[l] * vt.c(c)[l] / speed[l]);
    if rule == FrictionRule::Naive {
        return V::map(|c, l| {
            if speed[l] > rest_speed {
                kinetic.c(c)[l]
            } else {
                0.0
            }
        });
    }
    V::map(|c, l| {
        let (stopped, slides) = (f_stop.c(c)[l], kinetic.c(c)[l]);
        let capped = mu_k_n[l] * f_stop.c(c)[l] / stop[l];
        let moving = if stop[l] <= mu_k_n[l] {
            stopped
        } else {
            slides
        };
        let resting = if stop[l] <= b.mu_s[l] * normal[l] {
            stopped
        } else {
            capped
        };
        if speed[l] > rest_speed {
            moving
        } else {
            resting
        }
    })
}

#[cfg(test)]
mod tests {
    use glam::DVec3;

    /// Loading eight vectors into lanes gives the same bits with the AVX-512 permutes as lane
    /// by lane (on a CPU without AVX-512 only the latter exists, and the test says so).
    #[test]
    fn blocks_load_the_same_bits_with_and_without_avx512() {
        use super::super::lanes::wide;
        use super::{LANES, V};
        let v: Vec<DVec3> = (0..LANES)
            .map(|l| {
                let l = l as f64;
                DVec3::new(
                    l + 0.1,
                    -l - 1e-300,
                    f64::from_bits(0x8000_0000_0000_0001) * l,
                )
            })
            .collect();
        let plain = V::load(&v, None);
        for (l, d) in v.iter().enumerate() {
            assert_eq!([plain.x[l], plain.y[l], plain.z[l]], d.to_array());
        }
        let Some(simd) = wide() else {
            eprintln!("no AVX-512 on this CPU: only the lane-by-lane load exists");
            return;
        };
        let fast = V::load(&v, Some(simd));
        let bits = |v: &V| -> Vec<u64> {
            [v.x, v.y, v.z]
                .concat()
                .into_iter()
                .map(f64::to_bits)
                .collect()
        };
        assert_eq!(bits(&fast), bits(&plain));
    }
}
