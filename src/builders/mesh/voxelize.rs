//! The voxelizer: which cells of a grid of spacing `a` have their centre inside a closed
//! triangle mesh, decided column by column with exact predicates, so that every machine finds
//! the same cells.
//!
//! # The rule
//!
//! Cell `[i, j, k]` spans `[i a, (i + 1) a]` on x (likewise y, z) in the mesh's frame; its
//! centre is `c = ((i + 1/2) a, (j + 1/2) a, (k + 1/2) a)`, each coordinate rounded once to
//! `f64`. The cell is filled when an odd number of the mesh's triangles cross the vertical line
//! through `c` at or below `c` (the even-odd rule along +z).
//!
//! Ties are broken by simulation of simplicity: the line is moved by an infinitesimal
//! `(epsilon, epsilon^2)` in (x, y), and the centre by `delta` up, with
//! `0 < epsilon^2 << epsilon << delta`. Then
//! - a line through a triangle's edge or corner in plan view belongs to exactly one of the
//!   triangles there: `orient2d(u, v, p) = 0` for an edge `u -> v` gains
//!   `(u.y - v.y) epsilon + (v.x - u.x) epsilon^2`, whose sign is that of `u.y - v.y`, or of
//!   `v.x - u.x` when `u.y = v.y` (never both zero: no triangle is degenerate). Two triangles
//!   sharing an edge run it in opposite directions, so the moved line crosses one of them when
//!   they lie on either side of it in plan, both or neither when they fold over it: the count's
//!   parity is right either way;
//! - a triangle seen edge-on from above (zero area in plan) is never crossed;
//! - a crossing exactly at the height of a centre counts as below it: a face lying on a plane of
//!   centres fills the cells above it (half-open cells `[z0, z1)` along z).
//!
//! Every sign is exact (Shewchuk's adaptive predicates, `robust::orient2d` and
//! `robust::orient3d`, whose floating-point filter falls back to exact arithmetic), so the
//! result depends only on the `f64` vertex coordinates and the `f64` centres, never on rounding
//! inside the tests, the order of the triangles or the machine. The height of a crossing is only
//! estimated in floating point, as a first guess at which centre it falls below; the exact test
//! then decides.

use std::path::Path;

use glam::DVec3;
use robust::{orient2d, orient3d, Coord, Coord3D};

use super::{mesh_error, TriangleMesh};
use crate::error::Result;
use crate::validate::MAX_BUILT_ELEMENTS;

/// The most column tests (a triangle against a column its bounding rectangle covers) one
/// voxelization may need: 2^32, some minutes of work. A voxel size that needs more is refused
/// before the work starts.
pub const MAX_COLUMN_TESTS: f64 = 4_294_967_296.0;

/// Springs per mass of a full voxel lattice, rounded up (13 in the bulk): the estimate of a
/// grid's masses and springs that [`MAX_BUILT_ELEMENTS`] bounds is `14 (nx+1)(ny+1)(nz+1)`.
const ELEMENTS_PER_CORNER: f64 = 14.0;

/// The grid of cell centres that may lie inside the mesh: cells `lo[axis]..lo[axis] + n[axis]`.
#[derive(Clone, Copy, Debug)]
struct Grid {
    a: f64,
    lo: [i64; 3],
    n: [usize; 3],
}

impl Grid {
    /// Centre coordinate of cell `lo + i` along `axis`, m.
    fn centre(&self, axis: usize, i: usize) -> f64 {
        ((self.lo[axis] + i as i64) as f64 + 0.5) * self.a
    }

    /// The cells whose centres lie in `[min, max]` along `axis`, widened by one on each side
    /// (the exact tests decide), clamped to the grid: `(first, past_last)`.
    fn span(&self, axis: usize, min: f64, max: f64) -> (usize, usize) {
        let first = (min / self.a - 0.5).floor() - 1.0 - self.lo[axis] as f64;
        let last = (max / self.a - 0.5).ceil() + 1.0 - self.lo[axis] as f64;
        let n = self.n[axis] as f64;
        (
            first.clamp(0.0, n) as usize,
            (last + 1.0).clamp(0.0, n) as usize,
        )
    }
}

