//! Recording a simulation (either backend) to pictures in one call: an animated GIF at a frame time
//! independent of `dt`, an energy plot, and the sampled trace (feature `plot`, default).
//!
//! ```no_run
//! # fn main() -> hooke::Result<()> {
//! use hooke::creatures::Inchworm;
//! use hooke::render::{record_cpu, RecordOptions};
//!
//! let worm = Inchworm::default().build()?;
//! let mut world = worm.world()?;
//! let options = RecordOptions {
//!     duration: 4.0,   // s of simulated time
//!     frame_time: 0.04, // s between frames: 25 frames per simulated second
//!     ..RecordOptions::new("out/inchworm", "inchworm")
//! };
//! let summary = record_cpu(&mut world, &options)?; // out/inchworm/inchworm.gif, inchworm_energy.png
//! println!("{} frames, {:.3} m forward", summary.frames, summary.trace.forward_distance());
//! # Ok(()) }
//! ```

use std::path::PathBuf;

use glam::{DVec3, Vec3};

use super::{
    bounds_with, Camera, Drawing, FrameSchedule, GifWriter, MeshSurface, Positions, Renderer,
    Style, DEFAULT_AZIMUTH, DEFAULT_ELEVATION,
};
use crate::creatures::Trace;
use crate::error::{Error, Result};
use crate::model::{Model, Shape};
use crate::plot::EnergyPlot;
use crate::simulation::Simulation;

/// How [`record`] places the camera.
#[derive(Clone, Copy, Debug, PartialEq)]
#[cfg_attr(docsrs, doc(cfg(feature = "plot")))]
pub enum Framing {
    /// One camera for the whole animation, at the default view, framing every mass at every
    /// frame (and their shadows on the ground when the model has one, and the obstacles near
    /// them, see [`bounds_with`](super::bounds_with)): nothing leaves the picture. The default.
    Run,
    /// A camera that follows the scene sideways: at every frame it looks at the centre (in x and
    /// y) of the masses' bounds then, from the distance that frames the largest extent the scene
    /// takes over the run. Height and distance stay fixed, so the ground grid shows the motion.
    /// For creatures that travel further than their own size.
    Follow,
    /// This camera, for every frame.
    Fixed(Camera),
}

/// What [`record`] simulates and writes. Make one with [`RecordOptions::new`] and change the
/// fields you need.
#[derive(Clone, Debug, PartialEq)]
#[cfg_attr(docsrs, doc(cfg(feature = "plot")))]
pub struct RecordOptions {
    /// Simulated time to run for, in s (default 2). Finite and >= 0.
    pub duration: f64,
    /// Simulated time between GIF frames, in s (default 0.04, 25 frames per simulated second),
    /// independent of `dt` (see [`FrameSchedule`]). In [0.01, 655] and at least `dt`.
    pub frame_time: f64,
    /// Simulated time between samples of the trace and the energy plot, in s (default 0.01);
    /// rounded to a whole number of steps (at least one). Finite and > 0.
    pub sample_time: f64,
    /// GIF width and height in pixels (default 480 x 360). Each > 0 and at most the device's
    /// texture limit.
    pub size: (u32, u32),
    /// Energy plot width and height in pixels (default 960 x 540, at least 200 x 150).
    pub plot_size: (u32, u32),
    /// Camera placement (default [`Framing::Run`]).
    pub framing: Framing,
    /// Direction the camera looks from with [`Framing::Run`] and [`Framing::Follow`], as
    /// [`Camera::orbit`]'s `(azimuth, elevation)` in radians (default
    /// `(DEFAULT_AZIMUTH, DEFAULT_ELEVATION)`: from the front right, 20 degrees up). `-pi / 2`
    /// looks along +y, square onto the xz plane.
    pub view: (f32, f32),
    /// Colours, line widths and strain scale of the frames (default [`Style::default`]: strains
    /// of 2 % or more are fully coloured).
    pub style: Style,
    /// Hexahedral cells whose exterior faces are shaded (the solid look of voxel bodies,
    /// Lipson's shaded faces), each the 8 corner mass indices in the order of
    /// [`crate::render::HEXAHEDRON_FACES`]; empty (the default) for springs and masses only.
    pub cells: Vec<[u32; 8]>,
    /// More triangles to shade, each three mass indices (e.g. the grid squares of a cloth);
    /// drawn with the exterior faces of `cells`. Empty by default.
    pub triangles: Vec<[u32; 3]>,
    /// Mesh surfaces to shade, each a mesh's own triangles riding on its body's masses (what
    /// [`Scene::mesh_surfaces`](crate::Scene::mesh_surfaces) gives for a scene's mesh bodies).
    /// Empty by default.
    pub surfaces: Vec<MeshSurface>,
    /// The body whose centre of mass [`RecordingSummary::trace`] follows (default 0).
    pub body: usize,
    /// Folder the files go to (created if missing).
    pub out_dir: PathBuf,
    /// File stem: the GIF is `<stem>.gif`, the plot `<stem>_energy.png`.
    pub stem: String,
    /// Caption of the energy plot (default: the stem).
    pub title: String,
    /// Also write every frame as a PNG file, `<out_dir>/<stem>_00000.png`, `_00001.png`, ...
    /// ([`RecordOptions::png_path`]; default false).
    pub png_frames: bool,
}

