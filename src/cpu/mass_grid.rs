//! [`MassGrid`]: the broad phase of collisions between masses. A uniform grid in 3D with cells
//! the largest collision diameter wide, rebuilt every step by counting sort; a mass then visits
//! the 27 cells around its own. Two masses that touch are less than a cell apart along each
//! axis, so each finds the other in one of those cells: the grid misses no pair.
//!
//! The grid is hashed: cell coordinates `(i, j, k) = floor(p / cell)` map into a table of
//! `2^b >= 2 n` buckets (`n` colliding masses), so it needs no bounds and memory is linear in the
//! masses whatever the extent of the scene (no scene is too large for it). When the box of
//! occupied cells has no more cells than buckets (compact scenes: lattices, piles), the "hash"
//! is the cell's dense number in that box, x fastest, which keeps neighbours close in memory
//! (several times faster than a scattering hash on the n = 40 lattice). Masses of different
//! cells that share a bucket are told apart by their cell coordinates, so a bucket is never
//! visited for a cell it does not hold. Building is linear: count per bucket, prefix sum, then
//! scatter the masses in index order, so each bucket lists its masses in increasing index and
//! the visiting order (27 cells in a fixed order, each cell's masses by index) depends only on the
//! positions, never on threads. A coordinate beyond `i64` (positions past 9e18 cells) saturates.

use glam::DVec3;

/// The grid over the colliding masses (see the module docs).
#[derive(Clone, Debug, Default)]
pub(super) struct MassGrid {
    /// Cell side, m: the largest collision diameter.
    cell: f64,
    /// Bucket count minus one (the count is a power of two).
    bucket_mask: u64,
    /// When the occupied cells' bounding box has no more cells than buckets: its lowest cell
    /// and its size along x and y. Cells are then numbered densely (x fastest), so neighbours
    /// along x sit in neighbouring buckets and no two cells of the box share one.
    dense: Option<([i64; 3], i64, i64)>,
    /// Cell coordinates of each mass (meaningful for colliding masses only).
    cells: Vec<[i64; 3]>,
    /// `buckets + 1` offsets into `entries`.
    starts: Vec<u32>,
    /// Mass indices, grouped by bucket, each bucket in increasing index.
    entries: Vec<u32>,
}

impl MassGrid {
    /// Rebuilds the grid for `members` (the colliding masses, in increasing index) at `pos` (m),
    /// with cells `cell` m wide (> 0).
    pub(super) fn build(&mut self, members: &[u32], pos: &[DVec3], cell: f64) {
        let buckets = (2 * members.len()).max(1).next_power_of_two();
        self.cell = cell;
        self.bucket_mask = buckets as u64 - 1;
        self.cells.resize(pos.len(), [0; 3]);
        self.starts.clear();
        self.starts.resize(buckets + 1, 0);
        let (mut lo, mut hi) = ([i64::MAX; 3], [i64::MIN; 3]);
        for &i in members {
            let c = self.cell_of(pos[i as usize]);
            self.cells[i as usize] = c;
            for a in 0..3 {
                lo[a] = lo[a].min(c[a]);
                hi[a] = hi[a].max(c[a]);
            }
        }
        self.dense = None;
        let size = |a: usize| hi[a].checked_sub(lo[a]).and_then(|d| d.checked_add(1));
        if let (Some(nx), Some(ny), Some(nz)) = (size(0), size(1), size(2)) {
            let cells = nx.checked_mul(ny).and_then(|v| v.checked_mul(nz));
            if cells.is_some_and(|v| v <= buckets as i64) {
                self.dense = Some((lo, nx, ny));
            }
        }
        // Count per bucket (shifted by one, so the prefix sum leaves the starts in place).
        for &i in members {
            let b = self.bucket(self.cells[i as usize]);
            self.starts[b + 1] += 1;
        }
        for b in 0..buckets {
            self.starts[b + 1] += self.starts[b];
        }
        // Scatter in index order, each bucket's cursor starting at its start.
        let mut cursor = self.starts[..buckets].to_vec();
        self.entries.clear();
        self.entries.resize(members.len(), 0);
        for &i in members {
            let b = self.bucket(self.cells[i as usize]);
            self.entries[cursor[b] as usize] = i;
            cursor[b] += 1;
        }
    }

