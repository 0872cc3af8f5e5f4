//! Contact and friction with the model's obstacles, part of the mass pass (`integrate.rs`), CPU
//! twin of `shaders/shared/obstacles.wgsl`: the obstacle table (`Solid`: each obstacle with the
//! box outside which nothing touches it), and per mass, after the ground, each obstacle in model
//! order (`obstacles`, `obstacle`), and their penalty energy (`obstacle_energy`). A mass visits
//! the obstacles its cell of the broad-phase grid lists (`ObstacleGrid`).
//!
//! `obstacle` is the ground's rule (`MassPass::ground`) written in the obstacle's frame: the
//! signed distance `d` and outward normal `n` of [`Shape::surface`](crate::Shape::surface) take
//! the places of `z` and `+z`, normal and tangential parts are `(a . n) n` and `a - (a . n) n`.
//! A mass outside an obstacle's bounds ([`Shape::bounds`](crate::Shape::bounds)) is skipped
//! before the exact distance: the broad phase, one box test per obstacle and mass.

use glam::DVec3;

use crate::model::{Contact, Friction, FrictionRule, Obstacle, ObstacleGrid};

/// The ground's force on one mass, N.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(super) struct Ground {
    /// Conservative part (the penalty spring), N.
    pub(super) conservative: DVec3,
    /// `drag` plus everything else: contact damping, restitution, friction, N.
    pub(super) dissipative: DVec3,
    /// The surfaces' normal force (the contact without friction), N: what the sensors read.
    pub(super) normal: DVec3,
    /// Whether a surface touched the mass.
    pub(super) touching: bool,
}

/// The friction force (N) of a surface pressing on a mass of `m` kg with normal force `normal`
/// (N), for its tangential velocity `vt` (m/s) and the tangential part `ft` (N) of every other
/// force on it, over a step of `dt` s, with coefficients `mu_s` and `mu_k` and the rule and rest
/// speed of `friction` (see [`crate::Friction`]). The ground and every obstacle share it.
#[allow(clippy::too_many_arguments)]
pub(super) fn friction(
    friction: &Friction,
    mu_s: f64,
    mu_k: f64,
    normal: f64,
    m: f64,
    dt: f64,
    vt: DVec3,
    ft: DVec3,
) -> DVec3 {
    let f_stop = -(m * vt / dt + ft);
    let stop = f_stop.length();
    let speed = vt.length();
    let mu_k_n = mu_k * normal;
    let rest_speed = friction.rest_speed;
    if friction.rule == FrictionRule::Naive {
        // The benchmark scene's rule: kinetic only, unclamped (it can reverse the mass).
        if speed > rest_speed {
            -mu_k_n * vt / speed
        } else {
            DVec3::ZERO
        }
    } else if speed > rest_speed {
        if stop <= mu_k_n {
            f_stop
        } else {
            -mu_k_n * vt / speed
        }
    } else if stop <= mu_s * normal {
        f_stop
    } else {
        mu_k_n * f_stop / stop
    }
}

/// One obstacle as the mass pass reads it (the CPU side of the device's `GpuObstacle` table).
#[derive(Clone, Debug)]
pub(super) struct Solid {
    /// The obstacle.
    pub(super) obstacle: Obstacle,
    /// Corner of the bounds with the lowest coordinates, m (`-inf` where unbounded).
    pub(super) lo: DVec3,
    /// Corner of the bounds with the highest coordinates, m (`+inf` where unbounded).
    pub(super) hi: DVec3,
}

impl Solid {
    /// Whether `x` (m) is within the bounds (where the solid may touch it).
    fn near(&self, x: DVec3) -> bool {
        x.cmpge(self.lo).all() && x.cmple(self.hi).all()
    }
}

/// The obstacle table and its broad-phase grid (the device's obstacle table and words).
#[derive(Clone, Debug)]
pub(super) struct Solids {
    /// Each obstacle with its bounds, in model order.
    pub(super) solids: Vec<Solid>,
    /// Which obstacles a mass at a point may touch.
    pub(super) grid: ObstacleGrid,
}