impl RecordOptions {
    /// The default options, writing `<out_dir>/<stem>.gif` and `<out_dir>/<stem>_energy.png`.
    #[must_use]
    pub fn new(out_dir: impl Into<PathBuf>, stem: impl Into<String>) -> Self {
        let stem = stem.into();
        Self {
            duration: 2.0,
            frame_time: 0.04,
            sample_time: 0.01,
            size: (480, 360),
            plot_size: (960, 540),
            framing: Framing::Run,
            view: (DEFAULT_AZIMUTH, DEFAULT_ELEVATION),
            style: Style::default(),
            cells: Vec::new(),
            triangles: Vec::new(),
            surfaces: Vec::new(),
            body: 0,
            out_dir: out_dir.into(),
            title: stem.clone(),
            stem,
            png_frames: false,
        }
    }

    /// Path of PNG frame `frame` (from 0) when [`RecordOptions::png_frames`] is set:
    /// `<out_dir>/<stem>_00007.png` (five digits, more past 99 999 frames).
    #[must_use]
    pub fn png_path(&self, frame: u64) -> PathBuf {
        self.out_dir.join(format!("{}_{frame:05}.png", self.stem))
    }

    /// Path of the GIF: `<out_dir>/<stem>.gif`.
    #[must_use]
    pub fn gif_path(&self) -> PathBuf {
        self.out_dir.join(format!("{}.gif", self.stem))
    }

    /// Path of the energy plot: `<out_dir>/<stem>_energy.png`.
    #[must_use]
    pub fn plot_path(&self) -> PathBuf {
        self.out_dir.join(format!("{}_energy.png", self.stem))
    }
}

/// What [`record`] wrote and measured.
#[derive(Clone, Debug, PartialEq)]
#[cfg_attr(docsrs, doc(cfg(feature = "plot")))]
pub struct RecordingSummary {
    /// The GIF written.
    pub gif: PathBuf,
    /// The energy plot written.
    pub plot: PathBuf,
    /// The PNG frames written, in order (empty unless [`RecordOptions::png_frames`]).
    pub pngs: Vec<PathBuf>,
    /// GIF frames written: `floor(duration / frame_time) + 1`, frame 0 showing the start.
    pub frames: u64,
    /// Simulation steps taken.
    pub steps: u64,
    /// Time, the traced body's centre of mass and the world's energy at every sample (the first
    /// at the start, the last at the end).
    pub trace: Trace,
    /// The camera of the first frame ([`Framing::Follow`] moves it afterwards): use it for
    /// stills that match the animation.
    pub camera: Camera,
}

