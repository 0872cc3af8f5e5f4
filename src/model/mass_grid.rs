//! [`MassGrid`]: the broad phase of collisions between masses. A uniform grid in 3D with cells
//! the largest collision diameter wide, rebuilt every step by counting sort; a mass then visits
//! the 27 cells around its own. Two masses that touch are less than a cell apart along each
//! axis, so each finds the other in one of those cells: the grid misses no pair.
//!
//! Cells are numbered densely when the box of occupied cells, padded by one cell on every side,
//! has at most [`DENSE_CELLS_PER_MEMBER`] cells per colliding mass (compact scenes: lattices,
//! piles, beds): the number of cell `(i, j, k)` is its place in that box, x fastest, so the
//! three cells of a row along x are three consecutive numbers and all 27 neighbours of an
//! occupied cell are in the box. Otherwise (bodies far apart) the grid is hashed: cell
//! coordinates `(i, j, k) = floor(p / cell)` map into a table of `2^b >= 2 n` buckets (`n`
//! colliding masses), so it needs no bounds and memory is linear in the masses whatever the
//! extent of the scene (no scene is too large for it); masses of different cells that share a
//! bucket are told apart by their cell coordinates, so a bucket is never visited for a cell it
//! does not hold.
//!
//! Building is linear: count per bucket, prefix sum, then scatter the masses in index order, so
//! each bucket lists its masses in increasing index and the visiting order (27 cells in the fixed
//! (dz, dy, dx) order, each cell's masses by index) depends only on the positions, never on
//! threads. The scatter also copies each mass's position and radius into bucket order, so a
//! visit reads its candidates' data from consecutive memory (with dense numbering a row of three
//! cells is one range). A coordinate beyond `i64` (positions past 9e18 cells) saturates.

use std::ops::Range;

use glam::DVec3;

/// The most cells, per colliding mass, that the padded box of occupied cells may have for the
/// grid to number them densely (each cell costs 4 bytes of offsets and one step of the prefix
/// sum); sparser scenes are hashed.
const DENSE_CELLS_PER_MEMBER: usize = 8;

/// Dense numbering: the padded box's lowest cell and its size along x and y.
#[derive(Clone, Copy, Debug)]
struct Dense {
    /// The lowest occupied cell minus one on each axis.
    lo: [i64; 3],
    /// Cells along x, and along x times along y.
    nx: usize,
    nxy: usize,
}

impl Dense {
    /// The number of cell `c` (inside the padded box).
    fn number(&self, c: [i64; 3]) -> usize {
        let [x, y, z] = [0, 1, 2].map(|a| c[a].wrapping_sub(self.lo[a]) as usize);
        z * self.nxy + y * self.nx + x
    }
}

/// The grid over the colliding masses (see the module docs).
#[derive(Clone, Debug, Default)]
pub(crate) struct MassGrid {
    /// Cell side, m: the largest collision diameter.
    cell: f64,
    /// Dense numbering, or `None` for the hash.
    dense: Option<Dense>,
    /// Bucket count minus one, when hashed (the count is a power of two).
    bucket_mask: u64,
    /// `buckets + 1` offsets into the slots.
    starts: Vec<u32>,
    /// Per bucket, the next free slot while scattering.
    cursor: Vec<u32>,
    /// Cell and bucket of each member, in member order (while building).
    member_cell: Vec<[i64; 3]>,
    member_bucket: Vec<u32>,
    /// Slot of each mass (meaningful for members of the last build only).
    slot: Vec<u32>,
    /// Per slot (members grouped by bucket, each bucket in increasing index): the mass index,
    /// its cell, position (m) and collision radius (m).
    mass: Vec<u32>,
    cells: Vec<[i64; 3]>,
    pos: Vec<DVec3>,
    radius: Vec<f64>,
}