impl Solids {
    /// The table of `obstacles`, in model order.
    pub(super) fn new(obstacles: &[Obstacle]) -> Self {
        let bounds: Vec<_> = obstacles.iter().map(|ob| ob.shape.bounds()).collect();
        let solids = obstacles
            .iter()
            .zip(&bounds)
            .map(|(ob, b)| {
                let (lo, hi) = b.unwrap_or((DVec3::NEG_INFINITY, DVec3::INFINITY));
                Solid {
                    obstacle: ob.clone(),
                    lo,
                    hi,
                }
            })
            .collect();
        Self {
            solids,
            grid: ObstacleGrid::new(&bounds),
        }
    }

    /// The obstacles whose bounds hold `x` (m), in model order: the grid cell's list, each
    /// tested against its bounds.
    fn near(&self, x: DVec3) -> impl Iterator<Item = &Solid> {
        self.grid
            .list(x)
            .iter()
            .map(|&k| &self.solids[k as usize])
            .filter(move |s| s.near(x))
    }
}

impl Solids {
    /// Adds the contact and friction of every obstacle to `g`, the ground's force on a mass of
    /// `m` kg at `x` (m) moving at `v` (m/s) under the non-contact force `f` (N, air drag
    /// excluded: it is `drag`, already in `g.dissipative`), over a step of `dt` s. `oscillated`
    /// is the mass's oscillating friction coefficient at this step, which replaces each
    /// obstacle's coefficients. Each obstacle sees the net force and the contact forces of the
    /// surfaces before it; with no obstacles `g` comes back unchanged.
    #[allow(clippy::too_many_arguments)]
    pub(super) fn obstacles(
        &self,
        dt: f64,
        oscillated: Option<f64>,
        m: f64,
        x: DVec3,
        v: DVec3,
        (f, drag): (DVec3, DVec3),
        mut g: Ground,
    ) -> Ground {
        if self.solids.is_empty() {
            return g;
        }
        // The contact forces so far: the ground's (its dissipative part less the air drag).
        let mut touch = g.conservative + (g.dissipative - drag);
        for solid in self.near(x) {
            let net = f + g.conservative + g.dissipative;
            let before = Before { net, touch };
            if let Some(c) = obstacle(&solid.obstacle, oscillated, dt, m, x, v, before) {
                g.conservative += c.conservative;
                g.dissipative += c.dissipative;
                g.normal += c.normal;
                g.touching = true;
                touch += c.conservative + c.dissipative;
            }
        }
        g
    }
}

/// What the surfaces before an obstacle leave for it, N.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(super) struct Before {
    /// The net force of everything else on the mass: non-contact forces, air drag, and the
    /// contact and friction forces of the surfaces before.
    pub(super) net: DVec3,
    /// The contact and friction forces of the surfaces before alone.
    pub(super) touch: DVec3,
}

/// The force of obstacle `ob` on a mass of `m` kg at `x` (m) moving at `v` (m/s), given what the
/// surfaces before it do (`before`), over a step of `dt` s; `None` when it does not touch it.
///
/// A restitution surface reflects the normal velocity the surfaces before it leave,
/// `u = v.n + touch.n dt / m`: alone it is `v.n`, as on the ground, and a mass on two surfaces
/// with the same normal (a plane over the ground) is reflected once, not twice.
#[allow(clippy::too_many_arguments)]
pub(super) fn obstacle(
    ob: &Obstacle,
    oscillated: Option<f64>,
    dt: f64,
    m: f64,
    x: DVec3,
    v: DVec3,
    before: Before,
) -> Option<Ground> {
    let surface = ob.shape.surface(x)?;
    let (d, n) = (surface.distance, surface.normal);
    let vn = v.dot(n);
    let f = before.net;
    let fn_ = f.dot(n);
    let mut out = Ground {
        conservative: DVec3::ZERO,
        dissipative: DVec3::ZERO,
        normal: DVec3::ZERO,
        touching: true,
    };
    let normal = match ob.contact {
        Contact::None => return None,
        Contact::Penalty { stiffness, damping } => {
            if d >= 0.0 {
                return None;
            }
            let spring = -stiffness * d;
            let normal = (spring - damping * vn).max(0.0);
            out.conservative = spring * n;
            out.dissipative = (normal - spring) * n;
            out.normal = normal * n;
            normal
        }
        Contact::Restitution { restitution } => {
            if d > 0.0 {
                return None;
            }
            // Cancels what pushes the mass into the surface; a mass still moving in after the
            // surfaces before leaves at -e u.
            let normal = (-fn_).max(0.0);
            let u = vn + before.touch.dot(n) * dt / m;
            let impulse = if u < 0.0 {
                -m * (1.0 + restitution) * u / dt
            } else {
                0.0
            };
            out.dissipative = (normal + impulse) * n;
            out.normal = out.dissipative;
            normal
        }
    };
    let (mu_s, mu_k) = oscillated.map_or(
        (
            ob.friction.static_coefficient,
            ob.friction.kinetic_coefficient,
        ),
        |mu| (mu, mu),
    );
    let vt = v - vn * n;
    let ft = f - fn_ * n;
    out.dissipative += friction(&ob.friction, mu_s, mu_k, normal, m, dt, vt, ft);
    Some(out)
}

