//! Bodies that touch: two jelly cubes colliding head-on in free space, a pile of fifty
//! soft bodies dropped into a box, and a cloth dropped on a ball that drapes and folds onto
//! itself, each from [`hooke::collision_scenes`] at its default size, on the CPU reference
//! (`--backend gpu`: on the GPU World, the same loop through [`Simulation`]).
//!
//! For each it prints, over the run, the closest any two masses that may touch came, as a
//! fraction of their contact distance `r_a + r_b` (below 1 they touch; the tests hold it above
//! 0.5), how many pairs touch at the end, and how many of those started at least four contact
//! distances apart (in the cloth: folds, layers of cloth lying on one another); then what the
//! scene is about (the cubes' momentum and bounce, the pile's kinetic energy against its drop, the
//! cloth's lowest and highest point).
//!
//! | scene | measured (CPU reference) |
//! |---|---|
//! | `cubes` (0.5 s) | closest approach 0.994 of the contact distance; the cubes leave at -0.389 and +0.389 m/s (from 0.5: the rest wobbles in them); total momentum 2e-15 kg m/s |
//! | `pile` (3 s) | closest approach 0.972; at rest 204 touching pairs, kinetic energy 1.5e-4 J, 1.3e-6 of the 121 J the drop released |
//! | `cloth` (4 s) | closest approach 0.980; at rest 32 touching pairs, 22 of them across folds |
//!
//! Writes to `out/collisions/`: `<scene>.gif` (springs coloured by strain, the cubes' and
//! lattices' faces shaded; the cloth as shaded squares only; a camera that does not move) and
//! `<scene>_energy.png` (every energy term over time; the collision penalty is in the contact
//! term). The cloth lies exactly on the ground and the ball, so they are drawn 3 mm lower than
//! they push (see `drawn`), or they would show through it.
//!
//! `--write-scenes DIR` writes the three scenes as scene files instead (`collisions_cubes.json`,
//! `collisions_pile.json`, `collisions_cloth.json`; the repository's `scenes/` holds them), for
//! `hooke run` (`--gif`).
//!
//! Run: `cargo run --release --example collisions -- [cubes|pile|cloth|all] [--backend
//! auto|cpu|gpu]` (default all, `auto`: the GPU World on a hardware GPU, else the CPU reference)

#[path = "terrain/scene_json.rs"]
mod scene_json;

use std::collections::HashSet;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use clap::{Parser, ValueEnum};
use hooke::collision_scenes::{ClothOnSphere, HeadOnCubes, Pile};
use hooke::render::{
    record_with, Camera, Framing, RecordOptions, RecordingSummary, DEFAULT_AZIMUTH,
};
use hooke::{
    BackendChoice, BodyKind, Contact, CpuWorld, DVec3, Friction, Model, Obstacle, OpenBackend,
    Scene, Shape, Simulation, Vec3, World, WorldOptions,
};
use scene_json::scene_json;

/// Output folder.
const OUT: &str = "out/collisions";

/// Runs the collision scenes and writes a GIF and an energy plot of each.
#[derive(Parser)]
struct Args {
    /// The scene to run.
    #[arg(value_enum, default_value_t = Which::All)]
    which: Which,
    /// Write the scene files to this folder instead of running them.
    #[arg(long, value_name = "DIR")]
    write_scenes: Option<PathBuf>,
    /// What simulates: `auto` (the GPU World on a hardware GPU, else the CPU reference), `cpu`
    /// (the CPU reference, f64) or `gpu` (the GPU World, f32, on any adapter).
    #[arg(long, default_value = "auto")]
    backend: BackendChoice,
}

/// The scenes.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
enum Which {
    Cubes,
    Pile,
    Cloth,
    All,
}

impl Which {
    const SCENES: [Self; 3] = [Self::Cubes, Self::Pile, Self::Cloth];

    fn name(self) -> &'static str {
        match self {
            Self::Cubes => "cubes",
            Self::Pile => "pile",
            Self::Cloth => "cloth",
            Self::All => "all",
        }
    }

    /// The scene at its default size.
    fn scene(self) -> hooke::Result<Scene> {
        match self {
            Self::Cubes | Self::All => HeadOnCubes::default().scene(),
            Self::Pile => Pile::default().scene(),
            Self::Cloth => ClothOnSphere::default().scene(),
        }
    }

    /// Simulated time, s: the cubes meet at 0.16 s and are apart by 0.3 s; the pile lands
    /// within 1 s and settles; the cloth drapes within 2 s.
    fn duration(self) -> f64 {
        match self {
            Self::Cubes | Self::All => 0.5,
            Self::Pile => 3.0,
            Self::Cloth => 4.0,
        }
    }

    /// Simulated time between GIF frames, s: the cubes' collision lasts about 0.1 s, so they get
    /// a frame every 0.01 s (the GIF plays it at that pace: real time).
    fn frame_time(self) -> f64 {
        match self {
            Self::Cubes | Self::All => 0.01,
            Self::Pile | Self::Cloth => 0.04,
        }
    }
}

