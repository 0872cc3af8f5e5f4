//! Scenes both benchmarks (`cpu`, `gpu`) time.

use hooke::builders::{Lattice, ParticleBed};
use hooke::population::{Evaluation, Population};
use hooke::{Contact, DVec3, Friction, Model, Obstacle, Params, Shape};

/// A collision scene of the benchmarks: its name in the reports, and the model.
pub(crate) struct CollisionScene {
    /// `lattice_<n>` or `bed_<count>`.
    pub(crate) name: String,
    pub(crate) model: Model,
    /// Steps to run before timing: the lattice falls a little (its first ground contacts are
    /// part of the work); a bed's lower layers settle onto one another, so that particles touch.
    pub(crate) warm_up: u64,
}

/// The benchmark lattice of side `n` with every mass colliding, radius half the spacing (5 mm):
/// a mass's 26 lattice neighbours are all joined to it by springs, so no pair ever collides; the
/// pass still visits them all (the broad phase and the exclusion test at full price).
pub(crate) fn colliding_lattice(n: u32) -> CollisionScene {
    let lattice = Lattice::benchmark(n);
    let mut model = lattice.model().expect("lattice");
    for m in &mut model.masses {
        m.collision_radius = lattice.spacing / 2.0;
    }
    CollisionScene {
        name: format!("lattice_{n}"),
        model,
        warm_up: 5,
    }
}

/// `ParticleBed::benchmark(count)`: loose particles about ten layers deep, 20 um apart, falling
/// onto the ground and onto one another. After the warm-up of 100 steps (10 ms; layer `k` has
/// closed its gaps after `sqrt(2 k 20 um / g)`, 6.4 ms for the tenth) the bed is compressed on
/// the ground, with about 0.9 touching pairs per particle (90 000 in the bed of 10^5); timed
/// steps go on from there (the bed rebounds and settles, damped).
pub(crate) fn bed(count: u32) -> CollisionScene {
    CollisionScene {
        name: format!("bed_{count}"),
        model: ParticleBed::benchmark(count).model().expect("bed"),
        warm_up: 100,
    }
}

/// The collision scenes at the benchmark sizes: the lattice at n = 40 and beds of 10^5, 3 x 10^5
/// and 10^6 particles (in CI's quick mode n = 6 and beds of 1 000 and 3 000).
pub(crate) fn collision_scenes(quick: bool) -> Vec<CollisionScene> {
    let (n, beds): (u32, &[u32]) = if quick {
        (6, &[1_000, 3_000])
    } else {
        (40, &[100_000, 300_000, 1_000_000])
    };
    std::iter::once(colliding_lattice(n))
        .chain(beds.iter().map(|&c| bed(c)))
        .collect()
}

/// `model` with every collision radius set to 0: the same step without the collision pass.
pub(crate) fn without_collisions(model: &Model) -> Model {
    let mut model = model.clone();
    for m in &mut model.masses {
        m.collision_radius = 0.0;
    }
    model
}

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
                centre: DVec3::new((i as f64 + 0.5) * run, side / 2.0, -0.005 * i as f64 - 0.5),
                half_extents: DVec3::new(run / 2.0, side / 2.0, 0.5),
            }
        };
        model.add_obstacle(Obstacle::new(shape, contact, Friction::coulomb(0.5, 0.4)));
    }
    model
}

/// The population benchmarks (`cpu_population`, `gpu_population`): the first `robots` of
/// `Population::benchmark` (seeded random 4 x 4 x 3 voxel robots, about 92 masses, 630 springs
/// and 480 actuated springs each) for each size, and the evaluation they get: 0.1 s simulated
/// (1 000 steps of 0.1 ms, one control period; the step cost is what scales with population
/// size, so docs/PERFORMANCE.md converts to 10 s evaluations). Populations of 10, 100 and 1 000
/// robots; in CI's quick mode 2 and 5 robots for 5 ms.
pub(crate) fn populations(quick: bool) -> (Vec<Population>, Evaluation) {
    let (sizes, duration): (&[usize], f64) = if quick {
        (&[2, 5], 0.005)
    } else {
        (&[10, 100, 1_000], 0.1)
    };
    let largest = sizes.iter().copied().max().unwrap_or(0);
    let all = Population::benchmark(largest).expect("benchmark population");
    let populations = sizes
        .iter()
        .map(|&n| Population {
            robots: all.robots[..n].to_vec(),
            ..Population::default()
        })
        .collect();
    let eval = Evaluation {
        duration,
        // The frictionless ground the recorded measurements (docs/PERFORMANCE.md) ran on, not
        // the evaluation's default (the robots preset), so that they stay comparable.
        params: Params::lipson_cube(),
        ..Evaluation::default()
    };
    (populations, eval)
}
