//! Output files without a GPU: the frame schedule, GIF timing, energy plots.

use hooke::render::{FrameSchedule, GifWriter};
use hooke::Error;
use image::{AnimationDecoder, Rgba, RgbaImage};

use crate::colour;
use colour::delta_e;

fn temp(name: &str) -> std::path::PathBuf {
    let dir = std::env::temp_dir().join(format!("hooke-render-output-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    dir.join(name)
}

#[test]
fn frames_follow_simulation_time_not_steps() {
    // CS838's example: dt = 0.001 s, one frame every 0.03 s, so every 30th step.
    let s = FrameSchedule::new(0.03, 0.001).unwrap();
    assert_eq!(s.steps_before(0), 0);
    assert!((1..100).all(|f| s.steps_before(f) == 30));
    // A frame time that is not a multiple of dt alternates step counts without drifting:
    // frame n is always at step round(n T / dt).
    let s = FrameSchedule::new(0.025, 0.01).unwrap();
    let steps: Vec<u64> = (1..=4).map(|f| s.steps_before(f)).collect();
    assert_eq!(steps, [3, 2, 3, 2]);
    let total: u64 = (1..=1000).map(|f| s.steps_before(f)).sum();
    assert_eq!(total, s.step_of(1000));
    assert_eq!(s.step_of(1000), 2500);
    assert_eq!(FrameSchedule::new(0.04, 1e-4).unwrap().frames_for(1.0), 26);
    assert!(matches!(
        FrameSchedule::new(0.0, 1e-4),
        Err(Error::InvalidParameter {
            name: "frame_time",
            ..
        })
    ));
    assert!(matches!(
        FrameSchedule::new(0.01, f64::NAN),
        Err(Error::InvalidParameter { name: "dt", .. })
    ));
}

fn delays_cs(path: &std::path::Path) -> Vec<u32> {
    let file = std::io::BufReader::new(std::fs::File::open(path).unwrap());
    let frames = image::codecs::gif::GifDecoder::new(file)
        .unwrap()
        .into_frames()
        .collect_frames()
        .unwrap();
    frames
        .iter()
        .map(|f| {
            let (n, d) = f.delay().numer_denom_ms();
            assert_eq!(
                n % (10 * d),
                0,
                "delay {n}/{d} ms is not whole centiseconds"
            );
            n / d / 10
        })
        .collect()
}

#[test]
fn gif_playback_keeps_pace_with_simulation_time() {
    let frame = |shade: u8| RgbaImage::from_pixel(8, 6, Rgba([shade, 0, 255 - shade, 255]));

    // 0.04 s is exactly 4 cs.
    let path = temp("exact.gif");
    let mut gif = GifWriter::create(&path, 0.04).unwrap();
    for i in 0..5 {
        gif.push(&frame(i * 40)).unwrap();
    }
    assert_eq!(gif.frames(), 5);
    gif.finish().unwrap();
    assert_eq!(delays_cs(&path), [4; 5]);

    // 0.025 s is 2.5 cs: delays alternate so that frame n starts at round(2.5 n) cs.
    let path = temp("dithered.gif");
    let mut gif = GifWriter::create(&path, 0.025).unwrap();
    for i in 0..8 {
        gif.push(&frame(i * 30)).unwrap();
    }
    gif.finish().unwrap();
    let delays = delays_cs(&path);
    assert_eq!(delays.len(), 8);
    let mut start = 0;
    for (n, d) in delays.iter().enumerate() {
        start += d;
        let exact = 2.5 * (n + 1) as f64;
        assert!(
            (f64::from(start) - exact).abs() <= 0.5,
            "frame {n} ends at {start} cs"
        );
    }

    // Frames of another size are refused; so are frame times GIF cannot express.
    let mut gif = GifWriter::create(temp("sizes.gif"), 0.05).unwrap();
    gif.push(&frame(0)).unwrap();
    assert!(matches!(
        gif.push(&RgbaImage::new(9, 6)),
        Err(Error::LengthMismatch { .. })
    ));
    assert!(matches!(
        GifWriter::create(temp("fast.gif"), 0.001),
        Err(Error::InvalidParameter {
            name: "frame_time",
            ..
        })
    ));
}

/// Where a GIF frame is stored on the canvas: (left, top, width, height), in pixels.
type Placement = (u16, u16, u16, u16);

/// Every frame of the GIF at `path` as stored, and as shown (each drawn over the last).
fn stored_and_shown(path: &std::path::Path) -> (Vec<Placement>, Vec<RgbaImage>) {
    let mut options = gif::DecodeOptions::new();
    options.set_color_output(gif::ColorOutput::RGBA);
    let mut decoder = options
        .read_info(std::fs::File::open(path).unwrap())
        .unwrap();
    let mut stored = Vec::new();
    while let Some(f) = decoder.read_next_frame().unwrap() {
        stored.push((f.left, f.top, f.width, f.height));
    }
    let file = std::io::BufReader::new(std::fs::File::open(path).unwrap());
    let shown = image::codecs::gif::GifDecoder::new(file)
        .unwrap()
        .into_frames()
        .collect_frames()
        .unwrap()
        .into_iter()
        .map(image::Frame::into_buffer)
        .collect();
    (stored, shown)
}

#[test]
fn gif_frames_store_the_changed_rectangle_and_show_the_pushed_pictures() {
    // 40 x 30 with 200 colours (a GIF palette holds 256): stored exactly.
    let base = RgbaImage::from_fn(40, 30, |x, y| {
        let c = ((x + 40 * y) % 200) as u8;
        Rgba([c, 255 - c, c / 2, 255])
    });
    let mut moved = base.clone();
    for (x, y) in [(10, 5), (13, 8), (11, 7)] {
        moved.put_pixel(x, y, Rgba([255, 0, 0, 255]));
    }
    // 40 x 30 with 1200 colours: quantised.
    let many = RgbaImage::from_fn(40, 30, |x, y| {
        Rgba([(x * 6) as u8, (y * 8) as u8, ((x + y) * 3) as u8, 255])
    });
    let path = temp("changed.gif");
    let mut gif = GifWriter::create(&path, 0.04).unwrap();
    for frame in [&base, &moved, &moved, &many] {
        gif.push(frame).unwrap();
    }
    gif.finish().unwrap();
    let (stored, shown) = stored_and_shown(&path);
    // The first frame whole; then only the box around the three changed pixels; then a frame
    // that changes nothing is a single (transparent) pixel that only carries the delay.
    assert_eq!(stored[..3], [(0, 0, 40, 30), (10, 5, 4, 4), (0, 0, 1, 1)]);
    assert_eq!(shown.len(), 4);
    assert_eq!(shown[0], base);
    assert_eq!(shown[1], moved);
    assert_eq!(shown[2], moved);
    // 1200 distinct colours in 255 entries. The palette is farthest-point clustering in
    // CIELAB, within twice the best largest error of its entries (Gonzalez 1985; its 31
    // most-frequent entries come first, leaving 224 chosen farthest-point). An explicit palette
    // of 210 entries, every third column and every second row of the picture's colour grid,
    // bounds the best largest error from above.
    let explicit: Vec<[u8; 3]> = (1..40)
        .step_by(3)
        .flat_map(|x| (0..30).step_by(2).map(move |y| (x, y)))
        .map(|(x, y)| many.get_pixel(x, y).0)
        .map(|p| [p[0], p[1], p[2]])
        .collect();
    assert!(explicit.len() <= 224);
    let rgb = |p: &Rgba<u8>| [p[0], p[1], p[2]];
    let bound = many
        .pixels()
        .map(|p| {
            explicit
                .iter()
                .map(|e| delta_e(rgb(p), *e))
                .fold(f64::INFINITY, f64::min)
        })
        .fold(0.0, f64::max);
    let worst = many
        .pixels()
        .zip(shown[3].pixels())
        .map(|(a, b)| delta_e(rgb(a), rgb(b)))
        .fold(0.0, f64::max);
    assert!(
        worst <= 2.0 * bound,
        "a pixel is delta E {worst} off (bound {bound})"
    );
    // Nothing pushed: no GIF.
    let empty = GifWriter::create(temp("empty.gif"), 0.04).unwrap();
    assert!(matches!(empty.finish(), Err(Error::ImageWrite { .. })));
}

#[cfg(feature = "plot")]
mod plot {
    use hooke::plot::{EnergyPlot, Series};
    use hooke::Energy;

    use super::*;

    /// A mass on a spring: kinetic and elastic trade places, total constant, some dissipated.
    fn samples() -> Vec<(f64, Energy)> {
        (0..=400)
            .map(|i| {
                let t = f64::from(i) * 0.005;
                let w = 2.0 * std::f64::consts::PI;
                let dissipated = 0.1 * t;
                let left = 1.0 - dissipated;
                (
                    t,
                    Energy {
                        kinetic: left * (w * t).sin().powi(2),
                        elastic: left * (w * t).cos().powi(2),
                        gravity: 0.3,
                        dissipated,
                        ..Energy::default()
                    },
                )
            })
            .collect()
    }

    #[test]
    fn every_energy_curve_is_drawn_in_its_colour() {
        let plot = EnergyPlot::titled("test");
        let image = plot.render(&samples()).unwrap();
        assert_eq!(image.dimensions(), (plot.width, plot.height));
        let drawn = plot.series_for(&samples());
        // Injected energy stays zero, so it is left out.
        assert!(!drawn.contains(&Series::Injected));
        for s in drawn {
            let (rgb, _) = s.color();
            let n = image.pixels().filter(|p| p.0 == rgb).count();
            assert!(n > 100, "{} curve: only {n} pixels of {rgb:?}", s.label());
        }
        // The plot was written to a PNG that decodes to the same picture.
        let path = temp("energy.png");
        plot.save(&samples(), &path).unwrap();
        let read = image::open(&path).unwrap().to_rgb8();
        assert_eq!(read.dimensions(), image.dimensions());
    }

    #[test]
    fn bad_samples_are_refused_with_a_reason() {
        let plot = EnergyPlot::default();
        assert!(matches!(plot.render(&[]), Err(Error::Plot { .. })));
        let mut s = samples();
        s[10].1.kinetic = f64::NAN;
        let Err(Error::Plot { reason, .. }) = plot.render(&s) else {
            panic!("NaN energy accepted")
        };
        assert!(reason.contains("sample 10"), "{reason}");
        let mut s = samples();
        s[20].0 = 0.0;
        assert!(matches!(plot.render(&s), Err(Error::Plot { .. })));
        let tiny = EnergyPlot {
            width: 10,
            ..EnergyPlot::default()
        };
        assert!(matches!(tiny.render(&samples()), Err(Error::Plot { .. })));
    }
}

/// The bouncing cube's energy sampled every step, as the main example's energy plot is asked to
/// draw it (20 001 samples over 2 s, kinetic and elastic trading places at a few hundred hertz).
#[cfg(feature = "plot")]
fn bouncing_cube_energy_every_step() -> Vec<(f64, hooke::Energy)> {
    use hooke::{Builder, CpuWorld, Cube, DVec3, Model, Params};
    let mut cube = Cube::lipson().build().unwrap();
    cube.translate(DVec3::new(-0.05, -0.05, 0.2));
    let mut model = Model::new(Params::default());
    model.add("cube", cube);
    let mut world = CpuWorld::new(&model).unwrap();
    let mut samples = vec![(world.time(), world.energy().unwrap())];
    for _ in 0..20_000 {
        world.step(1).unwrap();
        samples.push((world.time(), world.energy().unwrap()));
    }
    samples
}

#[test]
#[cfg(feature = "plot")]
fn energy_plot_of_every_step_draws_at_most_two_points_per_pixel_column_and_loses_no_sample() {
    use hooke::plot::EnergyPlot;
    let samples = bouncing_cube_energy_every_step();
    let plot = EnergyPlot::titled("Lipson cube");
    let columns = plot.columns() as usize;
    let envelopes = plot.envelopes(&samples).unwrap();
    assert_eq!(envelopes.len(), plot.series_for(&samples).len());
    for (s, envelope) in &envelopes {
        // What is drawn: the band polygon and the mean line, together at most 2 points per
        // pixel column (a line through 20 001 samples put 30 in each).
        let points = envelope.band().len() + envelope.line().len();
        assert!(
            points <= 2 * columns,
            "{}: {points} points over {columns} columns",
            s.label()
        );
        // Nothing is lost: every sample is in exactly one bin, within its smallest and largest.
        let counted: usize = envelope.bins.iter().map(|b| b.samples).sum();
        assert_eq!(counted, samples.len(), "{}", s.label());
        let mut bins = envelope.bins.iter().peekable();
        for (t, e) in &samples {
            while bins.peek().is_some_and(|b| b.last < *t) {
                bins.next();
            }
            let bin = bins.peek().expect("a bin for every sample");
            let v = s.value(e);
            assert!(
                bin.first <= *t && bin.min <= v && v <= bin.max,
                "{} at t = {t}: {v} outside bin {bin:?}",
                s.label()
            );
        }
    }
}