/// The pairs of masses that may touch (both with a radius, groups and masks that let them, not
/// joined by a spring, not the same body with self-collision off), as `CpuWorld::contacts`
/// decides, checked over all pairs from positions alone, so it runs on either backend.
struct Pairs {
    /// Collision radius of each mass, m.
    radius: Vec<f64>,
    /// Pairs `(a, b)`, `a < b`, that never touch although both have a radius.
    excluded: HashSet<(usize, usize)>,
    /// Starting positions, m.
    start: Vec<DVec3>,
}

/// What [`Pairs::measure`] finds at one sample.
#[derive(Clone, Copy, Default)]
struct Touching {
    /// Smallest `d / (r_a + r_b)` over the pairs that may touch.
    closest: f64,
    /// Pairs closer than `r_a + r_b`.
    pairs: usize,
    /// Of those, the pairs whose masses started at least 4 contact distances apart.
    far: usize,
}

impl Pairs {
    fn new(model: &Model) -> Self {
        let mut excluded: HashSet<(usize, usize)> = model
            .springs
            .iter()
            .map(|s| (s.a.min(s.b) as usize, s.a.max(s.b) as usize))
            .collect();
        for body in model.bodies.iter().filter(|b| !b.self_collision) {
            for a in body.masses.clone() {
                excluded.extend((a + 1..body.masses.end).map(|b| (a, b)));
            }
        }
        let m = &model.masses;
        for a in 0..m.len() {
            for b in a + 1..m.len() {
                if !m[a].collides_with(&m[b]) || (m[a].fixed && m[b].fixed) {
                    excluded.insert((a, b));
                }
            }
        }
        Self {
            radius: m.iter().map(|m| m.collision_radius).collect(),
            excluded,
            start: m.iter().map(|m| m.position).collect(),
        }
    }

    /// Checks every pair at `pos` (m): O(n^2), fine for a few thousand masses.
    fn measure(&self, pos: &[DVec3]) -> Touching {
        let mut t = Touching {
            closest: f64::INFINITY,
            ..Touching::default()
        };
        for a in 0..pos.len() {
            if self.radius[a] <= 0.0 {
                continue;
            }
            for b in a + 1..pos.len() {
                let reach = self.radius[a] + self.radius[b];
                if self.radius[b] <= 0.0 {
                    continue;
                }
                let d = pos[a].distance(pos[b]);
                if d < 4.0 * reach && !self.excluded.contains(&(a, b)) {
                    t.closest = t.closest.min(d / reach);
                    if d < reach {
                        t.pairs += 1;
                        if self.start[a].distance(self.start[b]) >= 4.0 * reach {
                            t.far += 1;
                        }
                    }
                }
            }
        }
        t
    }
}

/// Hexahedral cells to shade: every cell of a lattice body, the one cell of a cube.
fn cells(scene: &Scene, model: &Model) -> Vec<[u32; 8]> {
    let mut out = Vec::new();
    for (spec, body) in scene.bodies.iter().zip(&model.bodies) {
        let first = body.masses.start as u32;
        match &spec.body {
            BodyKind::Cube(_) => out.push(std::array::from_fn(|c| first + c as u32)),
            BodyKind::Lattice(l) => {
                let n = l.n;
                let index = |i: u32, j: u32, k: u32| first + (k * n + j) * n + i;
                for k in 0..n - 1 {
                    for j in 0..n - 1 {
                        for i in 0..n - 1 {
                            out.push(std::array::from_fn(|c| {
                                let c = c as u32;
                                index(i + (c & 1), j + ((c >> 1) & 1), k + (c >> 2))
                            }));
                        }
                    }
                }
            }
            _ => {}
        }
    }
    out
}

/// Two triangles for every grid square of the cloth bodies.
fn cloth_triangles(scene: &Scene, model: &Model) -> Vec<[u32; 3]> {
    let mut out = Vec::new();
    for (spec, body) in scene.bodies.iter().zip(&model.bodies) {
        if let BodyKind::Cloth(c) = &spec.body {
            let (first, nx) = (body.masses.start as u32, c.nx);
            for j in 0..c.ny - 1 {
                for i in 0..nx - 1 {
                    let a = first + j * nx + i;
                    out.push([a, a + 1, a + nx + 1]);
                    out.push([a, a + nx + 1, a + nx]);
                }
            }
        }
    }
    out
}