impl MassGrid {
    /// Rebuilds the grid for `members` (the colliding masses, in increasing index) at `pos` (m)
    /// with collision radii `radius` (m, per mass), with cells `cell` m wide (> 0).
    pub(crate) fn build(&mut self, members: &[u32], pos: &[DVec3], radius: &[f64], cell: f64) {
        self.cell = cell;
        self.member_cell.clear();
        self.member_cell
            .extend(members.iter().map(|&i| cell_of(pos[i as usize], cell)));
        let buckets = self.choose_numbering(members.len());
        self.member_bucket.clear();
        self.starts.clear();
        self.starts.resize(buckets + 1, 0);
        // Count per bucket (shifted by one, so the prefix sum leaves the starts in place).
        for m in 0..self.member_cell.len() {
            let b = self.bucket(self.member_cell[m]);
            self.member_bucket.push(b as u32);
            self.starts[b + 1] += 1;
        }
        for b in 0..buckets {
            self.starts[b + 1] += self.starts[b];
        }
        // Scatter in index order, each bucket's cursor starting at its start.
        self.cursor.clear();
        self.cursor.extend_from_slice(&self.starts[..buckets]);
        let n = members.len();
        self.slot.resize(pos.len(), u32::MAX);
        self.mass.resize(n, 0);
        self.cells.resize(n, [0; 3]);
        self.pos.resize(n, DVec3::ZERO);
        self.radius.resize(n, 0.0);
        for (m, &i) in members.iter().enumerate() {
            let b = self.member_bucket[m] as usize;
            let k = self.cursor[b] as usize;
            self.cursor[b] += 1;
            self.slot[i as usize] = k as u32;
            self.mass[k] = i;
            self.cells[k] = self.member_cell[m];
            self.pos[k] = pos[i as usize];
            self.radius[k] = radius[i as usize];
        }
    }

    /// Chooses dense numbering or the hash for the cells in `member_cell` (`members` of them),
    /// and returns the bucket count.
    fn choose_numbering(&mut self, members: usize) -> usize {
        let (mut lo, mut hi) = ([i64::MAX; 3], [i64::MIN; 3]);
        for c in &self.member_cell {
            for a in 0..3 {
                lo[a] = lo[a].min(c[a]);
                hi[a] = hi[a].max(c[a]);
            }
        }
        // Padded by one cell on each side: hi - lo + 3 cells per axis, from lo - 1.
        let size = |a: usize| {
            let n = hi[a].checked_sub(lo[a])?.checked_add(3)?;
            lo[a].checked_sub(1)?;
            usize::try_from(n).ok()
        };
        let limit = DENSE_CELLS_PER_MEMBER * members + 64;
        self.dense = None;
        if let (Some(nx), Some(ny), Some(nz)) = (size(0), size(1), size(2)) {
            let cells = nx.checked_mul(ny).and_then(|v| v.checked_mul(nz));
            if let Some(cells) = cells.filter(|&v| v <= limit) {
                self.dense = Some(Dense {
                    lo: lo.map(|v| v - 1),
                    nx,
                    nxy: nx * ny,
                });
                return cells;
            }
        }
        let buckets = (2 * members).max(1).next_power_of_two();
        self.bucket_mask = buckets as u64 - 1;
        buckets
    }

    /// The bucket of cell `c`: its dense number, or its hash.
    fn bucket(&self, c: [i64; 3]) -> usize {
        if let Some(dense) = &self.dense {
            return dense.number(c);
        }
        let h = (c[0] as u64).wrapping_mul(0x9E37_79B9_7F4A_7C15)
            ^ (c[1] as u64).wrapping_mul(0xC2B2_AE3D_27D4_EB4F)
            ^ (c[2] as u64).wrapping_mul(0x1656_67B1_9E37_79F9);
        ((h ^ (h >> 29)) & self.bucket_mask) as usize
    }

    /// The slot of mass `i` (a member of the last build).
    pub(crate) fn slot(&self, i: usize) -> usize {
        self.slot[i] as usize
    }

    /// The mass in slot `k`.
    pub(crate) fn mass(&self, k: usize) -> usize {
        self.mass[k] as usize
    }

