//! [`ObstacleGrid`]: the broad phase of obstacle contact, shared by both backends. A uniform grid
//! over the xy footprint of the bounded obstacles; each cell lists, in model order, every
//! obstacle whose bounds (grown by a margin) reach into it and every unbounded one (a plane). A
//! mass visits only its cell's list, or outside the grid the unbounded obstacles alone, and then
//! tests each listed obstacle's bounds: so a mass pays for the obstacles near it, not for all.
//!
//! The lists hold every obstacle that can touch a mass in the cell, in model order, so visiting
//! them gives exactly what visiting every obstacle gives. The grid reaches one cell beyond every
//! bounded obstacle, and each obstacle is listed in the cells its bounds reach within a margin
//! (a thousandth of a cell plus f32 rounding of the coordinates), so a mass whose cell the GPU
//! computes in f32 one cell off, at a cell boundary, still finds every obstacle it is near.

use glam::{DVec2, DVec3};

/// Cells at most (64 x 64 when square).
const MAX_CELLS: usize = 4096;
/// Cells aimed at per bounded obstacle.
const CELLS_PER_OBSTACLE: usize = 16;

/// The grid and its lists (see the module docs).
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct ObstacleGrid {
    /// Corner of cell (0, 0) with the lowest x and y, m.
    pub(crate) origin: DVec2,
    /// 1 / the side of a cell, 1/m.
    pub(crate) inverse_cell: f64,
    /// Cells along x and y (both 0 when no obstacle is bounded).
    pub(crate) columns: u32,
    pub(crate) rows: u32,
    /// `columns * rows + 2` offsets into `items`: cell `c = row * columns + column` lists
    /// `items[starts[c]..starts[c + 1]]`; list `columns * rows` is for masses outside the grid.
    pub(crate) starts: Vec<u32>,
    /// Obstacle indices, each list in increasing (model) order.
    pub(crate) items: Vec<u32>,
}

impl ObstacleGrid {
    /// The grid of obstacles with `bounds` (`None` for an unbounded one), in model order.
    pub(crate) fn new(bounds: &[Option<(DVec3, DVec3)>]) -> Self {
        let boxes: Vec<(DVec2, DVec2)> = bounds
            .iter()
            .flatten()
            .map(|(lo, hi)| (lo.truncate(), hi.truncate()))
            .collect();
        let Some((lo, hi)) = boxes
            .iter()
            .copied()
            .reduce(|(a, b), (c, d)| (a.min(c), b.max(d)))
        else {
            let items = (0..bounds.len() as u32).collect::<Vec<_>>();
            return Self {
                origin: DVec2::ZERO,
                inverse_cell: 1.0,
                columns: 0,
                rows: 0,
                starts: vec![0, items.len() as u32],
                items,
            };
        };
        let cell = cell_side(hi - lo, boxes.len());
        // One cell of border all round: a mass outside the grid is a cell away from every box.
        let origin = lo - DVec2::splat(cell);
        let columns = ((hi.x - origin.x) / cell).floor() as u32 + 2;
        let rows = ((hi.y - origin.y) / cell).floor() as u32 + 2;
        let mut grid = Self {
            origin,
            inverse_cell: 1.0 / cell,
            columns,
            rows,
            starts: Vec::new(),
            items: Vec::new(),
        };
        grid.fill(bounds, cell);
        grid
    }

    /// Builds the lists, cell by cell, each in model order.
    fn fill(&mut self, bounds: &[Option<(DVec3, DVec3)>], cell: f64) {
        let cells = (self.columns * self.rows) as usize;
        let mut lists: Vec<Vec<u32>> = vec![Vec::new(); cells + 1];
        for (k, b) in bounds.iter().enumerate() {
            let Some((lo, hi)) = b else {
                for list in &mut lists {
                    list.push(k as u32);
                }
                continue;
            };
            let (lo, hi) = (lo.truncate(), hi.truncate());
            let reach = lo.abs().max(hi.abs()).max(self.origin.abs()).max_element();
            let margin = 1e-3 * cell + 8.0 * f64::from(f32::EPSILON) * reach;
            let (i0, j0) = self.clamped(lo - margin);
            let (i1, j1) = self.clamped(hi + margin);
            for j in j0..=j1 {
                for i in i0..=i1 {
                    lists[(j * self.columns + i) as usize].push(k as u32);
                }
            }
        }
        self.starts = Vec::with_capacity(cells + 2);
        for list in &lists {
            self.starts.push(self.items.len() as u32);
            self.items.extend_from_slice(list);
        }
        self.starts.push(self.items.len() as u32);
    }