/// What a run measured: the recording, the closest approach over the run and the touching pairs
/// at the end.
struct Run {
    summary: RecordingSummary,
    closest: f64,
    end: Touching,
    positions: Vec<DVec3>,
    velocities: Vec<DVec3>,
}

/// Records `world` (either backend) built from `model`, measuring the pairs at every sample.
fn record_touching<S: Simulation>(
    world: &mut S,
    model: &Model,
    options: &RecordOptions,
) -> hooke::Result<Run> {
    let pairs = Pairs::new(model);
    let mut closest = f64::INFINITY;
    let mut end = Touching::default();
    let summary = record_with(world, model, options, |w, _| {
        end = pairs.measure(&w.positions()?);
        closest = closest.min(end.closest);
        Ok(())
    })?;
    Ok(Run {
        summary,
        closest,
        end,
        positions: world.positions()?,
        velocities: world.velocities()?,
    })
}

/// The one place that chooses the backend. `drawn` is the model as drawn (see [`drawn`]).
fn simulate(
    model: &Model,
    drawn: &Model,
    options: &RecordOptions,
    backend: &OpenBackend,
) -> hooke::Result<Run> {
    match backend {
        OpenBackend::Gpu { device, queue, .. } => {
            let options_gpu = WorldOptions::default();
            let mut world = World::with_device(device.clone(), queue.clone(), model, options_gpu)?;
            record_touching(&mut world, drawn, options)
        }
        OpenBackend::Cpu { .. } => record_touching(&mut CpuWorld::new(model)?, drawn, options),
    }
}

/// How far below the surfaces that push on the cloth they are drawn, m.
const DRAWN_BELOW: f64 = 0.003;

/// `model` as drawn. The cloth's masses rest exactly on the ground and the ball (contact acts at
/// a mass's centre), so its shaded squares would fight the surfaces for depth and show through
/// in stripes: the cloth scene draws the ground as a plane obstacle and the ball
/// [`DRAWN_BELOW`] below where they push (1 % of the ball's radius, too little to see). The
/// other scenes are drawn as they are.
fn drawn(which: Which, model: &Model) -> Model {
    let mut drawn = model.clone();
    if which != Which::Cloth {
        return drawn;
    }
    drawn.params.contact = Contact::None;
    for obstacle in &mut drawn.obstacles {
        if let Shape::Sphere { radius, .. } = &mut obstacle.shape {
            *radius -= DRAWN_BELOW;
        }
    }
    drawn.add_obstacle(Obstacle::new(
        Shape::Plane {
            normal: DVec3::Z,
            offset: -DRAWN_BELOW,
        },
        Contact::None,
        Friction::NONE,
    ));
    drawn
}

fn run(which: Which, backend: &OpenBackend) -> hooke::Result<()> {
    let scene = which.scene()?;
    let model = scene.to_model()?;
    let duration = which.duration();
    println!(
        "{}: {} bodies, {} masses, {} springs, {} obstacles, dt = {:.0e} s (stable estimate {}), \
         {duration} s",
        which.name(),
        model.bodies.len(),
        model.masses.len(),
        model.springs.len(),
        model.obstacles.len(),
        model.params.dt,
        model.stable_dt(),
    );
    let mut options = RecordOptions {
        duration,
        frame_time: which.frame_time(),
        sample_time: 0.02,
        cells: cells(&scene, &model),
        triangles: cloth_triangles(&scene, &model),
        title: format!("{}: energy", which.name()),
        ..RecordOptions::new(OUT, which.name())
    };
    options.style.mass_radius = 1.5;
    options.style.line_width = 1.0;
    match which {
        // From the side and a little above, square onto the line of flight.
        Which::Cubes | Which::All => options.view = ((-80f32).to_radians(), 15f32.to_radians()),
        // The box from high enough to see over its walls (the top of the starting column, 1 m
        // up, leaves the picture for the first few frames); colours only for strains of 10 %.
        Which::Pile => {
            options.framing = fixed(Vec3::new(0.0, 0.0, 0.25), 1.7, 40.0);
            options.style.strain_scale = 0.1;
        }
        // Shaded squares only: the cloth's 1600 points and 9202 springs would cover them.
        Which::Cloth => {
            options.framing = fixed(Vec3::new(0.0, 0.0, 0.1), 1.9, 30.0);
            options.style.show_masses = false;
            options.style.show_springs = false;
            // The ground is drawn as an obstacle (see `drawn`): in the ground's colour.
            options.style.obstacle = options.style.ground;
        }
    }
    let started = std::time::Instant::now();
    let run = simulate(&model, &drawn(which, &model), &options, backend)?;
    println!(
        "  closest approach of masses that may touch: {:.3} of their contact distance; at the \
         end {} pairs touch, {} of them started at least 4 contact distances apart",
        run.closest, run.end.pairs, run.end.far
    );
    report(which, &model, &run);
    println!(
        "  wrote {} ({} frames), {} in {:.1} s",
        run.summary.gif.display(),
        run.summary.frames,
        run.summary.plot.display(),
        started.elapsed().as_secs_f64()
    );
    Ok(())
}