    /// The runs of consecutive slots that hold the colliding masses of the 27 cells around mass
    /// `i`'s (a member of the last build), in the fixed order of the module docs, each with the
    /// cell its neighbours must be in: `Runs::Rows` with dense numbering, where a run is a row of
    /// three cells along x (three consecutive buckets: the same masses in the same order as
    /// cell by cell) and every slot in it is a neighbour; `Runs::Hashed` otherwise, where a run
    /// is one cell's bucket and only its slots whose cell is that cell are neighbours. Runs
    /// include `i`'s own slot ([`MassGrid::slot`]).
    ///
    /// Rows leave out the cells that no mass within reach of `i` can be in: those farther from
    /// `p` (`i`'s position, m) than `r` (`i`'s radius, m) plus the largest radius (half a
    /// cell). The gap from `p` to a neighbouring cell is taken a little short (by `1e-12` of
    /// the coordinates, far more than the rounding of `floor(p / cell)` and of the cell's
    /// corner), and a cell is left out only when its squared gap exceeds the squared reach by
    /// `1e-9` of it (far more than the rounding of the distance test): the masses left out are
    /// exactly some of those the distance test would reject, and the order of the others is
    /// unchanged.
    #[inline]
    pub(crate) fn runs(&self, i: usize, p: DVec3, r: f64) -> Runs {
        let c = self.cells[self.slot(i)];
        if let Some(dense) = &self.dense {
            let centre = dense.number(c);
            let gap = Gaps::new(p, c, self.cell);
            let reach = r + 0.5 * self.cell;
            let far = reach * reach * (1.0 + 1e-9);
            return Runs::Rows(std::array::from_fn(|row| {
                let (dy, dz) = (row % 3, row / 3);
                // The row's middle cell, (x, y + dy - 1, z + dz - 1); its neighbours along x
                // are the numbers either side (all inside the padded box).
                let mid = centre + dz * dense.nxy + dy * dense.nx - dense.nxy - dense.nx;
                let yz = gap.y[dy] + gap.z[dz];
                if yz >= far {
                    return 0..0;
                }
                let first = if yz + gap.x[0] >= far { mid } else { mid - 1 };
                let last = if yz + gap.x[2] >= far { mid } else { mid + 1 };
                self.starts[first]..self.starts[last + 1]
            }));
        }
        Runs::Hashed(std::array::from_fn(|k| {
            let (dx, dy, dz) = (
                (k % 3) as i64 - 1,
                (k / 3 % 3) as i64 - 1,
                (k / 9) as i64 - 1,
            );
            let cell = [
                c[0].wrapping_add(dx),
                c[1].wrapping_add(dy),
                c[2].wrapping_add(dz),
            ];
            let b = self.bucket(cell);
            (self.starts[b]..self.starts[b + 1], cell)
        }))
    }

    /// Whether slot `k` is in `cell`.
    pub(crate) fn in_cell(&self, k: usize, cell: [i64; 3]) -> bool {
        self.cells[k] == cell
    }

    /// Positions (m) and radii (m) of the slots of `run`.
    pub(crate) fn run_data(&self, run: Range<u32>) -> (&[DVec3], &[f64]) {
        let run = run.start as usize..run.end as usize;
        (&self.pos[run.clone()], &self.radius[run])
    }

    /// Calls `visit(j)` for every colliding mass `j != i` in the 27 cells around mass `i`'s
    /// (at `p`, m, with radius `r`, m) that may be within reach of it, in the order of
    /// [`MassGrid::runs`].
    pub(crate) fn neighbours(&self, i: usize, p: DVec3, r: f64, mut visit: impl FnMut(usize)) {
        let own = self.slot(i);
        let mut scan = |run: Range<u32>, cell: Option<[i64; 3]>| {
            for k in run.start as usize..run.end as usize {
                if k != own && cell.is_none_or(|c| self.in_cell(k, c)) {
                    visit(self.mass(k));
                }
            }
        };
        match self.runs(i, p, r) {
            Runs::Rows(rows) => rows.into_iter().for_each(|run| scan(run, None)),
            Runs::Hashed(cells) => cells.into_iter().for_each(|(run, c)| scan(run, Some(c))),
        }
    }
}

/// Lower bounds of the squared distance from a point to the neighbouring cells of its own,
/// along each axis: index 0 the cell below, 1 its own (0), 2 the cell above, m^2.
struct Gaps {
    x: [f64; 3],
    y: [f64; 3],
    z: [f64; 3],
}

