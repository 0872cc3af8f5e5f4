//! Scenes both benchmarks (`cpu`, `gpu`) time.

use hooke::builders::Lattice;
use hooke::{Contact, DVec3, Friction, Model, Obstacle, Shape};

/// The benchmark lattice of side `n` (docs/BENCHMARK_SCENE.md) with `k` obstacles of `kind`:
/// - `"planes"`: planes tilted by 0.01 i rad, 10 m below the lattice. A plane has no bounds, so
///   every mass computes every plane's distance each step without touching it: the most an
///   obstacle costs a mass it does not touch.
/// - `"steps"`: `k` boxes 1 m deep side by side along x under the lattice, tops 5 mm apart from
///   the ground's level down. A mass tests each box's bounds and computes the distance only to
///   the box it is over and within (the broad phase).
pub(crate) fn obstacle_model(n: u32, kind: &str, k: usize) -> Model {
    let mut model = Lattice::benchmark(n).model().expect("lattice");
    let contact = Contact::Penalty {
        stiffness: 1e5,
        damping: 0.0,
    };
    let side = f64::from(n) * 0.01;
    for i in 0..k {
        let shape = if kind == "planes" {
            let a = 0.01 * i as f64;
            Shape::Plane {
                normal: DVec3::new(a.sin(), 0.0, a.cos()),
                offset: -10.0,
            }
        } else {
            let run = side / k as f64;
            Shape::Box {
                center: DVec3::new((i as f64 + 0.5) * run, side / 2.0, -0.005 * i as f64 - 0.5),
                half_extents: DVec3::new(run / 2.0, side / 2.0, 0.5),
            }
        };
        model.add_obstacle(Obstacle::new(shape, contact, Friction::coulomb(0.5, 0.4)));
    }
    model
}
