//! The stable time step estimate: [`Model::stable_dt`] and what it returns, [`StableDt`].

use std::fmt;

use super::{Contact, Model, Spring};

/// What limits the stable time step at the mass that limits it most (see [`Model::stable_dt`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum StableDtLimit {
    /// The springs on the mass (their stiffness per mass).
    Springs,
    /// The penalty ground's stiffness `k_c` (plus obstacles' and collisions') on a light mass.
    Contact,
    /// Damping (springs' axial damping, contact damping, air drag) on a light mass.
    Damping,
    /// Nothing: the model has no free mass, or nothing pushes back on any of them.
    Nothing,
}

/// The largest stable time step of a model, as estimated by [`Model::stable_dt`], and the mass,
/// spring or contact that limits it.
///
/// Its [`Display`](fmt::Display) is one line, e.g.
/// `1.2e-4 s (limited by mass 17: springs 3.4e5 N/m on 0.01 kg, stiffest spring 42)`.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct StableDt {
    /// The estimate, s: semi-implicit Euler is stable for every `dt` below it. Infinite when
    /// nothing limits it.
    pub dt: f64,
    /// What limits it.
    pub limit: StableDtLimit,
    /// The limiting mass (the one with the smallest bound), if any.
    pub mass: Option<usize>,
    /// That mass's mass, kg (0 without one).
    pub mass_kg: f64,
    /// Stiffness of the springs on that mass, as the bound counts it, N/m: the sum of the
    /// effective stiffness of every spring on it, each spring to a free mass `j` counted
    /// `1 + sqrt(m / m_j)` times (see [`Model::stable_dt`]).
    pub spring_stiffness: f64,
    /// The penalty ground's stiffness `k_c` plus the largest penalty stiffness of the obstacles,
    /// plus the collision stiffness when that mass has a collision radius, N/m (0 for the other
    /// contact models and no collision radius).
    pub contact_stiffness: f64,
    /// Damping on that mass as the bound counts it, N*s/m: springs' axial damping (counted as
    /// the stiffness is), the contact's normal damping, the collision damping when the mass
    /// has a collision radius, and the air drag.
    pub damping: f64,
    /// The angular frequency bound at that mass, `sqrt((spring_stiffness + contact_stiffness) /
    /// mass_kg)`, rad/s.
    pub omega: f64,
    /// The stiffest spring on that mass (the most damped one when damping limits), if any.
    pub spring: Option<usize>,
}

impl StableDt {
    /// What to change to run stably: the `dt` to go below and the element that limits it, e.g.
    /// `"reduce dt below 1.20e-4 s, or soften spring 42 or raise mass 17 (1.000e-2 kg)"`.
    #[must_use]
    pub fn advice(&self) -> String {
        let below = format!("reduce dt below {:.2e} s", self.dt);
        let Some(mass) = self.mass.filter(|_| self.dt.is_finite()) else {
            return "nothing in the model limits dt (no spring, penalty contact or damping on a \
                    free mass): look at the forces set between steps"
                .to_string();
        };
        let m = self.mass_kg;
        match (self.limit, self.spring) {
            (StableDtLimit::Springs, Some(s)) => {
                format!("{below}, or soften spring {s} or raise mass {mass} ({m:.3e} kg)")
            }
            (StableDtLimit::Contact, _) => format!(
                "{below}, or soften the ground contact or the collisions (together {:.3e} \
                 N/m), use Contact::Restitution, or raise mass {mass} ({m:.3e} kg)",
                self.contact_stiffness
            ),
            (StableDtLimit::Damping, Some(s)) => format!(
                "{below}, or lower the damping of spring {s}, the contact damping or air drag, \
                 or raise mass {mass} ({m:.3e} kg)"
            ),
            (StableDtLimit::Damping, None) => format!(
                "{below}, or lower the contact damping or air drag, or raise mass {mass} \
                 ({m:.3e} kg)"
            ),
            _ => format!("{below}, or raise mass {mass} ({m:.3e} kg)"),
        }
    }
}

