//! The mass pass, CPU twin of `shaders/integrate.wgsl`: `ground`, `integrate_mass` and the
//! `integrate` entry, in that order.
//!
//! Per mass: the gathered spring force, gravity, the external and drag-spring forces and air
//! drag; then ground contact and friction (`ground`), then contact and friction with each
//! obstacle (`obstacles.rs`); then the velocity and position update. The
//! WGSL reads its inputs from bindings (`params`, `mass_table`, `oscillator_table`, `step`); here
//! they are the fields of [`MassPass`] (`mass_pass.rs`), and the functions are its methods.

use glam::DVec3;
use rayon::prelude::*;
use rayon::ThreadPool;

use super::integrate_simd::{integrate_block, LANES};
use super::mass_pass::{MassOutcome, MassPass, MassState};
use super::obstacles::{friction, Ground};
use super::springs::gather;
use crate::model::{Contact, Integrator};
use crate::sensors::ContactReading;

impl MassPass<'_> {
    /// Ground contact and friction for a mass `m` (kg) at `x` (m) moving at `v` (m/s) under the
    /// net non-ground force `f` (N), with friction coefficients `mu_s` and `mu_k`. The ground is
    /// the plane z = 0 with normal +z.
    ///
    /// Unlike the WGSL, the dissipative part starts from the air drag `drag` (N) rather than
    /// zero: contact and friction are added onto it in the order the reference has always used,
    /// which keeps its bits (float addition does not reassociate).
    #[allow(clippy::too_many_arguments)]
    pub(super) fn ground(
        &self,
        mu_s: f64,
        mu_k: f64,
        m: f64,
        x: DVec3,
        v: DVec3,
        f: DVec3,
        drag: DVec3,
    ) -> Ground {
        let mut out = Ground {
            conservative: DVec3::ZERO,
            dissipative: drag,
            normal: DVec3::ZERO,
            touching: false,
        };
        let dt = self.params.dt;
        let normal = match self.params.contact {
            Contact::None => return out,
            Contact::Penalty { stiffness, damping } => {
                if x.z >= 0.0 {
                    return out;
                }
                let spring = -stiffness * x.z;
                let n = (spring - damping * v.z).max(0.0);
                out.conservative.z += spring;
                out.dissipative.z += n - spring;
                out.normal.z = n;
                n
            }
            Contact::Restitution { restitution } => {
                if x.z > 0.0 {
                    return out;
                }
                // Normal force: cancels whatever pushes the mass into the ground (Anderson eq. 8).
                let n = (-f.z).max(0.0);
                // Impulse: a mass moving into the ground leaves the step at -e v_z (eq. 10, 11).
                let impulse = if v.z < 0.0 {
                    -m * (1.0 + restitution) * v.z / dt
                } else {
                    0.0
                };
                out.dissipative.z += n + impulse;
                out.normal.z = n + impulse;
                n
            }
        };
        out.touching = true;
        let ft = DVec3::new(f.x, f.y, 0.0);
        let vt = DVec3::new(v.x, v.y, 0.0);
        out.dissipative += friction(&self.params.friction, mu_s, mu_k, normal, m, dt, vt, ft);
        out
    }
}

/// What integrating one mass reports (WGSL's `Integrated`, with the dissipated energy in its two
/// parts, booked one after the other as the reference always has).
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub(super) struct Integrated {
    /// Work done by the dissipative forces over the step, J (<= 0 up to rounding).
    pub(super) dissipative_work: f64,
    /// Kinetic energy global velocity damping removed, J.
    pub(super) damped: f64,
    /// Work done by the external and drag-spring forces, J.
    pub(super) injected: f64,
    /// Whether the new position or velocity is not finite, or the new speed is over the
    /// blow-up bound (see `SpeedLimit`).
    pub(super) bad: bool,
    /// The surfaces' contact with the mass (what the sensors read).
    pub(super) contact: ContactReading,
}

