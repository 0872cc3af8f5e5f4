//! The energy books' balance `total + dissipated - injected` over a run, scene by scene: how fast
//! it converges as the time step shrinks (dt, dt/2, dt/4: the ratio of two errors is `2^p` for a
//! method of order `p`), and how far it moves at the scenes' own time step.
//!
//! What the derivation allows (the guide's energy page): semi-implicit Euler keeps the shadow
//! energy `H + dt/2 sum F_c . v` (`F_c` the conservative forces) constant to O(dt^2), while the
//! plain energy `H` swings around it by O(dt). A muscle's rest-length change is booked as the jump
//! of its spring's share of the shadow energy, so with muscles alone (no contact, friction or
//! damping) the shadow balance converges at order 2; booking the plain elastic jump instead gave
//! order 1 (0.38 J/s on the walker at its dt). With everything on, the plain balance carries the
//! O(dt) swing, and spring damping (booked at the step's start velocity) and penalty contact
//! (a force that switches on within a step) keep first-order terms of their own: order 1, with
//! small constants.

use std::path::Path;

use hooke::prelude::*;

/// Every scene with a creature (muscles).
const CREATURE_SCENES: [&str; 5] = [
    "walker",
    "walker_rough",
    "walker_slope",
    "walker_stairs",
    "slope",
];

/// Every scene whose bodies collide.
const COLLISION_SCENES: [&str; 3] = ["collisions_cloth", "collisions_cubes", "collisions_pile"];

fn scene_model(name: &str) -> Model {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join(format!("scenes/{name}.json"));
    Scene::load(path).unwrap().to_model().unwrap()
}

/// `model` at time step `dt / div`.
fn at_dt(model: &Model, div: f64) -> Model {
    let mut m = model.clone();
    m.params.dt /= div;
    m
}

/// The creature of `model` alone in the air: no ground, obstacles, friction, drag or damping of
/// any kind, so the only forces are springs and gravity (conservative) and the muscles.
fn muscles_only(model: &Model) -> Model {
    let mut m = model.clone();
    m.params.contact = Contact::None;
    m.params.velocity_damping = 0.0;
    m.params.air_drag = 0.0;
    m.obstacles.clear();
    for s in &mut m.springs {
        s.damping = 0.0;
    }
    m
}

/// The shadow balance of `w`: its balance plus `dt/2 sum F_c . v`, with `F_c` the springs'
/// (undamped: elastic only) and gravity's force on each mass.
fn shadow_balance(w: &mut CpuWorld, model: &Model) -> f64 {
    let (f, v) = (w.spring_forces().unwrap(), w.velocities().unwrap());
    let power: f64 = model
        .masses
        .iter()
        .zip(f.iter().zip(&v))
        .map(|(m, (f, v))| (*f + m.mass * model.params.gravity).dot(*v))
        .sum();
    w.energy().unwrap().balance() + 0.5 * model.params.dt * power
}

/// The order `log2(e0 / e1)` of two errors at dt and dt/2.
fn order(e0: f64, e1: f64) -> f64 {
    (e0.abs() / e1.abs()).log2()
}