impl fmt::Display for StableDt {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let Some(mass) = self.mass.filter(|_| self.limit != StableDtLimit::Nothing) else {
            return write!(
                f,
                "{} s (nothing limits it: no free mass feels a spring, contact or damping)",
                self.dt
            );
        };
        write!(f, "{:.1e} s (limited by mass {mass}: ", self.dt)?;
        let m = self.mass_kg;
        match self.limit {
            StableDtLimit::Springs => {
                write!(f, "springs {:.1e} N/m on {m:.2e} kg", self.spring_stiffness)?;
                if let Some(s) = self.spring {
                    write!(f, ", stiffest spring {s}")?;
                }
            }
            StableDtLimit::Contact => write!(
                f,
                "ground contact (with obstacles and collisions) {:.1e} N/m + springs {:.1e} N/m \
                 on {m:.2e} kg",
                self.contact_stiffness, self.spring_stiffness
            )?,
            StableDtLimit::Damping => {
                write!(f, "damping {:.1e} N*s/m on {m:.2e} kg", self.damping)?;
                if let Some(s) = self.spring {
                    write!(f, ", most damped spring {s}")?;
                }
            }
            StableDtLimit::Nothing => {}
        }
        write!(f, ")")
    }
}

/// Largest effective stiffness (N/m) of `spring` when its rest length may shrink to `shrink`
/// times its base length (an actuator's smallest `1 - |amplitude|`).
pub(crate) fn effective_stiffness(spring: &Spring, shrink: f64) -> f64 {
    spring.effective(spring.rest_length * shrink).0
}

/// Per spring, the smallest factor its rest length reaches under its actuator (`1 - |a|`; the
/// last actuator naming a spring drives it, as in both worlds), 1 for springs without one.
pub(crate) fn shrink_factors(model: &Model) -> Vec<f64> {
    let mut shrink = vec![1.0; model.springs.len()];
    for a in &model.actuators {
        if let Some(s) = shrink.get_mut(a.spring as usize) {
            *s = 1.0 - a.amplitude.abs();
        }
    }
    shrink
}

/// The Gershgorin row of every mass: (stiffness, damping) as [`StableDt::spring_stiffness`] and
/// the spring part of [`StableDt::damping`] count them.
fn rows(model: &Model) -> Vec<(f64, f64)> {
    let masses = &model.masses;
    let shrink = shrink_factors(model);
    let mut rows = vec![(0.0, 0.0); masses.len()];
    for (s, sp) in model.springs.iter().enumerate() {
        let (a, b) = (sp.a as usize, sp.b as usize);
        if a >= masses.len() || b >= masses.len() {
            continue;
        }
        let k = effective_stiffness(sp, shrink[s]);
        for (i, j) in [(a, b), (b, a)] {
            if masses[i].fixed {
                continue;
            }
            let weight = if masses[j].fixed {
                1.0
            } else {
                1.0 + (masses[i].mass / masses[j].mass).sqrt()
            };
            rows[i].0 += k * weight;
            rows[i].1 += sp.damping * weight;
        }
    }
    rows
}

/// The largest `dt` (s) for which semi-implicit Euler is stable on `x'' = -omega^2 x -
/// gamma x'`: the root of `(omega dt)^2 + 2 gamma dt = 4`, infinite when both are 0.
pub(crate) fn oscillator_limit(omega_squared: f64, gamma: f64) -> f64 {
    4.0 / (gamma + (gamma * gamma + 4.0 * omega_squared).sqrt())
}