impl MassPass<'_> {
    /// Integrates mass `i` at position `x` (m) and velocity `v` (m/s) under the gathered spring
    /// force `spring_force` (N), updating `x` and `v` in place. A fixed mass does not move and
    /// books nothing.
    pub(super) fn integrate_mass(
        &self,
        i: usize,
        spring_force: DVec3,
        x: &mut DVec3,
        v: &mut DVec3,
    ) -> Integrated {
        if self.fixed[i] {
            return Integrated::default();
        }
        let p = self.params;
        let m = self.mass[i];
        let dt = p.dt;
        let (x0, v0) = (*x, *v);
        // Forces whose work is counted elsewhere or that store energy: springs (their damping is
        // counted in the spring pass), gravity, external and drag forces.
        let mut applied = self.external[i];
        if let Some(d) = self.drag.filter(|d| d.mass == i) {
            applied += d.force(x0, v0);
        }
        let mut conservative = spring_force + m * p.gravity + applied;
        // The collision force: its penalty part with the conservative forces (ground and
        // obstacle friction see it), its damping and friction with the dissipative ones.
        let touch = self.touch.get(i).copied();
        if let Some(t) = touch {
            conservative += t.conservative;
        }
        // Forces that only remove energy.
        let drag = -p.air_drag * v0;
        let (mut mu_s, mut mu_k) = (
            p.friction.static_coefficient,
            p.friction.kinetic_coefficient,
        );
        let oscillated = self.oscillators.coefficient(i);
        if let Some(mu) = oscillated {
            mu_s = mu;
            mu_k = mu;
        }
        let g = self.ground(mu_s, mu_k, m, x0, v0, conservative + drag, drag);
        let g = self
            .obstacles
            .obstacles(dt, oscillated, m, x0, v0, (conservative, drag), g);
        let dissipative = match touch {
            Some(t) => g.dissipative + t.dissipative,
            None => g.dissipative,
        };
        let total = conservative + g.conservative + dissipative;
        let v_pre = v0 + total / m * dt;
        let v_new = v_pre * self.damping_factor;
        let x_new = match p.integrator {
            Integrator::SemiImplicitEuler => x0 + v_new * dt,
            Integrator::ExplicitEuler => x0 + v0 * dt,
        };
        // The velocity update changes the kinetic energy by exactly F . (v + v_pre) / 2 dt, which
        // splits linearly over the forces: that is the work booked for each of them. It is zero
        // for static friction holding a mass still, and exactly the lost kinetic energy for a
        // restitution impulse. Global damping then removes what the factor takes off.
        let work = 0.5 * (v0 + v_pre) * dt;
        let over = self.limit.over(m, self.time + dt, v_new);
        *x = x_new;
        *v = v_new;
        Integrated {
            dissipative_work: dissipative.dot(work),
            damped: 0.5 * m * (v_pre.length_squared() - v_new.length_squared()),
            injected: applied.dot(work),
            bad: !(x_new.is_finite() && v_new.is_finite()) || over,
            contact: ContactReading {
                touching: g.touching,
                normal_force: g.normal,
            },
        }
    }
}

/// Masses per block of the mass pass: the pass runs block by block (blocks on the pool's threads
/// when there is a pool) and adds the blocks' bookings in block order, so the energy totals do
/// not depend on the thread count either. A model of at most this many masses is one block.
pub(super) const MASS_BLOCK: usize = 1024;

/// Below this many masses the mass pass stays on the caller's thread even with a pool: waking a
/// worker for a few blocks costs more than it saves (a 2 744-mass lattice stepped 20 % slower).
const PARALLEL_MIN_MASSES: usize = 4 * MASS_BLOCK;

/// The mass pass over all masses in blocks of [`MASS_BLOCK`] (the WGSL's invocations), on the
/// threads of `pool` from [`PARALLEL_MIN_MASSES`] masses up (on the caller's thread below or when
/// `None`); the blocks' bookings are added in block order either way.
pub(super) fn integrate(
    pass: &MassPass<'_>,
    state: MassState<'_>,
    pool: Option<&ThreadPool>,
) -> MassOutcome {
    let n = state.pos.len();
    if n <= MASS_BLOCK {
        return integrate_range(pass, state);
    }
    // Unrecorded contacts: an empty slice per block.
    let recorded = !state.contacts.is_empty();
    let mut contacts = state.contacts.chunks_mut(MASS_BLOCK);
    let blocks: Vec<MassState<'_>> = state
        .pos
        .chunks_mut(MASS_BLOCK)
        .zip(state.vel.chunks_mut(MASS_BLOCK))
        .zip(state.force.chunks_mut(MASS_BLOCK))
        .enumerate()
        .map(|(i, ((pos, vel), force))| MassState {
            pos,
            vel,
            force,
            contacts: if recorded {
                contacts.next().unwrap_or_default()
            } else {
                Default::default()
            },
            first: state.first + i * MASS_BLOCK,
        })
        .collect();
    let outcomes: Vec<MassOutcome> = match pool.filter(|_| n >= PARALLEL_MIN_MASSES) {
        Some(pool) => pool.install(|| {
            blocks
                .into_par_iter()
                .with_max_len(1)
                .map(|b| integrate_range(pass, b))
                .collect()
        }),
        None => blocks
            .into_iter()
            .map(|b| integrate_range(pass, b))
            .collect(),
    };
    let mut total = MassOutcome::default();
    for o in outcomes {
        total.dissipated += o.dissipated;
        total.injected += o.injected;
        total.first_bad = total.first_bad.or(o.first_bad);
    }
    total
}

