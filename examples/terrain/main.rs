//! Terrain: Lipson's walking robot ([`WalkingRobot`] with its default gait and friction) on
//! flat ground, up a slope, up a staircase and across rough ground, and a soft cube bouncing
//! down a staircase, on the CPU reference (`--backend gpu`: on the GPU World).
//!
//! For each walk it prints how far the robot's centre of mass got forward in 10 s and how much
//! height it gained; for the cube, the step it ends on. Every run also prints the deepest any mass
//! went into the ground or an obstacle (penalty contact: a few 1e-5 m when resting, one or two
//! millimetres in an impact).
//!
//! | course | terrain (starts 5 cm in front of the robot's front feet) | measured (CPU, 2026-11-28) |
//! |---|---|---|
//! | `flat` | the ground alone: the baseline | 1.57 m forward |
//! | `slope` | a 10 degree incline | 1.14 m forward, 0.158 m up |
//! | `stairs` | 8 steps of 2 cm rise and 20 cm run | 0.84 m forward, 0.077 m up: over step 3 |
//! | `rough` | 3 m x 2.5 m of bumps up to 4 cm high, 10 cm apart (seed 12) | 1.11 m forward |
//! | `cube_stairs` | a soft cube (0.1 m, 8 x 0.1 kg, 3000 N/m) thrown at 1 m/s off the top of 8 steps of 5 cm x 20 cm | down all 8 steps to the ground in 3.5 s |
//!
//! What the default gait manages, measured the same way (10 s, centre of mass forward; before
//! `VoxelBody` numbered its masses in lattice order, which moved the table's figures by up to 0.1 m
//! through the last bits of stick-slip contact):
//! - slopes: 1.41 m at 4 degrees, 1.31 m at 6, 1.13 m at 10, 0.84 m at 12 and 0.54 m at 15
//!   (turning aside); it stalls from about 18 degrees (0.17 m, sliding back at the end);
//! - stairs (20 cm run): 1.21 m on 1 cm steps, 0.83 m on 2 cm steps (it stands 2 s at the first
//!   riser), 0.32 m on 3 cm steps (5 s at the first riser); with 30 cm runs it gets up 5 cm
//!   steps, but only after 8 s at the first;
//! - rough ground (bumps 10 cm apart): 1.45 m over 1 cm bumps, 1.35 m over 2 cm, 1.11 m over 3
//!   cm, 0.89 m over 5 cm, 0.38 m over 8 cm; it stalls at 10 cm (0.07 m).
//!
//! Obstacles share the ground's contact and friction. Writes to `out/terrain/`, for each course:
//! `<course>.gif` (at 25 frames per simulated second, the camera following the body) and
//! `<course>_energy.png` (the energy terms over time).
//!
//! With `--backend gpu` the courses run on the GPU World (f32). Measured on lavapipe: flat 1.573 m,
//! slope 1.129 m (0.157 m up), stairs 0.469 m, rough 0.952 m, the cube down all eight steps
//! (0.554 m lower). The stairs differ most from the CPU's 0.842 m: how long the robot stands at
//! the first riser before its feet catch depends on sub-millimetre differences of contact, which
//! f32 and f64 resolve differently; the parity suite holds the backends together step by step,
//! not over 10 s of stick-slip.
//!
//! `--write-scenes DIR` writes the courses (all but `flat`) as scene files instead
//! (`walker_slope.json`, `walker_stairs.json`, `walker_rough.json`, `cube_stairs.json`; the
//! repository's `scenes/` holds them): a named robot or cube and a named terrain, a few lines
//! each, that `hooke run` (`--gif`) then replays.
//!
//! Run: `cargo run --release --example terrain [flat|slope|stairs|rough|cube_stairs|all]
//! [--backend auto|cpu|gpu]` (default all; `auto`: the GPU World on a hardware GPU, else the
//! CPU reference)

mod scene_json;

use std::path::{Path, PathBuf};
use std::process::ExitCode;

use clap::{Parser, ValueEnum};
use hooke::creatures::WalkingRobot;
use hooke::render::{record_with, Framing, RecordOptions, RecordingSummary};
use hooke::{
    BackendChoice, BodyKind, BodySpec, Contact, CpuWorld, Cube, DVec2, DVec3, Friction, Model,
    OpenBackend, Params, Placement, RoughGround, Scene, Simulation, SlopeTerrain, Staircase,
    Terrain, World, WorldOptions,
};
use scene_json::scene_json;