/// Runs `world` for `options.duration` s and writes an animated GIF of it (one frame every
/// `options.frame_time` s of simulated time, springs coloured by strain) and an energy plot
/// (every energy term over time), both into `options.out_dir`. [`record`] for a world that
/// knows its own model (`AsRef<Model>`: a [`CpuWorld`](crate::CpuWorld)).
///
/// # Errors
/// As [`record`].
#[cfg_attr(docsrs, doc(cfg(feature = "plot")))]
pub fn record_cpu<S: Simulation + AsRef<Model>>(
    world: &mut S,
    options: &RecordOptions,
) -> Result<RecordingSummary> {
    record_cpu_with(world, options, |_, _| Ok(()))
}

/// [`record_cpu`], calling `each(world, sample)` after every sample of the trace (sample 0 at
/// the start), for measurements of your own or to act on the world (forces, commands: a
/// controller called every `sample_time`).
///
/// # Errors
/// Those of [`record`]; whatever `each` returns (the run stops there and the GIF is left
/// unfinished).
#[cfg_attr(docsrs, doc(cfg(feature = "plot")))]
pub fn record_cpu_with<S: Simulation + AsRef<Model>>(
    world: &mut S,
    options: &RecordOptions,
    each: impl FnMut(&mut S, usize) -> Result<()>,
) -> Result<RecordingSummary> {
    let model = world.as_ref().clone();
    record_with(world, &model, options, each)
}

/// Runs `world` (either backend: a [`CpuWorld`](crate::CpuWorld) or a GPU [`crate::World`]) built from `model` for
/// `options.duration` s and writes an animated GIF of it (one frame every `options.frame_time` s
/// of simulated time, springs coloured by strain, the camera as `options.framing` says: it can
/// follow the bodies) and an energy plot (every energy term over time), both into
/// `options.out_dir`. `model` gives the drawing its springs and fixed masses.
///
/// Renders on its own headless device (lavapipe is enough), reading the world's positions and
/// rest lengths back at every frame. To place the camera over the whole run, every frame's
/// positions and rest lengths are kept until the end: about `frames * (24 * masses + 8 *
/// springs)` bytes, fine for the small scenes this is meant for. The world is left at the end of
/// the run.
///
/// # Errors
/// [`Error::InvalidParameter`] for a non-finite or negative duration or one of more than
/// [`MAX_STEPS`](crate::MAX_STEPS) steps, a sample time that is not
/// finite and > 0, a frame time outside `[max(dt, 0.01), 655]` s, a bad image size, style or
/// fixed camera; [`Error::LengthMismatch`] if `model` does not have the world's masses and
/// springs; [`Error::IndexOutOfRange`] for a missing body or a cell or triangle naming a missing
/// mass; [`Error::SceneIo`] if the folder cannot be created; [`Error::NoAdapter`] and other device
/// errors of [`Renderer::new`]; the world's errors while stepping ([`Error::NonFinite`] if the
/// simulation blows up) and reading back; [`Error::ImageWrite`] and [`Error::Plot`] if a file
/// cannot be written.
///
/// # Examples
///
/// ```
/// use hooke::render::{record, RecordOptions};
/// use hooke::{Builder, Cube, DVec3, Model, Params, Placement, World};
/// # if cfg!(skip_gpu_tests) { return Ok(()); } // HOOKE_SKIP_GPU_TESTS=1: no adapter wanted
///
/// let mut model = Model::new(Params::default());
/// model.add("cube", Cube::lipson().build_at(&Placement::at(DVec3::new(0.0, 0.0, 0.1)))?);
/// let mut world = World::new(&model)?; // or CpuWorld::new(&model)?
/// let out = std::env::temp_dir().join(format!("hooke-doc-record-{}", std::process::id()));
/// let options = RecordOptions {
///     duration: 0.2,    // s of simulated time
///     frame_time: 0.04, // s between frames, whatever dt is
///     size: (160, 120),
///     plot_size: (400, 300),
///     png_frames: true, // also out/cube_00000.png ... cube_00005.png
///     ..RecordOptions::new(out.clone(), "cube") // out/cube.gif, out/cube_energy.png
/// };
/// let summary = record(&mut world, &model, &options)?;
/// assert_eq!(summary.frames, 6); // floor(0.2 / 0.04) + 1, frame 0 showing the start
/// assert_eq!(summary.pngs, (0..6).map(|k| options.png_path(k)).collect::<Vec<_>>());
/// let frame = image::open(&summary.pngs[5]).unwrap();
/// assert_eq!((frame.width(), frame.height()), (160, 120));
/// assert_eq!((summary.steps, world.steps()), (2000, 2000)); // the world is left at the end
/// assert!(summary.gif.is_file() && summary.plot.is_file());
/// # std::fs::remove_dir_all(&out).ok();
/// # Ok::<(), hooke::Error>(())
/// ```
#[cfg_attr(docsrs, doc(cfg(feature = "plot")))]
pub fn record<S: Simulation>(
    world: &mut S,
    model: &Model,
    options: &RecordOptions,
) -> Result<RecordingSummary> {
    record_with(world, model, options, |_, _| Ok(()))
}