/// With muscles alone, the shadow balance's change over 0.1 s at dt, dt/2 and dt/4 falls at
/// order 2. Margin: the next term of the error is smaller by a factor of about `omega dt`, with
/// `omega = sqrt(2 k / m)` the fastest spring mode (k = 10 kN/m, m = 0.1 kg: 450 rad/s, so 0.045
/// at dt = 1e-4 s), which moves a measured order by at most `omega dt / ln 2 = 0.07`; 0.3 leaves
/// room for fourfold faster modes and lies far from the first order the plain elastic jump gave.
/// The changes are far above f64 rounding (`1e-16 E` per step, 4 000 steps: 1e-12 J).
#[test]
fn muscles_work_converges_at_second_order_in_every_creature_scene() {
    for name in CREATURE_SCENES {
        let model = muscles_only(&scene_model(name));
        let drift: Vec<f64> = [1.0, 2.0, 4.0]
            .iter()
            .map(|&div| {
                let m = at_dt(&model, div);
                let mut w = CpuWorld::new(&m).unwrap();
                let b0 = shadow_balance(&mut w, &m);
                w.step_for(0.1).unwrap();
                assert!(
                    w.energy().unwrap().injected.abs() > 1e-3,
                    "{name}: no muscle work"
                );
                shadow_balance(&mut w, &m) - b0
            })
            .collect();
        let p = [order(drift[0], drift[1]), order(drift[1], drift[2])];
        eprintln!("{name}: shadow balance drift {drift:?} J, orders {p:?}");
        assert!(
            drift[2].abs() > 1e-10,
            "{name}: drift {drift:?} near rounding"
        );
        for p in p {
            assert!(
                (p - 2.0).abs() <= 0.3,
                "{name}: order {p} (drifts {drift:?} J)"
            );
        }
    }
}

/// The largest change of the balance over `duration` at `model`'s dt, sampled every 0.01 s, and
/// the initial total energy, J.
fn balance_excursion(model: &Model, duration: f64) -> (f64, f64) {
    let mut w = CpuWorld::new(model).unwrap();
    let e0 = w.energy().unwrap();
    let mut worst = 0.0f64;
    let samples = (duration / 0.01).round() as usize;
    for _ in 0..samples {
        w.step_for(0.01).unwrap();
        worst = worst.max((w.energy().unwrap().balance() - e0.balance()).abs());
    }
    (worst, e0.total())
}

/// Asserts that the balance's largest excursion over `duration` at `model`'s dt, dt/2 and dt/4
/// falls at order 0.75 or faster (the margins: see the callers).
fn converges_at_first_order(name: &str, model: &Model, duration: f64) {
    let excursion: Vec<f64> = [1.0, 2.0, 4.0]
        .iter()
        .map(|&div| balance_excursion(&at_dt(model, div), duration).0)
        .collect();
    let p = [
        order(excursion[0], excursion[1]),
        order(excursion[1], excursion[2]),
    ];
    eprintln!("{name}: balance excursion {excursion:?} J, orders {p:?}");
    assert!(
        excursion[2] > 1e-10,
        "{name}: excursions {excursion:?} J near rounding: nothing to measure an order of"
    );
    for p in p {
        assert!(p >= 0.75, "{name}: order {p} (excursions {excursion:?} J)");
    }
}

/// With everything on, the balance's largest excursion over 0.2 s converges at order 1 or
/// faster (the O(dt) swing of the plain energy, plus the first-order terms of damping and
/// contact; margin 0.25: the excursions' second-order parts, at most `omega dt` relative, and
/// the few contact events of 0.2 s), and at the scenes' dt it stays within 0.3 % of the initial
/// total over 1 s, the goal of a few percent over 10 s for a drift that grows linearly (measured:
/// at most 0.09 % over 10 s).
#[test]
fn balance_converges_in_every_creature_scene() {
    for name in CREATURE_SCENES {
        let model = scene_model(name);
        converges_at_first_order(name, &model, 0.2);
        let (worst, e0) = balance_excursion(&model, 1.0);
        assert!(
            worst <= 3e-3 * e0.abs(),
            "{name}: balance moved {worst} J in 1 s, total {e0} J"
        );
    }
}

/// The goal over its full length: at the scenes' dt, the balance of every creature and collision
/// scene stays within 3 % of the initial total energy over 10 s. Long in debug builds.
#[test]
#[ignore = "10 s of every creature and collision scene: minutes in debug builds"]
fn balance_stays_within_three_percent_over_ten_seconds() {
    for name in CREATURE_SCENES.into_iter().chain(COLLISION_SCENES) {
        let (worst, e0) = balance_excursion(&scene_model(name), 10.0);
        eprintln!("{name}: balance moved at most {worst} J, total {e0} J");
        assert!(worst <= 0.03 * e0.abs(), "{name}: {worst} J of {e0} J");
    }
}