/// Output folder.
const OUT: &str = "out/terrain";
/// Simulated time of each walk, s (the walking robot example's 10 s: 1.57 m on flat ground).
const WALK_TIME: f64 = 10.0;
/// Simulated time of the cube's fall, s (it is at rest on the ground after 3.5 s).
const CUBE_TIME: f64 = 4.0;
/// x of the front edge of every walking course, m: 5 cm in front of the robot's front feet.
const TERRAIN_START: f64 = 0.45;
/// Slope angle, degrees.
const SLOPE_DEGREES: f64 = 10.0;
/// The walking robot's staircase.
const WALKER_STAIRS: Staircase = Staircase {
    start: DVec3::new(TERRAIN_START, 0.15, 0.0), // centred on the robot (0.3 m wide)
    steps: 8,
    rise: 0.02,
    run: 0.2,
    width: 2.0,
    footing: Staircase::FOOTING,
};
/// The rough ground: 31 x 26 samples 10 cm apart, bumps up to 4 cm.
const ROUGH: RoughGround = RoughGround {
    origin: DVec3::new(TERRAIN_START, -1.0, 0.0),
    spacing: DVec2::new(0.1, 0.1),
    columns: 31,
    rows: 26,
    amplitude: 0.04,
    seed: 12,
};
/// The cube's staircase: 8 steps of 5 cm x 20 cm from the origin along +x, top at 0.4 m.
const CUBE_STAIRS: Staircase = Staircase {
    start: DVec3::ZERO,
    steps: 8,
    rise: 0.05,
    run: 0.2,
    width: 1.0,
    footing: Staircase::FOOTING,
};

/// Runs the walking robot over terrain and a soft cube down a staircase; writes a GIF and an
/// energy plot of each.
#[derive(Parser)]
struct Args {
    /// The course to run.
    #[arg(value_enum, default_value_t = Which::All)]
    which: Which,
    /// Write the courses' scene files to this folder instead of running them.
    #[arg(long, value_name = "DIR")]
    write_scenes: Option<PathBuf>,
    /// What simulates: `auto` (the GPU World on a hardware GPU, else the CPU reference), `cpu`
    /// (the CPU reference, f64) or `gpu` (the GPU World, f32, on any adapter).
    #[arg(long, default_value = "auto")]
    backend: BackendChoice,
}

/// The courses.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
enum Which {
    Flat,
    Slope,
    Stairs,
    Rough,
    #[value(name = "cube_stairs")]
    CubeStairs,
    All,
}

impl Which {
    const COURSES: [Self; 5] = [
        Self::Flat,
        Self::Slope,
        Self::Stairs,
        Self::Rough,
        Self::CubeStairs,
    ];

    fn name(self) -> &'static str {
        match self {
            Self::Flat => "flat",
            Self::Slope => "slope",
            Self::Stairs => "stairs",
            Self::Rough => "rough",
            Self::CubeStairs => "cube_stairs",
            Self::All => "all",
        }
    }

    /// The scene file of the course (none for the flat baseline).
    fn scene_file(self) -> Option<&'static str> {
        match self {
            Self::Slope => Some("walker_slope.json"),
            Self::Stairs => Some("walker_stairs.json"),
            Self::Rough => Some("walker_rough.json"),
            Self::CubeStairs => Some("cube_stairs.json"),
            Self::Flat | Self::All => None,
        }
    }
}

/// A course: the scene and what to draw of it.
struct Course {
    which: Which,
    scene: Scene,
    /// Voxel cells of the body, for the shaded look.
    cells: Vec<[u32; 8]>,
}

/// The walking robot, named, with the parameters it was tuned for, on `terrain` (which takes the
/// ground's contact and friction).
fn walker_course(which: Which, terrain: Option<Terrain>) -> hooke::Result<Course> {
    let robot = WalkingRobot::default();
    let built = robot.build()?;
    let mut scene = Scene::new(built.params);
    scene.push(BodySpec::new(BodyKind::WalkingRobot(robot)).named("walking robot"));
    scene.terrain = terrain;
    Ok(Course {
        which,
        scene,
        cells: built.cells,
    })
}