impl Gaps {
    /// The gaps from `p` (m) in cell `c` of a grid of cells `cell` m wide (see
    /// [`MassGrid::runs`] for the margin). Non-finite inputs give gaps that leave nothing out.
    fn new(p: DVec3, c: [i64; 3], cell: f64) -> Self {
        let along = |v: f64, c: i64| {
            let low = c as f64 * cell;
            let margin = 1e-12 * (v.abs() + low.abs() + cell);
            let below = (v - low - margin).max(0.0);
            let above = (low + cell - v - margin).max(0.0);
            [below * below, 0.0, above * above]
        };
        Self {
            x: along(p.x, c[0]),
            y: along(p.y, c[1]),
            z: along(p.z, c[2]),
        }
    }
}

/// The runs of slots around one mass ([`MassGrid::runs`]).
// A value on the stack of the pass's loop, made and used once per mass: boxing the hashed
// variant would allocate per mass.
#[allow(clippy::large_enum_variant)]
pub(crate) enum Runs {
    /// Dense numbering: the nine rows of three cells, every slot a neighbour.
    Rows([Range<u32>; 9]),
    /// Hashed: the 27 cells' buckets, each with the cell its neighbours are in.
    Hashed([(Range<u32>, [i64; 3]); 27]),
}

/// The cell holding `p` (m) in a grid of cells `cell` m wide: `floor(p / cell)` on each axis.
/// The floor is taken on the integer side (truncate, then step down where that rounded up):
/// the same integer as `f64::floor` for every input, without a libm call on targets without
/// SSE4.1.
fn cell_of(p: DVec3, cell: f64) -> [i64; 3] {
    let c = p / cell;
    // `as` saturates (and maps NaN to 0), which is all the broad phase needs.
    [c.x, c.y, c.z].map(|v| {
        let t = v as i64;
        if (t as f64) > v {
            t.saturating_sub(1)
        } else {
            t
        }
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Each bucket lists its masses in increasing index, every member is listed once, and each
    /// slot holds its mass's position and radius.
    #[test]
    fn counting_sort_keeps_index_order() {
        let pos: Vec<DVec3> = (0..200)
            .map(|i| {
                let t = f64::from(i);
                DVec3::new((t * 0.37).sin(), (t * 0.11).cos(), (t * 0.05).sin()) * 0.25
            })
            .collect();
        let radius: Vec<f64> = (0..200).map(|i| 0.001 * f64::from(i)).collect();
        let members: Vec<u32> = (0..200).filter(|i| i % 3 != 0).collect();
        for spread in [0.0, 1e3] {
            let pos: Vec<DVec3> = pos
                .iter()
                .enumerate()
                .map(|(i, p)| *p + DVec3::X * spread * (i % 2) as f64)
                .collect();
            let mut grid = MassGrid::default();
            grid.build(&members, &pos, &radius, 0.1);
            assert_eq!(grid.dense.is_some(), spread == 0.0);
            for w in grid.starts.windows(2) {
                let list = &grid.mass[w[0] as usize..w[1] as usize];
                assert!(list.windows(2).all(|p| p[0] < p[1]), "{list:?}");
            }
            let mut seen = grid.mass.clone();
            seen.sort_unstable();
            assert_eq!(seen, members);
            for &i in &members {
                let k = grid.slot(i as usize);
                assert_eq!(grid.mass(k), i as usize);
                assert_eq!(grid.pos[k], pos[i as usize]);
                assert_eq!(grid.radius[k], radius[i as usize]);
            }
        }
    }

    /// The cell is `f64::floor` of `p / cell` on every axis, at and around integers, for
    /// negative values, huge ones (saturated) and NaN (0).
    #[test]
    fn cell_of_is_the_floor() {
        let values = [
            0.0,
            -0.0,
            0.3,
            -0.3,
            1.0,
            -1.0,
            2.9999999999999996,
            -2.9999999999999996,
            4.5e15,
            -4.5e15,
            9.1e18,
            -9.1e18,
            1e300,
            -1e300,
            f64::INFINITY,
            f64::NEG_INFINITY,
            f64::NAN,
        ];
        for v in values {
            let expected = v.floor() as i64;
            assert_eq!(cell_of(DVec3::splat(v), 1.0), [expected; 3], "{v}");
            let p = DVec3::splat(v * 0.01);
            assert_eq!(cell_of(p, 0.01)[0], (p.x / 0.01).floor() as i64, "{v}");
        }
    }
}