/// [`record`], calling `each(world, sample)` after every sample of the trace (sample 0 at the
/// start), for measurements of your own or to act on the world (forces, commands: a controller
/// called every `sample_time`).
///
/// # Errors
/// Those of [`record`]; whatever `each` returns (the run stops there and the GIF is left
/// unfinished).
#[cfg_attr(docsrs, doc(cfg(feature = "plot")))]
pub fn record_with<S: Simulation>(
    world: &mut S,
    model: &Model,
    options: &RecordOptions,
    mut each: impl FnMut(&mut S, usize) -> Result<()>,
) -> Result<RecordingSummary> {
    let o = options;
    let dt = world.dt();
    for (what, expected, actual) in [
        ("model masses", world.mass_count(), model.masses.len()),
        ("model springs", world.spring_count(), model.springs.len()),
    ] {
        if expected != actual {
            return Err(Error::LengthMismatch {
                what,
                expected,
                got: actual,
            });
        }
    }
    // A negative, non-finite or endless duration, refused before the device is touched.
    crate::model::steps_for(o.duration, dt)?;
    if !(o.sample_time.is_finite() && o.sample_time > 0.0) {
        return Err(Error::InvalidParameter {
            name: "sample_time",
            value: o.sample_time,
            expected: "must be finite and > 0 s",
        });
    }
    let schedule = FrameSchedule::new(o.frame_time, dt)?;
    world.body_centre_of_mass(o.body)?;
    let masses = world.mass_count();
    let corners = o.cells.iter().flatten().chain(o.triangles.iter().flatten());
    if let Some(&bad) = corners.into_iter().find(|&&i| i as usize >= masses) {
        return Err(Error::IndexOutOfRange {
            what: "mass (in a cell or triangle)",
            index: bad as usize,
            len: masses,
        });
    }
    // Check the output and the device before the (possibly long) run.
    std::fs::create_dir_all(&o.out_dir).map_err(|source| Error::SceneIo {
        path: o.out_dir.clone(),
        source,
    })?;
    let (width, height) = o.size;
    let mut renderer = Renderer::new(width, height)?;
    *renderer.style_mut() = o.style;
    let mut drawing = Drawing::new(&renderer, model)?;
    let mut triangles = super::exterior_triangles(&o.cells);
    triangles.extend_from_slice(&o.triangles);
    drawing.set_triangles(&renderer, &triangles)?;
    drawing.set_surfaces(&renderer, &o.surfaces)?;
    // Draw the initial state once, unread, so that a bad style or camera fails before the run.
    let check = match o.framing {
        Framing::Fixed(camera) => camera,
        _ => Camera::default(),
    };
    renderer.draw(&drawing, Positions::Uploaded, &check)?;
    let mut gif = GifWriter::create(o.gif_path(), o.frame_time)?;

    // Simulate, stopping at every sample step and every frame step.
    let frames = schedule.frames_for(o.duration);
    let every = ((o.sample_time / dt).round() as u64).max(1);
    let start = world.steps();
    let total = crate::model::steps_for(o.duration, dt)?.max(schedule.step_of(frames - 1));
    let mut trace = Trace::default();
    let mut shots: Vec<(Vec<DVec3>, Vec<f64>)> = Vec::with_capacity(frames as usize);
    let mut taken = 0u64;
    let mut next_frame = 0u64;
    loop {
        if taken.is_multiple_of(every) || taken == total {
            trace.time.push(world.time());
            trace
                .centre_of_mass
                .push(world.body_centre_of_mass(o.body)?);
            trace.energy.push(world.energy()?);
            each(world, trace.time.len() - 1)?;
        }
        if next_frame < frames && taken == schedule.step_of(next_frame) {
            shots.push((world.positions()?, world.rest_lengths()?));
            next_frame += 1;
        }
        if taken == total {
            break;
        }
        let to_sample = every - taken % every;
        let to_frame = if next_frame < frames {
            schedule.step_of(next_frame) - taken
        } else {
            u64::MAX
        };
        let n = to_sample.min(to_frame).min(total - taken);
        world.step(n)?;
        taken += n;
    }

    let ground = drawing.ground();
    let aspect = width as f32 / height as f32;
    let cameras = cameras(
        &shots,
        o.framing,
        o.view,
        (ground, drawing.obstacles()),
        aspect,
    );
    let pngs = render_shots(&mut renderer, &mut drawing, &shots, &cameras, &mut gif, o)?;
    let written = gif.frames();
    gif.finish()?;

    let plot = EnergyPlot {
        width: o.plot_size.0,
        height: o.plot_size.1,
        ..EnergyPlot::titled(o.title.clone())
    };
    plot.save(&trace.energy_samples(), o.plot_path())?;
    Ok(RecordingSummary {
        gif: o.gif_path(),
        plot: o.plot_path(),
        pngs,
        frames: written,
        steps: world.steps() - start,
        trace,
        camera: cameras.first().copied().unwrap_or_default(),
    })
}