/// A soft cube (Lipson's size and corner mass, 3000 N/m springs with 0.5 N*s/m damping) dropped
/// from 0.15 m above the top step of [`CUBE_STAIRS`], tilted, moving at 1 m/s down the stairs
/// (-x). Ground and steps: penalty 1e5 N/m with 20 N*s/m of damping (bouncy: a damping ratio of
/// 20 / (2 sqrt(1e5 * 0.1)) = 0.1 per corner), Coulomb friction 0.4 / 0.3.
fn cube_course() -> hooke::Result<Course> {
    let contact = Contact::Penalty {
        stiffness: 1e5,
        damping: 20.0,
    };
    let friction = Friction::coulomb(0.4, 0.3);
    let mut scene = Scene::new(Params {
        contact,
        friction,
        ..Params::default()
    });
    let cube = Cube {
        size: 0.1,
        corner_mass: 0.1,
        stiffness: 3000.0,
        damping: 0.5,
        material: None,
    };
    // 0.15 m in from the top step's back edge (x = 1.6 m) and 0.15 m above it (z = 0.4 m).
    let placement = Placement::at(DVec3::new(1.45, -0.05, 0.55))
        .with_rotation(DVec3::new(0.2, 0.1, 0.0))
        .with_velocity(DVec3::new(-1.0, 0.0, 0.0));
    scene.push(
        BodySpec::new(BodyKind::Cube(cube))
            .named("soft cube")
            .placed(placement),
    );
    scene.terrain = Some(Terrain::Stairs(CUBE_STAIRS));
    let cells = vec![std::array::from_fn(|i| i as u32)]; // the cube's corners, x + 2 y + 4 z
    Ok(Course {
        which: Which::CubeStairs,
        scene,
        cells,
    })
}

fn course(which: Which) -> hooke::Result<Course> {
    match which {
        Which::Flat => walker_course(which, None),
        Which::Slope => {
            let slope = SlopeTerrain {
                degrees: SLOPE_DEGREES,
                start: DVec3::new(TERRAIN_START, 0.0, 0.0),
            };
            walker_course(which, Some(Terrain::Slope(slope)))
        }
        Which::Stairs => walker_course(which, Some(Terrain::Stairs(WALKER_STAIRS))),
        Which::Rough => walker_course(which, Some(Terrain::RoughGround(ROUGH))),
        Which::CubeStairs | Which::All => cube_course(),
    }
}

/// Runs `model` for `options.duration` s, recording it, and returns what was recorded and the
/// deepest any mass went into the ground or an obstacle, m (checked at every sample). The one
/// place that chooses the World: the CPU reference, or the GPU World on `backend`'s device.
fn simulate(
    model: &Model,
    options: &RecordOptions,
    backend: &OpenBackend,
) -> hooke::Result<(RecordingSummary, f64)> {
    match backend {
        OpenBackend::Gpu { device, queue, .. } => {
            let options_gpu = WorldOptions::default();
            let mut world = World::with_device(device.clone(), queue.clone(), model, options_gpu)?;
            record_deepest(&mut world, model, options)
        }
        OpenBackend::Cpu { .. } => record_deepest(&mut CpuWorld::new(model)?, model, options),
    }
}

/// Records `world` and the deepest any mass went into a surface, m.
fn record_deepest<S: Simulation>(
    world: &mut S,
    model: &Model,
    options: &RecordOptions,
) -> hooke::Result<(RecordingSummary, f64)> {
    let mut deepest = 0.0_f64;
    let summary = record_with(world, model, options, |w, _| {
        deepest = deepest.max(depth_inside(model, &w.positions()?));
        Ok(())
    })?;
    Ok((summary, deepest))
}

/// The deepest any of `positions` is inside the ground (when the model has one) or an obstacle,
/// m (0 when none is).
fn depth_inside(model: &Model, positions: &[DVec3]) -> f64 {
    let ground = !matches!(model.params.contact, Contact::None);
    positions
        .iter()
        .flat_map(|&p| {
            let floor = if ground { -p.z } else { 0.0 };
            model
                .obstacles
                .iter()
                .filter_map(move |o| o.shape.surface(p).map(|s| -s.distance))
                .chain([floor])
        })
        .fold(0.0, f64::max)
}

/// Which step of `stairs` is under `x` (m): `Some(k)` for step k (1 = the lowest), `None` in
/// front of the stairs (the ground); past the last step it is the last.
fn step_under(stairs: &Staircase, x: f64) -> Option<usize> {
    let k = ((x - stairs.start.x) / stairs.run).floor();
    (k >= 0.0).then(|| (k as usize + 1).min(stairs.steps))
}

/// Forward distance and height gained by the body's centre of mass, m.
#[derive(Clone, Copy)]
struct Outcome {
    which: Which,
    forward: f64,
    height: f64,
}