/// One invocation: gathers the spring force of its masses, then integrates them in order:
/// blocks of eight in SIMD lanes where the model allows (`integrate_simd.rs`, the same bits),
/// the others one by one.
fn integrate_range(pass: &MassPass<'_>, state: MassState<'_>) -> MassOutcome {
    gather(pass.chunks, state.first, state.force);
    if pass.lanes && pass.obstacles.solids.is_empty() && pass.touch.is_empty() {
        return super::simd::arch().dispatch(Blocks { pass, state });
    }
    let mut out = MassOutcome::default();
    for (j, (pos, vel)) in state.pos.iter_mut().zip(state.vel.iter_mut()).enumerate() {
        let i = state.first + j;
        let r = pass.integrate_mass(i, state.force[j], pos, vel);
        book(&mut out, i, &r, pass.book_energy, state.contacts.get_mut(j));
    }
    out
}

/// Integrates mass `state.first + j` on its own, booking into `out` (as `integrate_range`'s
/// loop does).
#[inline(always)]
fn integrate_one(pass: &MassPass<'_>, state: &mut MassState<'_>, j: usize, out: &mut MassOutcome) {
    let i = state.first + j;
    let r = pass.integrate_mass(i, state.force[j], &mut state.pos[j], &mut state.vel[j]);
    book(out, i, &r, pass.book_energy, state.contacts.get_mut(j));
}

/// Books mass `i`'s step `r` into `out` (energies in mass order when `energy`, the first bad
/// mass) and its contact into `contact` when contacts are recorded.
#[inline(always)]
fn book(
    out: &mut MassOutcome,
    i: usize,
    r: &Integrated,
    energy: bool,
    contact: Option<&mut ContactReading>,
) {
    if energy {
        out.dissipated -= r.dissipative_work;
        out.dissipated += r.damped;
        out.injected += r.injected;
    }
    if r.bad && out.first_bad.is_none() {
        out.first_bad = Some(i);
    }
    if let Some(c) = contact {
        *c = r.contact;
    }
}

/// The masses of one invocation in blocks of [`LANES`], for the instruction set `pulp` picked:
/// a block with a fixed mass or the drag spring's, and the last partial block, one by one.
struct Blocks<'a, 'b> {
    pass: &'a MassPass<'b>,
    state: MassState<'a>,
}

impl pulp::WithSimd for Blocks<'_, '_> {
    type Output = MassOutcome;

    #[inline(always)]
    fn with_simd<S: pulp::Simd>(self, _simd: S) -> MassOutcome {
        let Blocks { pass, mut state } = self;
        let mut out = MassOutcome::default();
        let (n, first) = (state.pos.len(), state.first);
        let drag = pass.drag.map(|d| d.mass);
        let mut j = 0;
        while j < n {
            let block = first + j..first + j + LANES;
            let lanes = j + LANES <= n
                && !pass.fixed[block.clone()].contains(&true)
                && !drag.is_some_and(|m| block.contains(&m));
            if lanes {
                let contacts = match state.contacts.get_mut(j..j + LANES) {
                    Some(c) => c,
                    None => &mut [],
                };
                integrate_block(
                    pass,
                    first + j,
                    &mut state.pos[j..j + LANES],
                    &mut state.vel[j..j + LANES],
                    &state.force[j..j + LANES],
                    contacts,
                    &mut out,
                );
                j += LANES;
            } else {
                let end = (j + LANES).min(n);
                for k in j..end {
                    integrate_one(pass, &mut state, k, &mut out);
                }
                j = end;
            }
        }
        out
    }
}