impl TriangleMesh {
    /// The cells `[i, j, k]` of spacing `voxel` (m) whose centres lie inside the mesh, by the
    /// rule of this module's docs, listed by `k`, then `j`, then `i`. The mesh should be closed
    /// ([`TriangleMesh::check_closed`]); an open one gives columns with an odd number of
    /// crossings.
    ///
    /// # Errors
    /// [`Error::Mesh`](crate::Error::Mesh) naming `path` when the mesh has no vertices, when
    /// `voxel` is not finite and > 0, when the grid over the mesh's bounding box passes 32-bit
    /// cell indices, would make more masses and springs than
    /// [`MAX_BUILT_ELEMENTS`](crate::MAX_BUILT_ELEMENTS) if full, or needs more than
    /// [`MAX_COLUMN_TESTS`] column tests (all refused before anything is allocated), or when no
    /// centre lies inside (the voxel is too large for the shape).
    pub fn voxel_cells(&self, voxel: f64, path: &Path) -> Result<Vec<[i32; 3]>> {
        let grid = self.grid(voxel, path)?;
        let [nx, ny, nz] = grid.n;
        // toggles[(j nx + i) nz + k]: an odd number of crossings fall just below centre k.
        let mut toggles = vec![false; nx * ny * nz];
        for t in 0..self.triangles.len() {
            self.cross_columns(t, &grid, &mut toggles);
        }
        let mut cells = Vec::new();
        let mut inside = vec![false; nx * ny];
        for k in 0..nz {
            for j in 0..ny {
                for i in 0..nx {
                    let column = j * nx + i;
                    inside[column] ^= toggles[column * nz + k];
                    if inside[column] {
                        let at = |axis: usize, c: usize| (grid.lo[axis] + c as i64) as i32;
                        cells.push([at(0, i), at(1, j), at(2, k)]);
                    }
                }
            }
        }
        if cells.is_empty() {
            return Err(mesh_error(path, format!("no voxel centre lies inside the mesh at voxel size {voxel} m: the body would be empty; use a smaller voxel")));
        }
        Ok(cells)
    }

    /// The grid over the mesh's bounding box at spacing `a`, refused when too large.
    fn grid(&self, a: f64, path: &Path) -> Result<Grid> {
        if !(a.is_finite() && a > 0.0) {
            return Err(mesh_error(
                path,
                format!("voxel size {a} m must be finite and > 0"),
            ));
        }
        let Some((min, max)) = self.bounds() else {
            return Err(mesh_error(path, "has no vertices".into()));
        };
        // Widened by one cell on each side: a centre on the box's boundary rounds either way.
        let lo = (min / a - 0.5).ceil() - DVec3::ONE;
        let hi = (max / a - 0.5).floor() + DVec3::ONE;
        let limit = f64::from(i32::MAX) - 1.0;
        if lo.min_element() < -limit || hi.max_element() > limit {
            return Err(mesh_error(path, format!("voxel size {a} m is too small for a mesh spanning {min} to {max} m: cell indices pass 32 bits")));
        }
        let n = (hi - lo + DVec3::ONE).max(DVec3::ZERO);
        let elements = ELEMENTS_PER_CORNER * (n + DVec3::ONE).element_product();
        if elements > MAX_BUILT_ELEMENTS {
            return Err(mesh_error(path, format!("voxel size {a} m makes a grid of {} x {} x {} cells over the mesh, up to {elements:.3e} masses and springs: more than hooke::MAX_BUILT_ELEMENTS (134217728); use a larger voxel", n.x, n.y, n.z)));
        }
        let grid = Grid {
            a,
            lo: lo.to_array().map(|v| v as i64),
            n: n.to_array().map(|v| v as usize),
        };
        self.check_work(&grid, path)?;
        Ok(grid)
    }

    /// Refuses a grid whose column tests (each triangle against the columns its bounding
    /// rectangle covers) pass [`MAX_COLUMN_TESTS`].
    fn check_work(&self, grid: &Grid, path: &Path) -> Result<()> {
        let mut tests = 0.0;
        for t in 0..self.triangles.len() {
            let [p, q, r] = self.corners(t);
            let (min, max) = (p.min(q).min(r), p.max(q).max(r));
            let (i0, i1) = grid.span(0, min.x, max.x);
            let (j0, j1) = grid.span(1, min.y, max.y);
            tests += ((i1 - i0) * (j1 - j0)) as f64;
        }
        if tests > MAX_COLUMN_TESTS {
            return Err(mesh_error(path, format!("voxel size {} m needs {tests:.3e} column tests over {} triangles, more than the 2^32 allowed (minutes of work); use a larger voxel", grid.a, self.triangles.len())));
        }
        Ok(())
    }

