//! A body's reading from its sums (both backends finish here, in f64): centre of mass, mean
//! velocity, the rotational part of the shape-matching matrix (Müller et al. 2016) and the angular
//! velocity through the pseudo-inverse of the inertia tensor. Formulas in the [module docs](super).

use glam::{DMat3, DQuat, DVec3};

use super::readings::{BodyReading, INERTIA_CUTOFF, ORIENTATION_ITERATIONS};

/// A body's sums relative to its reference point (its first mass), as both backends reduce
/// them: `r = x - reference`. The default is all zeros (not glam's identity matrices).
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) struct BodySums {
    /// The reference point `p`, m.
    pub(crate) reference: DVec3,
    /// `sum m`, kg.
    pub(crate) mass: f64,
    /// `sum m r`, kg m.
    pub(crate) moment: DVec3,
    /// `sum m v`, kg m/s.
    pub(crate) momentum: DVec3,
    /// `sum m r x v`, kg m^2/s.
    pub(crate) angular: DVec3,
    /// `sum m r r^T`, kg m^2.
    pub(crate) second: DMat3,
    /// `sum m r (X - C)^T`, kg m^2 (X the model position, C the model's centre of mass).
    pub(crate) shape: DMat3,
}

impl Default for BodySums {
    fn default() -> Self {
        Self {
            reference: DVec3::ZERO,
            mass: 0.0,
            moment: DVec3::ZERO,
            momentum: DVec3::ZERO,
            angular: DVec3::ZERO,
            second: DMat3::ZERO,
            shape: DMat3::ZERO,
        }
    }
}

/// `a b^T`.
pub(crate) fn outer(a: DVec3, b: DVec3) -> DMat3 {
    DMat3::from_cols(a * b.x, a * b.y, a * b.z)
}

impl BodySums {
    /// Adds a mass of `m` kg at `r` (m, from the reference) moving at `v` (m/s), whose model
    /// position is `model` (m) from the model's centre of mass.
    pub(crate) fn add(&mut self, m: f64, r: DVec3, v: DVec3, model: DVec3) {
        self.mass += m;
        self.moment += m * r;
        self.momentum += m * v;
        self.angular += m * r.cross(v);
        self.second += outer(m * r, r);
        self.shape += outer(m * r, model);
    }

    /// The reading: centre of mass and mean velocity, and with `orientation` the frame and
    /// angular velocity.
    pub(crate) fn reading(&self, orientation: bool) -> BodyReading {
        let mut out = BodyReading {
            orientation: orientation.then_some(DMat3::IDENTITY),
            angular_velocity: orientation.then_some(DVec3::ZERO),
            ..BodyReading::default()
        };
        if self.mass <= 0.0 || !self.mass.is_finite() {
            return out;
        }
        let rbar = self.moment / self.mass;
        out.centre_of_mass = self.reference + rbar;
        out.mean_velocity = self.momentum / self.mass;
        if orientation {
            // About the centre: L = sum m r x v - M rbar x v_c, S = sum m r r^T - M rbar rbar^T.
            let l = self.angular - self.mass * rbar.cross(out.mean_velocity);
            let s = self.second - outer(self.mass * rbar, rbar);
            let trace = s.x_axis.x + s.y_axis.y + s.z_axis.z;
            let inertia = DMat3::from_diagonal(DVec3::splat(trace)) - s;
            out.angular_velocity = Some(pseudo_solve(inertia, l));
            out.orientation = Some(rotation(self.shape));
        }
        out
    }
}

/// Eigenvalues and unit eigenvectors (columns) of the symmetric matrix `m`, by cyclic Jacobi
/// rotations (a fixed cap of sweeps, deterministic).
pub(crate) fn symmetric_eigen(m: DMat3) -> (DVec3, DMat3) {
    let mut a = m;
    let mut v = DMat3::IDENTITY;
    let scale: f64 = m.to_cols_array().iter().map(|x| x * x).sum();
    for _sweep in 0..32 {
        let off = a.y_axis.x.powi(2) + a.z_axis.x.powi(2) + a.z_axis.y.powi(2);
        if off <= 1e-32 * scale || off == 0.0 {
            break;
        }
        for (p, q) in [(0, 1), (0, 2), (1, 2)] {
            let apq = a.col(q)[p];
            if apq == 0.0 {
                continue;
            }
            let theta = (a.col(q)[q] - a.col(p)[p]) / (2.0 * apq);
            let t = theta.signum() / (theta.abs() + (theta * theta + 1.0).sqrt());
            let c = 1.0 / (t * t + 1.0).sqrt();
            let s = t * c;
            // The plane rotation J with J_pp = J_qq = c, J_pq = s, J_qp = -s: J^T A J zeroes a_pq.
            let mut j = DMat3::IDENTITY;
            j.col_mut(p)[p] = c;
            j.col_mut(q)[q] = c;
            j.col_mut(q)[p] = s;
            j.col_mut(p)[q] = -s;
            a = j.transpose() * a * j;
            v *= j;
        }
    }
    (DVec3::new(a.x_axis.x, a.y_axis.y, a.z_axis.z), v)
}

/// The least-norm solution `x` of `m x = b` for the symmetric matrix `m`: its pseudo-inverse,
/// eigenvalues below [`INERTIA_CUTOFF`] times the largest counting as zero.
pub(crate) fn pseudo_solve(m: DMat3, b: DVec3) -> DVec3 {
    let (values, vectors) = symmetric_eigen(m);
    let largest = values.abs().max_element();
    if !(largest > 0.0 && largest.is_finite()) {
        return DVec3::ZERO;
    }
    let mut x = DVec3::ZERO;
    for k in 0..3 {
        let lambda = values[k];
        if lambda.abs() > INERTIA_CUTOFF * largest {
            let e = vectors.col(k);
            x += e * (e.dot(b) / lambda);
        }
    }
    x
}