/// A camera looking at `target` (m) from `distance` m at the default azimuth, `elevation`
/// degrees up.
fn fixed(target: Vec3, distance: f32, elevation: f32) -> Framing {
    Framing::Fixed(Camera::orbit(
        target,
        distance,
        DEFAULT_AZIMUTH,
        elevation.to_radians(),
    ))
}

/// What each scene is about.
fn report(which: Which, model: &Model, run: &Run) {
    let energy = &run.summary.trace.energy;
    let (first, last) = (energy[0], energy[energy.len() - 1]);
    match which {
        Which::Cubes | Which::All => {
            let momentum: DVec3 = run
                .velocities
                .iter()
                .zip(&model.masses)
                .map(|(v, m)| m.mass * *v)
                .sum();
            let mean_vx = |b: usize| {
                let r = model.bodies[b].masses.clone();
                r.clone().map(|i| run.velocities[i].x).sum::<f64>() / r.len() as f64
            };
            println!(
                "  left cube at {:+.3} m/s, right cube at {:+.3} m/s along x; total momentum \
                 {:.1e} kg m/s; energy balance off by {:.2e} of {:.3} J",
                mean_vx(0),
                mean_vx(1),
                momentum.length(),
                (last.balance() - first.balance()).abs(),
                first.total()
            );
        }
        Which::Pile => {
            let drop = first.gravity - last.gravity;
            println!(
                "  kinetic energy {:.2e} J at the end, {:.1e} of the {:.2} J the drop released; \
                 {:.2} J dissipated",
                last.kinetic,
                last.kinetic / drop,
                drop,
                last.dissipated
            );
        }
        Which::Cloth => {
            let (lo, hi) = run
                .positions
                .iter()
                .fold((f64::INFINITY, f64::NEG_INFINITY), |(lo, hi), p| {
                    (lo.min(p.z), hi.max(p.z))
                });
            println!("  the cloth spans z = {lo:.3} m to {hi:.3} m at the end");
        }
    }
}

/// Writes the scene file of every scene into `dir`, and checks that each reads back as the
/// scene it was written from.
fn write_scenes(dir: &Path) -> hooke::Result<()> {
    let io = |path: &Path| {
        let path = path.to_path_buf();
        move |source| hooke::Error::SceneIo { path, source }
    };
    std::fs::create_dir_all(dir).map_err(io(dir))?;
    for which in Which::SCENES {
        let path = dir.join(format!("collisions_{}.json", which.name()));
        let scene = which.scene()?;
        std::fs::write(&path, scene_json(&scene)).map_err(io(&path))?;
        if Scene::load(&path)?.to_model()? != scene.to_model()? {
            return Err(hooke::Error::InvalidBuilder {
                builder: "collisions example",
                reason: format!("{} does not read back as written", path.display()),
            });
        }
        println!("wrote {}", path.display());
    }
    Ok(())
}

/// How to run this bigger, printed at the end.
const BIGGER: &str = r#"Longer or on the GPU World: `hooke run scenes/collisions_pile.json --duration 10 --gif out/pile.gif --backend gpu`."#;

fn main() -> ExitCode {
    env_logger::Builder::from_env(env_logger::Env::default().default_filter_or("hooke=warn"))
        .init(); // RUST_LOG=hooke=info shows adapter and variant choices
    let args = Args::parse();
    let result = match &args.write_scenes {
        Some(dir) => write_scenes(dir),
        None => {
            let scenes: Vec<Which> = if args.which == Which::All {
                Which::SCENES.to_vec()
            } else {
                vec![args.which]
            };
            args.backend.open().and_then(|backend| {
                println!("on {}", backend.describe());
                scenes.into_iter().try_for_each(|w| run(w, &backend))
            })
        }
    };
    match result {
        Ok(()) => {
            println!("Bigger: {BIGGER}");
            ExitCode::SUCCESS
        }
        Err(e) => {
            eprintln!("error: {e}");
            ExitCode::FAILURE
        }
    }
}