    /// Toggles, in every column that triangle `t` crosses, the first centre at or above the
    /// crossing.
    fn cross_columns(&self, t: usize, grid: &Grid, toggles: &mut [bool]) {
        let [p, q, r] = self.corners(t);
        let plan = |v: DVec3| Coord { x: v.x, y: v.y };
        let facing = orient2d(plan(p), plan(q), plan(r));
        if facing == 0.0 {
            return; // edge-on from above: never crossed
        }
        let (min, max) = (p.min(q).min(r), p.max(q).max(r));
        let (i0, i1) = grid.span(0, min.x, max.x);
        let (j0, j1) = grid.span(1, min.y, max.y);
        let [nx, _, nz] = grid.n;
        for j in j0..j1 {
            for i in i0..i1 {
                let (x, y) = (grid.centre(0, i), grid.centre(1, j));
                if !covers([p, q, r], x, y, facing) {
                    continue;
                }
                let k = first_centre_above([p, q, r], x, y, facing, grid);
                if k < nz {
                    let slot = &mut toggles[(j * nx + i) * nz + k];
                    *slot = !*slot;
                }
            }
        }
    }
}

/// Whether the vertical line through `(x, y)`, moved by `(epsilon, epsilon^2)`, crosses the
/// triangle `corners`, whose plan orientation has the sign of `facing` (not 0).
fn covers(corners: [DVec3; 3], x: f64, y: f64, facing: f64) -> bool {
    let point = Coord { x, y };
    (0..3).all(|e| {
        let (u, v) = (corners[e], corners[(e + 1) % 3]);
        let mut side = orient2d(Coord { x: u.x, y: u.y }, Coord { x: v.x, y: v.y }, point);
        if side == 0.0 {
            side = if u.y != v.y { u.y - v.y } else { v.x - u.x };
        }
        (side > 0.0) == (facing > 0.0)
    })
}

/// The first centre `k` of the column at `(x, y)` with the triangle's crossing at or below it
/// (`grid.n[2]` when none is): the smallest `k` where `below(k)` holds, `below` being monotone.
fn first_centre_above(corners: [DVec3; 3], x: f64, y: f64, facing: f64, grid: &Grid) -> usize {
    let [p, q, r] = corners.map(|v| Coord3D {
        x: v.x,
        y: v.y,
        z: v.z,
    });
    // orient3d > 0 when the centre lies below the plane of (p, q, r) seen counterclockwise from
    // above, i.e. below the plane when facing > 0: the crossing is at or below the centre when
    // the sign is not that.
    let below = |k: usize| {
        let c = Coord3D {
            x,
            y,
            z: grid.centre(2, k),
        };
        let side = orient3d(p, q, r, c);
        side == 0.0 || (side > 0.0) != (facing > 0.0)
    };
    let nz = grid.n[2];
    let guess = estimate(corners, x, y, grid).min(nz);
    if guess < nz && below(guess) && (guess == 0 || !below(guess - 1)) {
        return guess;
    }
    // Binary search over [0, nz]: below(nz) counts as true.
    let (mut lo, mut hi) = (0, nz);
    while lo < hi {
        let mid = lo + (hi - lo) / 2;
        if below(mid) {
            hi = mid;
        } else {
            lo = mid + 1;
        }
    }
    lo
}

/// A floating-point guess at the first centre at or above the plane's height at `(x, y)`.
fn estimate(corners: [DVec3; 3], x: f64, y: f64, grid: &Grid) -> usize {
    let [p, q, r] = corners;
    let normal = (q - p).cross(r - p);
    let z = p.z - (normal.x * (x - p.x) + normal.y * (y - p.y)) / normal.z;
    let k = (z / grid.a - 0.5).ceil() - grid.lo[2] as f64;
    if k.is_finite() {
        k.clamp(0.0, grid.n[2] as f64) as usize
    } else {
        0
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_predicates_have_the_signs_the_rule_assumes() {
        let c = |x, y| Coord { x, y };
        assert!(orient2d(c(0.0, 0.0), c(1.0, 0.0), c(0.0, 1.0)) > 0.0);
        let d = |x, y, z| Coord3D { x, y, z };
        let (p, q, r) = (d(0.0, 0.0, 0.0), d(1.0, 0.0, 0.0), d(0.0, 1.0, 0.0));
        assert!(orient3d(p, q, r, d(0.2, 0.2, -1.0)) > 0.0);
        assert!(orient3d(p, q, r, d(0.2, 0.2, 1.0)) < 0.0);
    }
}