/// Energy stored in the penalty springs of the obstacles a mass at `x` (m) is inside, J:
/// `k d^2 / 2` per penalty obstacle with `d < 0`.
pub(super) fn obstacle_energy(obstacles: &Solids, x: DVec3) -> f64 {
    let mut e = 0.0;
    for solid in obstacles.near(x) {
        if let Contact::Penalty { stiffness, .. } = solid.obstacle.contact {
            if let Some(s) = solid.obstacle.shape.surface(x).filter(|s| s.distance < 0.0) {
                e += 0.5 * stiffness * s.distance * s.distance;
            }
        }
    }
    e
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::{Friction, Shape};

    /// An obstacle touched alone: net force `f`, no surface before it.
    fn alone(f: DVec3) -> Before {
        Before {
            net: f,
            touch: DVec3::ZERO,
        }
    }

    /// The ground's rule on the plane z = 0 written as an obstacle gives the ground's force.
    #[test]
    fn obstacle_plane_z0_gives_the_grounds_penalty_and_friction() {
        let ob = Obstacle::new(
            Shape::GROUND,
            Contact::Penalty {
                stiffness: 1e4,
                damping: 10.0,
            },
            Friction::coulomb(0.5, 0.4),
        );
        let (m, dt) = (0.2, 1e-3);
        let x = DVec3::new(0.3, 0.1, -0.01);
        let v = DVec3::new(2.0, 0.0, -0.5);
        let f = DVec3::new(1.0, 0.0, -2.0);
        let c = obstacle(&ob, None, dt, m, x, v, alone(f)).unwrap();
        // Spring 1e4 * 0.01 = 100 N, damping 10 * 0.5 = 5 N: N = 105 N. Sliding at 2 m/s:
        // kinetic friction 0.4 * 105 = 42 N against +x (f_stop = -(0.2 * 2 / 1e-3 + 1) = -401 N).
        assert!((c.conservative - DVec3::new(0.0, 0.0, 100.0)).length() < 1e-9);
        assert!((c.dissipative - DVec3::new(-42.0, 0.0, 5.0)).length() < 1e-9);
        assert_eq!(obstacle(&ob, None, dt, m, -x, v, alone(f)), None);
        assert!((obstacle_energy(&Solids::new(&[ob]), x) - 0.5 * 1e4 * 1e-4).abs() < 1e-12);
    }

    /// Static friction on a tilted plane holds the tangential force exactly.
    #[test]
    fn static_friction_on_a_tilted_plane_cancels_the_tangential_force() {
        let theta = 0.25_f64;
        let n = DVec3::new(-theta.sin(), 0.0, theta.cos());
        let ob = Obstacle::new(
            Shape::Plane {
                normal: n,
                offset: 0.0,
            },
            Contact::Restitution { restitution: 0.0 },
            Friction::coulomb(1.0, 0.8),
        );
        let m = 0.1;
        let f = DVec3::new(0.0, 0.0, -9.81 * m);
        let c = obstacle(&ob, None, 1e-4, m, DVec3::ZERO, DVec3::ZERO, alone(f)).unwrap();
        // Normal force cancels f . n, friction cancels the rest: nothing moves.
        assert!((f + c.dissipative).length() < 1e-15);
        // With mu = 0.2 < tan(0.25) from an oscillator, static friction breaks.
        let c = obstacle(&ob, Some(0.2), 1e-4, m, DVec3::ZERO, DVec3::ZERO, alone(f)).unwrap();
        let along = (f + c.dissipative).dot(DVec3::new(theta.cos(), 0.0, theta.sin()));
        let expected = -m * 9.81 * (theta.sin() - 0.2 * theta.cos());
        assert!((along - expected).abs() < 1e-15);
    }
}