/// Renders each shot (positions and rest lengths) with its camera into `gif` and, with
/// [`RecordOptions::png_frames`], into PNG files; returns their paths.
fn render_shots(
    renderer: &mut Renderer,
    drawing: &mut Drawing,
    shots: &[(Vec<DVec3>, Vec<f64>)],
    cameras: &[Camera],
    gif: &mut GifWriter,
    o: &RecordOptions,
) -> Result<Vec<PathBuf>> {
    let mut pngs = Vec::new();
    for ((positions, rest), camera) in shots.iter().zip(cameras) {
        drawing.set_positions(renderer, positions)?;
        drawing.set_rest_lengths(renderer, rest)?;
        let image = renderer.render(drawing, Positions::Uploaded, camera)?;
        if o.png_frames {
            let path = o.png_path(pngs.len() as u64);
            super::save_png(&image, &path)?;
            pngs.push(path);
        }
        gif.push(&image)?;
    }
    Ok(pngs)
}

/// One camera per shot for `framing`.
fn cameras(
    shots: &[(Vec<DVec3>, Vec<f64>)],
    framing: Framing,
    (azimuth, elevation): (f32, f32),
    (ground, obstacles): (bool, &[Shape]),
    aspect: f32,
) -> Vec<Camera> {
    let fit = |lo, hi| Camera::fit_from(lo, hi, aspect, azimuth, elevation);
    let boxes: Vec<Option<(Vec3, Vec3)>> = shots
        .iter()
        .map(|(p, _)| bounds_with(p, ground, obstacles))
        .collect();
    let union = boxes
        .iter()
        .flatten()
        .copied()
        .reduce(|(a, b), (c, d)| (a.min(c), b.max(d)))
        .unwrap_or((Vec3::ZERO, Vec3::ONE));
    match framing {
        Framing::Fixed(camera) => vec![camera; shots.len()],
        Framing::Run => vec![fit(union.0, union.1); shots.len()],
        Framing::Follow => {
            // The largest half-extent on each axis over the run, and a fixed height.
            let half = boxes
                .iter()
                .flatten()
                .map(|(lo, hi)| 0.5 * (*hi - *lo))
                .fold(Vec3::ZERO, Vec3::max);
            let z = 0.5 * (union.0.z + union.1.z);
            boxes
                .iter()
                .map(|b| {
                    let (lo, hi) = b.unwrap_or(union);
                    let mut centre = 0.5 * (lo + hi);
                    centre.z = z;
                    fit(centre - half, centre + half)
                })
                .collect()
        }
    }
}