impl Model {
    /// An estimate of the largest stable time step, s, and what limits it.
    ///
    /// # Derivation
    /// Near any state, the model's motion is `M x'' = -K x - C x'` with `M` the masses, `K` the
    /// stiffness matrix (tangent stiffness of every spring, plus `k_c` on a mass touching the
    /// penalty ground) and `C` the damping matrix. On one mode of frequency `omega` and damping
    /// rate `gamma`, semi-implicit Euler (`v += a dt`, `p += v dt`) is stable exactly when
    /// `(omega dt)^2 + 2 gamma dt < 4` (its step matrix has determinant `1 - gamma dt` and trace
    /// `2 - gamma dt - (omega dt)^2`): `dt < 2 / omega` without damping, `dt < 2 m / c` for
    /// damping alone.
    ///
    /// `omega^2` is bounded by Gershgorin's theorem on the symmetric matrix
    /// `M^(-1/2) K M^(-1/2)`: every eigenvalue lies below the largest row sum of absolute values.
    /// A spring of stiffness `k` between `i` and `j` adds `k n n^T <= k I` to the diagonal blocks
    /// of both and `-k n n^T` to their off-diagonal blocks (its tension term is `(f / L)(I - n
    /// n^T)` with `f / L = k (1 - L0 / L) < k`, so the bound holds in every configuration), so
    /// row `i` is at most `(k_i + sum over springs to free masses j of k sqrt(m_i / m_j)) / m_i`
    /// plus `k_c / m_i` for the ground, where `k_i` sums the effective stiffness of the springs
    /// on `i`: `k` for Hooke and zero-length springs, `k / L0` for the material law, with an
    /// actuated `L0` at its smallest, `L_base (1 - |amplitude|)`. A fixed mass does not move:
    /// it has no row, and springs to it count once. `gamma` is bounded the same way from the
    /// springs' axial damping, plus the contact's normal damping and the air drag on the mass.
    /// Each free mass `i` then gives the root of `omega_i^2 dt^2 + 2 gamma_i dt = 4`, and the
    /// estimate is the smallest, at the mass this returns.
    ///
    /// It is exact for one mass on one spring (`dt = 2 sqrt(m / k)`) and for two equal masses
    /// joined by one spring, and otherwise below the true limit (lattices and cloths: within a
    /// factor of about 2, `tests/integration/numerics/stable_dt.rs`); combining the stiffness and damping bounds of
    /// one row is exact when damping is proportional to stiffness and an estimate otherwise.
    /// Global velocity damping only shrinks velocities and is left out. The drag spring (set
    /// between steps) is not part of the model: a stiff one lowers the limit at its mass.
    /// Restitution contact adds no stiffness. The penalty ground counts for every free mass,
    /// since any of them may touch it, and so does the stiffest (and the most damped) penalty
    /// obstacle on top of it: a mass is taken to touch the ground and one obstacle at once (a
    /// mass wedged between several stiff obstacles can need less). A mass with a collision
    /// radius adds the collision stiffness and damping ([`Collision`](super::Collision)) once:
    /// it is taken to touch one other mass at a time (a mass pressed by several can need less).
    ///
    /// # Explicit Euler
    /// [`Integrator::ExplicitEuler`](super::Integrator::ExplicitEuler) is never stable on an
    /// undamped oscillator: each step multiplies a mode's amplitude by `sqrt(1 + (omega dt)^2)`,
    /// so its energy grows by the factor `e` in about `1 / (omega^2 dt)` seconds, at any `dt`
    /// (only damping `gamma > omega^2 dt` on every mode makes it stable). For it the estimate is
    /// the same number with a weaker meaning: above it a run explodes within a few steps; below
    /// it energy grows at the slow rate just given.
    ///
    /// Meaningful for a model that [`validates`](Model::validate) (non-positive masses are
    /// skipped). Costs one pass over the springs and one over the masses.
    #[must_use]
    pub fn stable_dt(&self) -> StableDt {
        let p = &self.params;
        let (k_c, c_c) = self.contact_bound();
        let rows = rows(self);
        let mut best = StableDt {
            dt: f64::INFINITY,
            limit: StableDtLimit::Nothing,
            mass: None,
            mass_kg: 0.0,
            spring_stiffness: 0.0,
            contact_stiffness: k_c,
            damping: 0.0,
            omega: 0.0,
            spring: None,
        };
        let colliding = self.colliding_classes();
        for (i, (m, &(k, c))) in self.masses.iter().zip(&rows).enumerate() {
            if m.fixed || m.mass.is_nan() || m.mass <= 0.0 {
                continue;
            }
            // A colliding mass is taken to touch one other mass at a time, as for obstacles,
            // with the stiffest (and most damped) pair force its class has with any class
            // present.
            let (k_m, c_m) = if m.collision_radius > 0.0 {
                self.stiffest_collision(m.collision_class, &colliding)
            } else {
                (0.0, 0.0)
            };
            let omega_squared = (k + k_c + k_m) / m.mass;
            let damping = c + c_c + c_m + p.air_drag;
            let dt = oscillator_limit(omega_squared, damping / m.mass);
            if dt < best.dt {
                best = StableDt {
                    dt,
                    limit: StableDtLimit::Nothing,
                    mass: Some(i),
                    mass_kg: m.mass,
                    spring_stiffness: k,
                    contact_stiffness: k_c + k_m,
                    damping,
                    omega: omega_squared.sqrt(),
                    spring: None,
                };
            }
        }
        if let Some(i) = best.mass {
            // Which term of (omega dt)^2 + 2 gamma dt = 4 dominates at the limit.
            let spring_term = best.omega * best.omega * best.dt;
            let damping_term = 2.0 * best.damping / best.mass_kg;
            best.limit = if damping_term > spring_term {
                StableDtLimit::Damping
            } else if best.contact_stiffness > best.spring_stiffness {
                StableDtLimit::Contact
            } else {
                StableDtLimit::Springs
            };
            best.spring = self.strongest_spring(i, best.limit == StableDtLimit::Damping);
        }
        best
    }