/// `trace(R(q)^T a)`: how well the rotation fits `a`.
fn fit(q: DQuat, a: DMat3) -> f64 {
    let r = DMat3::from_quat(q);
    r.x_axis.dot(a.x_axis) + r.y_axis.dot(a.y_axis) + r.z_axis.dot(a.z_axis)
}

/// Müller et al.'s iteration from `q`: at most [`ORIENTATION_ITERATIONS`] updates.
fn refine(mut q: DQuat, a: DMat3) -> DQuat {
    for _ in 0..ORIENTATION_ITERATIONS {
        let r = DMat3::from_quat(q);
        let torque = r.x_axis.cross(a.x_axis) + r.y_axis.cross(a.y_axis) + r.z_axis.cross(a.z_axis);
        let w = torque / (fit(q, a).abs() + 1e-9);
        let angle = w.length();
        if !(angle >= 1e-12 && angle.is_finite()) {
            break;
        }
        q = (DQuat::from_axis_angle(w / angle, angle) * q).normalize();
    }
    q
}

/// The rotational part of `a` (the rotation maximising `trace(R^T a)`), by quaternion iteration
/// from the identity, then restarts from half-turns about the found frame's axes, each kept only
/// if it fits strictly better. `a` is scaled to unit Frobenius norm first (the rotation does not
/// depend on the scale, and the iteration's `eps` is then relative). The identity for a zero or
/// non-finite `a`.
pub(crate) fn rotation(a: DMat3) -> DMat3 {
    let norm = a.to_cols_array().iter().map(|x| x * x).sum::<f64>().sqrt();
    if !(norm > 0.0 && norm.is_finite()) {
        return DMat3::IDENTITY;
    }
    let a = a * (1.0 / norm);
    let mut q = refine(DQuat::IDENTITY, a);
    let mut best = fit(q, a);
    for axis in [DVec3::X, DVec3::Y, DVec3::Z] {
        let turned = refine(q * DQuat::from_axis_angle(axis, std::f64::consts::PI), a);
        let f = fit(turned, a);
        if f > best + 1e-9 {
            q = turned;
            best = f;
        }
    }
    DMat3::from_quat(q)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn close(a: DMat3, b: DMat3, tol: f64) -> bool {
        a.to_cols_array()
            .iter()
            .zip(b.to_cols_array())
            .all(|(x, y)| (x - y).abs() < tol)
    }

    /// The eigen decomposition reassembles the matrix (f64 rounding over a few sweeps: 1e-12).
    #[test]
    fn symmetric_eigen_reassembles_the_matrix() {
        let m = DMat3::from_cols(
            DVec3::new(4.0, 1.0, -2.0),
            DVec3::new(1.0, 3.0, 0.5),
            DVec3::new(-2.0, 0.5, 6.0),
        );
        let (values, v) = symmetric_eigen(m);
        let back = v * DMat3::from_diagonal(values) * v.transpose();
        assert!(close(back, m, 1e-12), "{back} vs {m}");
        assert!(close(v.transpose() * v, DMat3::IDENTITY, 1e-12));
    }

    /// The rotation of `R0 S` (S symmetric positive definite) is `R0`, for turns up to and
    /// including half a turn (the identity's stationary point), and for rank-2 (flat) `S`.
    #[test]
    fn rotation_of_a_stretched_rotation_is_the_rotation() {
        let s = DMat3::from_diagonal(DVec3::new(3.0, 2.0, 1.0));
        let flat = DMat3::from_diagonal(DVec3::new(3.0, 2.0, 0.0));
        for (axis, angle) in [
            (DVec3::new(1.0, 2.0, 3.0).normalize(), 0.7),
            (DVec3::Z, std::f64::consts::PI),
            (DVec3::new(0.0, 1.0, 1.0).normalize(), 3.0),
        ] {
            let r0 = DMat3::from_axis_angle(axis, angle);
            for shape in [s, flat] {
                let r = rotation(r0 * shape);
                // Converged to f64 rounding of the iteration's 1e-12 rad stop: 1e-9 per entry.
                assert!(close(r, r0, 1e-9), "{axis} {angle}: {r} vs {r0}");
            }
        }
        assert_eq!(rotation(DMat3::ZERO), DMat3::IDENTITY);
    }

    /// A cube spinning at w about its centre reads w (the sums start from zero matrices).
    #[test]
    fn spinning_cube_sums_read_its_angular_velocity() {
        let w = DVec3::new(0.5, -1.0, 1.5);
        let mut s = BodySums::default();
        for i in 0..8 {
            let x = 0.1
                * DVec3::new(
                    f64::from(i & 1) - 0.5,
                    f64::from((i >> 1) & 1) - 0.5,
                    f64::from((i >> 2) & 1) - 0.5,
                );
            if i == 0 {
                s.reference = x;
            }
            s.add(0.1, x - s.reference, w.cross(x), x);
        }
        let r = s.reading(true);
        assert!((r.angular_velocity.unwrap() - w).length() < 1e-12);
        assert!(r.centre_of_mass.length() < 1e-15);
    }

    /// The pseudo-inverse of a straight rope's inertia (zero along the rope) gives the
    /// least-norm solution: no component along the rope.
    #[test]
    fn pseudo_solve_drops_the_null_direction() {
        let m = DMat3::from_diagonal(DVec3::new(0.0, 2.0, 2.0));
        let x = pseudo_solve(m, DVec3::new(0.0, 4.0, -2.0));
        assert!((x - DVec3::new(0.0, 2.0, -1.0)).length() < 1e-12);
    }
}