/// How long each collision scene's motion stays the same motion at dt, dt/2 and dt/4, s: the
/// cloth lands on the sphere at 0.09 s and drapes; the pile's boxes land at 0.11 s; the two cubes
/// touch at 0.16 s and part by 0.25 s. Later the cloth's folds and the pile's stack turn chaotic:
/// at 0.3 s the cloth's runs at dt/4 and dt/8 differ by 8 mm, at 0.4 s by 6 cm, and their
/// balances then measure different motions, whose books cannot be compared step size by step
/// size (that comparison, over 0.5 s, once read as orders 0.85 and 0.52 for the cloth).
const COLLISION_WINDOWS: [(&str, f64); 3] = [
    ("collisions_cloth", 0.2),
    ("collisions_cubes", 0.3),
    ("collisions_pile", 0.2),
];

/// The largest distance between the same mass in `a` and `b`, m.
fn largest_distance(a: &mut CpuWorld, b: &mut CpuWorld) -> f64 {
    let (a, b) = (a.positions().unwrap(), b.positions().unwrap());
    a.iter()
        .zip(&b)
        .map(|(p, q)| p.distance(*q))
        .fold(0.0, f64::max)
}

/// In every collision scene the contact books converge at order 1 or faster: over the scene's
/// window (above) at dt, dt/2 and dt/4, the shadow balance's largest change (the plain balance
/// less the O(dt) swing of springs and gravity, which would otherwise hide the contacts: the
/// cloth's free fall alone swings the plain balance by 1e-3 J) falls at order 0.75 or faster;
/// measured: cloth 1.02 and 1.01, cubes 1.13 and 1.15, pile 1.63 and 1.39. Penalty contact
/// switching on within a step (whose own swing `dt/2 F . v` is left in: at most first order),
/// restitution impulses and spring damping at the step's start promise no more than order 1;
/// margin 0.25 as in the creature scenes. The test checks its premise
/// too: the runs stay the same motion, their largest position difference shrinking with dt
/// and below 1 mm (a twelfth of the cloth's contact radius, the smallest).
#[test]
fn contact_books_converge_at_first_order_in_every_collision_scene() {
    for (name, window) in COLLISION_WINDOWS {
        let model = scene_model(name);
        let mut runs: Vec<(Model, CpuWorld, f64, f64)> = [1.0, 2.0, 4.0]
            .iter()
            .map(|&div| {
                let m = at_dt(&model, div);
                let mut w = CpuWorld::new(&m).unwrap();
                let b0 = shadow_balance(&mut w, &m);
                (m, w, b0, 0.0)
            })
            .collect();
        let mut apart = [0.0f64; 2];
        for _ in 0..(window / 0.01).round() as usize {
            for (m, w, b0, worst) in &mut runs {
                w.step_for(0.01).unwrap();
                *worst = worst.max((shadow_balance(w, m) - *b0).abs());
            }
            let [a, b, c] = &mut runs[..] else {
                unreachable!()
            };
            apart[0] = apart[0].max(largest_distance(&mut a.1, &mut b.1));
            apart[1] = apart[1].max(largest_distance(&mut b.1, &mut c.1));
        }
        let change: Vec<f64> = runs.iter().map(|r| r.3).collect();
        let p = [order(change[0], change[1]), order(change[1], change[2])];
        eprintln!(
            "{name}: shadow balance change {change:?} J, orders {p:?}; runs apart {apart:?} m"
        );
        assert!(
            apart[1] < apart[0] && apart[0] < 1e-3,
            "{name}: the runs at dt, dt/2, dt/4 part ({apart:?} m): not one motion"
        );
        assert!(
            change[2] > 1e-10,
            "{name}: changes {change:?} J near rounding: nothing to measure an order of"
        );
        for p in p {
            assert!(p >= 0.75, "{name}: order {p} (changes {change:?} J)");
        }
    }
}