    /// The cell holding `p` (m), clamped to the grid.
    fn clamped(&self, p: DVec2) -> (u32, u32) {
        let c = ((p - self.origin) * self.inverse_cell).floor();
        let clamp = |v: f64, n: u32| (v.max(0.0) as u32).min(n - 1);
        (clamp(c.x, self.columns), clamp(c.y, self.rows))
    }

    /// The list a mass at `x` (m) visits: its cell's, or outside the grid (or for a non-finite
    /// `x`) the unbounded obstacles'. Twin of `grid_list` in `shaders/shared/obstacles.wgsl`.
    pub(crate) fn list(&self, x: DVec3) -> &[u32] {
        let u = ((x.x - self.origin.x) * self.inverse_cell).floor();
        let v = ((x.y - self.origin.y) * self.inverse_cell).floor();
        let inside =
            u >= 0.0 && u < f64::from(self.columns) && v >= 0.0 && v < f64::from(self.rows);
        let c = if inside {
            v as usize * self.columns as usize + u as usize
        } else {
            (self.columns * self.rows) as usize
        };
        &self.items[self.starts[c] as usize..self.starts[c + 1] as usize]
    }
}

/// The side of a cell (m) for boxes spanning `size` (m): about [`CELLS_PER_OBSTACLE`] cells per
/// box, at most [`MAX_CELLS`] with the border.
fn cell_side(size: DVec2, boxes: usize) -> f64 {
    let size = size.max(DVec2::splat(1e-6));
    let target = (CELLS_PER_OBSTACLE * boxes).clamp(16, MAX_CELLS) as f64;
    let mut cell = (size.x * size.y / target)
        .sqrt()
        .max(size.max_element() / 1e3);
    while ((size.x / cell).floor() + 3.0) * ((size.y / cell).floor() + 3.0) > MAX_CELLS as f64 {
        cell *= 1.25;
    }
    cell
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every obstacle whose bounds hold a point is on the point's list, in model order, for
    /// points all over (and beyond) a staircase, a plane and two boxes far apart.
    #[test]
    fn a_point_finds_every_obstacle_whose_bounds_hold_it() {
        let mut bounds: Vec<Option<(DVec3, DVec3)>> = (0..20)
            .map(|i| {
                let x = 0.1 * f64::from(i);
                Some((
                    DVec3::new(x, 0.0, -1.0),
                    DVec3::new(x + 0.1, 1.0, 0.02 * f64::from(i)),
                ))
            })
            .collect();
        bounds.insert(3, None);
        bounds.push(Some((DVec3::splat(-5.0), DVec3::splat(-4.9))));
        bounds.push(Some((
            DVec3::new(0.5, 0.5, -1.0),
            DVec3::new(1.5, 0.7, 1.0),
        )));
        let grid = ObstacleGrid::new(&bounds);
        assert!(grid.columns * grid.rows <= MAX_CELLS as u32);
        let mut visited = 0;
        for i in -60..=260 {
            for j in -60..=160 {
                // Points on and next to cell boundaries, in f32 as the GPU sees them.
                let p = DVec3::new(
                    f64::from(i) * 0.0125 - 5.0,
                    f64::from(j) * 0.0125 - 0.5,
                    0.0,
                );
                let p32 = p.as_vec3().as_dvec3();
                for q in [p, p32] {
                    let list = grid.list(q);
                    assert!(
                        list.windows(2).all(|w| w[0] < w[1]),
                        "{list:?} not in order"
                    );
                    for (k, b) in bounds.iter().enumerate() {
                        let holds = b.is_none_or(|(lo, hi)| {
                            q.x >= lo.x && q.x <= hi.x && q.y >= lo.y && q.y <= hi.y
                        });
                        if holds {
                            assert!(list.contains(&(k as u32)), "obstacle {k} missed at {q}");
                        }
                    }
                    visited += list.len();
                }
            }
        }
        // The broad phase pays: far fewer visits than every obstacle for every point.
        assert!(
            visited < 321 * 221 * 2 * bounds.len() / 4,
            "{visited} visits"
        );
        assert_eq!(grid.list(DVec3::splat(f64::NAN)), &[3]);
    }

    /// Without bounded obstacles the grid is empty and every mass visits every obstacle.
    #[test]
    fn only_planes_give_one_list_of_everything() {
        let grid = ObstacleGrid::new(&[None, None]);
        assert_eq!((grid.columns, grid.rows), (0, 0));
        assert_eq!(grid.list(DVec3::new(1.0, 2.0, 3.0)), &[0, 1]);
    }
}