    /// The spring on mass `i` with the largest effective stiffness (or damping, with `damping`),
    /// lowest index first among equals; `None` if it has no spring with a positive one.
    fn strongest_spring(&self, i: usize, damping: bool) -> Option<usize> {
        let shrink = shrink_factors(self);
        let mut best: Option<(usize, f64)> = None;
        for (s, sp) in self.springs.iter().enumerate() {
            if sp.a as usize != i && sp.b as usize != i {
                continue;
            }
            let value = if damping {
                sp.damping
            } else {
                effective_stiffness(sp, shrink[s])
            };
            if value > 0.0 && best.is_none_or(|(_, v)| value > v) {
                best = Some((s, value));
            }
        }
        best.map(|(s, _)| s)
    }
}

/// Logs a warning (`log::warn!`) when `dt` (s) is above the estimate `stable` of the model a
/// `world` (`"CpuWorld"`, `"World"`) is being built for.
pub(crate) fn warn_if_above(world: &str, dt: f64, stable: &StableDt) {
    if dt > stable.dt {
        log::warn!(
            "{world} built with dt = {dt:e} s, {:.3} times the model's stable time step estimate \
             {stable}: the run may blow up. To fix it, {}.",
            dt / stable.dt,
            stable.advice()
        );
    }
}

impl Model {
    /// Contact stiffness (N/m) and normal damping (N*s/m) the bound counts on every free mass: the
    /// penalty ground's plus the largest of the penalty obstacles'.
    fn contact_bound(&self) -> (f64, f64) {
        let (k_c, c_c) = penalty(self.params.contact);
        if self.obstacles.is_empty() {
            return (k_c, c_c);
        }
        let (k_o, c_o) = self
            .obstacles
            .iter()
            .map(|o| penalty(o.contact))
            .fold((0.0_f64, 0.0_f64), |(k, c), (ko, co)| {
                (k.max(ko), c.max(co))
            });
        (k_c + k_o, c_c + c_o)
    }
}

/// Stiffness and damping of a penalty contact, zero for the others.
fn penalty(contact: Contact) -> (f64, f64) {
    match contact {
        Contact::Penalty { stiffness, damping } => (stiffness, damping),
        Contact::None | Contact::Restitution { .. } => (0.0, 0.0),
    }
}

impl Model {
    /// Which collision classes some mass with a radius belongs to.
    fn colliding_classes(&self) -> Vec<bool> {
        let mut present = vec![false; super::COLLISION_CLASSES as usize];
        for m in self.masses.iter().filter(|m| m.collision_radius > 0.0) {
            if let Some(p) = present.get_mut(m.collision_class as usize) {
                *p = true;
            }
        }
        present
    }

    /// The largest stiffness (N/m) and damping (N*s/m) of the pair forces between `class` and
    /// the classes `present`.
    fn stiffest_collision(&self, class: u32, present: &[bool]) -> (f64, f64) {
        let n = super::COLLISION_CLASSES as usize;
        let table = self.collision_table();
        let row = (class as usize).min(n - 1) * n;
        present
            .iter()
            .enumerate()
            .filter(|(_, &p)| p)
            .map(|(b, _)| table[row + b])
            .fold((0.0f64, 0.0f64), |(k, c), x| {
                (k.max(x.stiffness), c.max(x.damping))
            })
    }
}