    /// The cell holding `p` (m).
    fn cell_of(&self, p: DVec3) -> [i64; 3] {
        let c = (p / self.cell).floor();
        // `as` saturates (and maps NaN to 0), which is all the broad phase needs.
        [c.x as i64, c.y as i64, c.z as i64]
    }

    /// The bucket of cell `c`: its dense number in the box (see `dense`; a neighbour outside
    /// the box lands in some bucket and is told apart by its coordinates), or a hash.
    fn bucket(&self, c: [i64; 3]) -> usize {
        if let Some((lo, nx, ny)) = self.dense {
            let k = c[2].wrapping_sub(lo[2]).wrapping_mul(ny);
            let k = k.wrapping_add(c[1].wrapping_sub(lo[1])).wrapping_mul(nx);
            let k = k.wrapping_add(c[0].wrapping_sub(lo[0]));
            return (k as u64 & self.bucket_mask) as usize;
        }
        let h = (c[0] as u64).wrapping_mul(0x9E37_79B9_7F4A_7C15)
            ^ (c[1] as u64).wrapping_mul(0xC2B2_AE3D_27D4_EB4F)
            ^ (c[2] as u64).wrapping_mul(0x1656_67B1_9E37_79F9);
        ((h ^ (h >> 29)) & self.bucket_mask) as usize
    }

    /// Calls `visit(j)` for every colliding mass `j != i` in the 27 cells around mass `i`'s (a
    /// member of the last build), in the fixed order of the module docs. With dense numbering the
    /// three cells of a row along x are three consecutive buckets, read as one range: the same
    /// masses in the same order.
    pub(super) fn neighbours(&self, i: usize, mut visit: impl FnMut(usize)) {
        let c = self.cells[i];
        for row in 0..9 {
            let (dy, dz) = ((row % 3) as i64 - 1, (row / 3) as i64 - 1);
            let (y, z) = (c[1].wrapping_add(dy), c[2].wrapping_add(dz));
            let first = self.bucket([c[0].wrapping_sub(1), y, z]);
            let last = self.bucket([c[0].wrapping_add(1), y, z]);
            if self.dense.is_some() && last == first + 2 {
                let range = self.starts[first] as usize..self.starts[last + 1] as usize;
                for &j in &self.entries[range] {
                    let j = j as usize;
                    let d = self.cells[j];
                    if j != i && d[1] == y && d[2] == z && d[0].wrapping_sub(c[0]).abs() <= 1 {
                        visit(j);
                    }
                }
                continue;
            }
            for dx in -1..=1 {
                let cell = [c[0].wrapping_add(dx), y, z];
                let b = self.bucket(cell);
                for &j in &self.entries[self.starts[b] as usize..self.starts[b + 1] as usize] {
                    let j = j as usize;
                    if j != i && self.cells[j] == cell {
                        visit(j);
                    }
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Each bucket lists its masses in increasing index, and every member is listed once.
    #[test]
    fn counting_sort_keeps_index_order() {
        let pos: Vec<DVec3> = (0..200)
            .map(|i| {
                let t = f64::from(i);
                DVec3::new((t * 0.37).sin(), (t * 0.11).cos(), (t * 0.05).sin()) * 0.5
            })
            .collect();
        let members: Vec<u32> = (0..200).filter(|i| i % 3 != 0).collect();
        let mut grid = MassGrid::default();
        grid.build(&members, &pos, 0.1);
        let mut seen = grid.entries.clone();
        for w in grid.starts.windows(2) {
            let list = &grid.entries[w[0] as usize..w[1] as usize];
            assert!(list.windows(2).all(|p| p[0] < p[1]), "{list:?}");
        }
        seen.sort_unstable();
        assert_eq!(seen, members);
    }
}
