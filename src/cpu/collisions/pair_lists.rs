//! The collision pass in two phases, so that each touching pair's force is computed once.
//!
//! 1. `find`, per mass `i` (threads take contiguous ranges of masses): walk the 27 cells around
//!    `i` in the grid's fixed order and list every colliding mass that passes the distance
//!    test, in that order; for a listed mass of higher index, compute the pair's force on `i`
//!    (the lower index), once, and keep it if they touch.
//! 2. `gather`, per mass `i`, after every range is found: sum the forces of `i`'s list in its
//!    order, its own for higher neighbours and the exact negative of the force the lower
//!    neighbour's list holds for `i`.
//!
//! The sums are bit for bit those of computing each pair from both of its masses: the same
//! terms (the force of each pair computed with the lower index first), added in the same order.

use std::ops::Range;

use glam::DVec3;

use super::{Collider, PairLists, State, Touch};
use crate::model::Runs;

/// The force slot of an entry whose pair is computed by the other mass, or does not touch.
const NONE: u32 = u32::MAX;

impl PairLists {
    /// Mass `i`'s entries (`i` in this range).
    fn entries(&self, i: usize) -> Range<usize> {
        let k = i - self.first;
        self.starts[k] as usize..self.starts[k + 1] as usize
    }

    /// The force of the pair (`i`, `other`) on `i` (`i < other`), if `i` listed `other` and
    /// they touch.
    fn force_on_lower(&self, i: usize, other: usize) -> Option<&Touch> {
        let entries = self.entries(i);
        let k = self.other[entries.clone()]
            .iter()
            .position(|&o| o as usize == other)?;
        self.forces.get(self.slot[entries.start + k] as usize)
    }
}

impl Collider {
    /// Phase 1 for masses `first..first + count`, into `lists`.
    ///
    /// The distance test runs first, on the grid's copies of the candidates' positions and radii
    /// (a run of consecutive slots): `|p_i - p_j|^2 >= (r_i + r_j)^2` has the same bits whichever
    /// mass comes first, so it rejects exactly the pairs [`Collider::pair_of`] would, and the
    /// few that pass are then checked for being `i` itself or (hashed) in another cell.
    pub(super) fn find(&self, first: usize, count: usize, lists: &mut PairLists, s: &State<'_>) {
        let grid = &self.grid;
        lists.first = first;
        lists.starts.clear();
        lists.other.clear();
        lists.slot.clear();
        lists.forces.clear();
        lists.starts.push(0);
        for i in first..first + count {
            if self.pairs.radius[i] > 0.0 {
                let (p, r, own) = (s.pos[i], self.pairs.radius[i], grid.slot(i));
                match grid.runs(i, p, r) {
                    Runs::Rows(rows) => {
                        for run in rows {
                            self.scan(i, p, r, run, |slot| slot != own, lists, s);
                        }
                    }
                    Runs::Hashed(cells) => {
                        for (run, cell) in cells {
                            let neighbour = |slot| slot != own && grid.in_cell(slot, cell);
                            self.scan(i, p, r, run, neighbour, lists, s);
                        }
                    }
                }
            }
            lists.starts.push(lists.other.len() as u32);
        }
    }

    /// The distance test of mass `i` (at `p`, m, radius `r`, m) against the slots of `run`;
    /// lists each that passes and is a `neighbour`.
    #[inline(always)]
    #[allow(clippy::too_many_arguments)]
    fn scan(
        &self,
        i: usize,
        p: DVec3,
        r: f64,
        run: Range<u32>,
        neighbour: impl Fn(usize) -> bool,
        lists: &mut PairLists,
        s: &State<'_>,
    ) {
        let start = run.start as usize;
        let (pos, radius) = self.grid.run_data(run);
        for (n, (q, rj)) in pos.iter().zip(radius).enumerate() {
            let reach = r + rj;
            if (p - *q).length_squared() >= reach * reach {
                continue;
            }
            if neighbour(start + n) {
                self.list(i, self.grid.mass(start + n), lists, s);
            }
        }
    }

    /// Lists `j` (which passed the distance test) in `i`'s entries, with the pair's force when
    /// `i < j` and they touch. Kept out of line: the distance loop that calls it stays small
    /// enough to be inlined into each row of the grid's walk.
    #[inline(never)]
    fn list(&self, i: usize, j: usize, lists: &mut PairLists, s: &State<'_>) {
        let force = match (i < j).then(|| self.pair_of(i, j, s)).flatten() {
            Some(f) => {
                lists.forces.push(f);
                (lists.forces.len() - 1) as u32
            }
            None => NONE,
        };
        lists.other.push(j as u32);
        lists.slot.push(force);
    }

    /// Phase 2: the collision force on masses `first..first + out.len()`, into `out`, from the
    /// lists of every range (range `k` holds masses `k per..(k + 1) per`).
    pub(super) fn gather(&self, first: usize, out: &mut [Touch], lists: &[PairLists], per: usize) {
        for (k, t) in out.iter_mut().enumerate() {
            let i = first + k;
            *t = Touch::default();
            let own = &lists[i / per];
            for e in own.entries(i) {
                let j = own.other[e] as usize;
                let f = if i < j {
                    own.forces.get(own.slot[e] as usize)
                } else {
                    let other = lists[j / per].force_on_lower(j, i);
                    debug_assert!(
                        lists[j / per]
                            .entries(j)
                            .any(|x| lists[j / per].other[x] as usize == i),
                        "mass {j} did not list {i}, which listed it"
                    );
                    other
                };
                if let Some(f) = f {
                    // `f` acts on the lower index; the higher gets its exact negative.
                    let sign = if i < j { 1.0 } else { -1.0 };
                    t.conservative += sign * f.conservative;
                    t.dissipative += sign * f.dissipative;
                }
            }
        }
    }
}