fn run(course: &Course, backend: &OpenBackend) -> hooke::Result<Outcome> {
    let which = course.which;
    let model = course.scene.to_model()?;
    let duration = if which == Which::CubeStairs {
        CUBE_TIME
    } else {
        WALK_TIME
    };
    println!(
        "{}: {} masses, {} springs, {} obstacles, {duration} s",
        which.name(),
        model.masses.len(),
        model.springs.len(),
        model.obstacles.len()
    );
    let options = RecordOptions {
        duration,
        frame_time: 0.04,
        sample_time: 0.01,
        framing: Framing::Follow,
        cells: course.cells.clone(),
        title: format!("{}: energy", which.name()),
        ..RecordOptions::new(OUT, which.name())
    };
    let (summary, deepest) = simulate(&model, &options, backend)?;
    let com = &summary.trace.centre_of_mass;
    let (first, last) = (com[0], com[com.len() - 1]);
    let outcome = Outcome {
        which,
        forward: last.x - first.x,
        height: last.z - first.z,
    };
    if which == Which::CubeStairs {
        report_cube(first, last);
    } else {
        println!(
            "  travelled {:.3} m forward, gained {:.3} m of height, drifted {:.3} m sideways",
            outcome.forward,
            outcome.height,
            summary.trace.sideways_drift()
        );
        if which == Which::Stairs {
            let step = step_under(&WALKER_STAIRS, last.x).unwrap_or(0);
            println!(
                "  centre of mass over step {step} of {} ({} m up)",
                WALKER_STAIRS.steps,
                step as f64 * WALKER_STAIRS.rise
            );
        }
    }
    println!(
        "  deepest into the ground or an obstacle: {:.2} mm",
        deepest * 1e3
    );
    println!(
        "  wrote {} ({} frames), {}",
        summary.gif.display(),
        summary.frames,
        summary.plot.display()
    );
    Ok(outcome)
}

fn report_cube(first: DVec3, last: DVec3) {
    let s = CUBE_STAIRS;
    let on = |p: DVec3| match step_under(&s, p.x) {
        Some(k) => format!(
            "step {k} of {} (top at {:.2} m)",
            s.steps,
            k as f64 * s.rise
        ),
        None => "the ground in front of the stairs".to_string(),
    };
    println!(
        "  started over {} at z = {:.3} m, ended on {} at z = {:.3} m ({:.3} m lower, {:.3} m \
         along -x)",
        on(first),
        first.z,
        on(last),
        last.z,
        first.z - last.z,
        first.x - last.x
    );
}

/// Writes the scene file of every course but `flat` into `dir`, and checks that each reads back
/// as the scene it was written from.
fn write_scenes(dir: &Path) -> hooke::Result<()> {
    let io = |path: &Path| {
        let path = path.to_path_buf();
        move |source| hooke::Error::SceneIo { path, source }
    };
    std::fs::create_dir_all(dir).map_err(io(dir))?;
    for which in Which::COURSES {
        if let Some(file) = which.scene_file() {
            let path = dir.join(file);
            let scene = course(which)?.scene;
            std::fs::write(&path, scene_json(&scene)).map_err(io(&path))?;
            // Read back as the library's own JSON reads back: the same scene.
            let expected = Scene::from_json_str(&scene.to_json_string())?;
            if Scene::load(&path)?.to_model()? != expected.to_model()? {
                return Err(hooke::Error::InvalidBuilder {
                    builder: "terrain example",
                    reason: format!("{} does not read back as written", path.display()),
                });
            }
            println!("wrote {}", path.display());
        }
    }
    Ok(())
}

/// How to run this bigger, printed at the end.
const BIGGER: &str = r#"Longer walks: `hooke run scenes/walker_slope.json --duration 60 --gif out/slope.gif` (also walker_stairs.json, walker_rough.json)."#;

fn main() -> ExitCode {
    env_logger::Builder::from_env(env_logger::Env::default().default_filter_or("hooke=warn"))
        .init(); // RUST_LOG=hooke=info shows adapter and variant choices
    let args = Args::parse();
    let result = match &args.write_scenes {
        Some(dir) => write_scenes(dir),
        None => run_courses(args.which, args.backend),
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

fn run_courses(which: Which, choice: BackendChoice) -> hooke::Result<()> {
    let backend = choice.open()?;
    println!("on {}", backend.describe());
    let courses: Vec<Which> = if which == Which::All {
        Which::COURSES.to_vec()
    } else {
        vec![which]
    };
    let mut outcomes = Vec::new();
    for which in courses {
        outcomes.push(run(&course(which)?, &backend)?);
    }
    if outcomes.len() > 1 {
        println!("\ncourse        forward (m)  height gained (m)");
        for o in outcomes {
            println!(
                "{:<12}  {:>11.3}  {:>17.3}",
                o.which.name(),
                o.forward,
                o.height
            );
        }
    }
    Ok(())
}
