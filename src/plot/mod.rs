//! Energy plots to PNG (Lipson, tip 4: "plot the total energy of the cube as a function of
//! time ... the sum should be nearly constant. If it is not constant, you have some bug"), and
//! benchmark cost curves ([`CostPlot`]: ns per spring update against springs) and evolution runs
//! ([`FitnessPlot`]: best and mean fitness per generation), and the error of a validation case
//! against lattice refinement ([`ConvergencePlot`]).
//!
//! Drawn with [`plotters`] on its bitmap backend; text uses the bundled DejaVu Sans font
//! (`assets/fonts`, Bitstream Vera licence), so no system font libraries are needed.
//!
//! ```no_run
//! # fn main() -> hooke::Result<()> {
//! # let model = hooke::Model::default();
//! let mut world = hooke::CpuWorld::new(&model)?;
//! let mut samples = vec![(world.time(), world.energy()?)];
//! for _ in 0..100 {
//!     world.step(100)?;
//!     samples.push((world.time(), world.energy()?));
//! }
//! hooke::plot::EnergyPlot::default().save(&samples, "energy.png")?;
//! # Ok(()) }
//! ```

use std::path::{Path, PathBuf};
use std::sync::Once;

use plotters::prelude::*;

use crate::energy::Energy;
use crate::error::{Error, Result};

mod convergence;
mod envelope;
mod fitness;

pub use convergence::{ConvergenceCurve, ConvergencePlot};
pub use envelope::{Envelope, EnvelopeBin};
pub use fitness::{FitnessPlot, GenerationFitness};

/// The bundled font (DejaVu Sans; licence in assets/fonts/DejaVuSans-LICENSE.txt).
static FONT: &[u8] = include_bytes!("../../assets/fonts/DejaVuSans.ttf");

/// Family name the bundled font is registered under.
const FAMILY: &str = "sans-serif";

fn register_font() {
    static REGISTER: Once = Once::new();
    REGISTER.call_once(|| {
        // The font is a valid TrueType file checked in; a failure here would show as missing
        // text, never as a crash.
        let _ = plotters::style::register_font(FAMILY, FontStyle::Normal, FONT);
    });
}

/// An [`Error::Plot`] for the plot being written to `path`.
fn plot_error(path: &Path, reason: String) -> Error {
    Error::Plot {
        path: PathBuf::from(path),
        reason,
    }
}

/// Refuses images smaller than 200 x 150 pixels (no room for axes and labels).
fn check_size(width: u32, height: u32, path: &Path) -> Result<()> {
    if width < 200 || height < 150 {
        return Err(plot_error(
            path,
            format!("size {width} x {height} is below the minimum 200 x 150 pixels"),
        ));
    }
    Ok(())
}

/// A `width` x `height` plot: a white canvas that `paint` draws on (`draw` turns a plotters
/// error into an [`Error::Plot`] naming `path`), returned as an image.
fn draw_canvas(
    width: u32,
    height: u32,
    path: &Path,
    paint: impl FnOnce(
        &DrawingArea<BitMapBackend<'_>, plotters::coord::Shift>,
        &dyn Fn(&dyn std::fmt::Display) -> Error,
    ) -> Result<()>,
) -> Result<image::RgbImage> {
    register_font();
    let fail = |reason: String| plot_error(path, reason);
    let mut buffer = vec![0u8; width as usize * height as usize * 3];
    {
        let draw = |e: &dyn std::fmt::Display| fail(format!("drawing failed: {e}"));
        let root = BitMapBackend::with_buffer(&mut buffer, (width, height)).into_drawing_area();
        root.fill(&WHITE).map_err(|e| draw(&e))?;
        paint(&root, &draw)?;
        root.present().map_err(|e| draw(&e))?;
    }
    image::RgbImage::from_raw(width, height, buffer)
        .ok_or_else(|| fail("plot buffer has the wrong size".to_string()))
}

/// Writes `image` as a PNG file at `path`.
fn save_png(image: &image::RgbImage, path: &Path) -> Result<()> {
    image
        .save_with_format(path, image::ImageFormat::Png)
        .map_err(|source| Error::ImageWrite {
            path: path.to_path_buf(),
            source,
        })
}

/// One curve of an energy plot.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Series {
    /// [`Energy::kinetic`].
    Kinetic,
    /// [`Energy::gravity`].
    Gravity,
    /// [`Energy::elastic`].
    Elastic,
    /// [`Energy::ground`].
    Ground,
    /// [`Energy::dissipated`].
    Dissipated,
    /// [`Energy::injected`].
    Injected,
    /// [`Energy::total`]: kinetic + gravitational + elastic + ground.
    Total,
    /// [`Energy::balance`]: total + dissipated - injected, constant up to integration error.
    Balance,
}

impl Series {
    /// Every series, in legend order.
    pub const ALL: [Series; 8] = [
        Series::Kinetic,
        Series::Gravity,
        Series::Elastic,
        Series::Ground,
        Series::Dissipated,
        Series::Injected,
        Series::Total,
        Series::Balance,
    ];

    /// The legend label.
    #[must_use]
    pub fn label(self) -> &'static str {
        match self {
            Series::Kinetic => "kinetic",
            Series::Gravity => "gravitational",
            Series::Elastic => "elastic",
            Series::Ground => "ground",
            Series::Dissipated => "dissipated",
            Series::Injected => "injected",
            Series::Total => "total",
            Series::Balance => "balance (total + dissipated - injected)",
        }
    }

    /// The series' value in `e`, in J.
    #[must_use]
    pub fn value(self, e: &Energy) -> f64 {
        match self {
            Series::Kinetic => e.kinetic,
            Series::Gravity => e.gravity,
            Series::Elastic => e.elastic,
            Series::Ground => e.ground,
            Series::Dissipated => e.dissipated,
            Series::Injected => e.injected,
            Series::Total => e.total(),
            Series::Balance => e.balance(),
        }
    }

    /// Line colour (sRGB) and width (px).
    #[must_use]
    pub fn color(self) -> ([u8; 3], u32) {
        match self {
            Series::Kinetic => ([228, 26, 28], 2),
            Series::Gravity => ([55, 126, 184], 2),
            Series::Elastic => ([77, 175, 74], 2),
            Series::Ground => ([152, 78, 163], 2),
            Series::Dissipated => ([255, 127, 0], 2),
            Series::Injected => ([166, 86, 40], 2),
            Series::Total => ([0, 0, 0], 3),
            Series::Balance => ([120, 120, 120], 2),
        }
    }
}

/// An energy-versus-time plot.
///
/// # Examples
///
/// ```
/// use hooke::creatures::Pendulum;
/// use hooke::plot::{EnergyPlot, Series};
///
/// let mut world = Pendulum::default().build()?.world()?;
/// let mut samples = vec![(world.time(), world.energy()?)]; // (s, J)
/// for _ in 0..10 {
///     world.step(100)?; // 0.01 s
///     samples.push((world.time(), world.energy()?));
/// }
/// let plot = EnergyPlot { width: 400, height: 300, ..EnergyPlot::titled("pendulum") };
/// let image = plot.render(&samples)?; // or plot.save(&samples, "energy.png")?
/// assert_eq!(image.dimensions(), (400, 300));
/// // Nothing drives the pendulum, so the injected-energy curve is left out.
/// assert!(!plot.series_for(&samples).contains(&Series::Injected));
/// # Ok::<(), hooke::Error>(())
/// ```
#[derive(Clone, Debug, PartialEq)]
pub struct EnergyPlot {
    /// Image width in pixels (>= 200).
    pub width: u32,
    /// Image height in pixels (>= 150).
    pub height: u32,
    /// The caption.
    pub title: String,
    /// The curves drawn, in legend order. [`Series::Injected`] is left out of the default when
    /// it stays zero (see [`EnergyPlot::series_for`]).
    pub series: Vec<Series>,
}

impl Default for EnergyPlot {
    /// 960 x 540 pixels, titled "Energy", every series.
    fn default() -> Self {
        Self {
            width: 960,
            height: 540,
            title: "Energy".to_string(),
            series: Series::ALL.to_vec(),
        }
    }
}

impl EnergyPlot {
    /// The default plot with caption `title`.
    #[must_use]
    pub fn titled(title: impl Into<String>) -> Self {
        Self {
            title: title.into(),
            ..Self::default()
        }
    }

    /// The series this plot draws for `samples`: [`EnergyPlot::series`], without
    /// [`Series::Injected`] when it is zero throughout.
    #[must_use]
    pub fn series_for(&self, samples: &[(f64, Energy)]) -> Vec<Series> {
        let injected = samples.iter().any(|(_, e)| e.injected != 0.0);
        self.series
            .iter()
            .copied()
            .filter(|&s| s != Series::Injected || injected)
            .collect()
    }

    /// Draws the plot of `samples`, each `(time in s, energy)`, as an RGB image.
    ///
    /// # Errors
    /// [`Error::Plot`] for no samples, non-finite or decreasing times, non-finite energies, a
    /// size below 200 x 150, or a drawing failure.
    pub fn render(&self, samples: &[(f64, Energy)]) -> Result<image::RgbImage> {
        self.render_named(samples, Path::new("<memory>"))
    }

    /// Draws the plot of `samples` and writes it as a PNG file at `path`.
    ///
    /// # Errors
    /// As [`EnergyPlot::render`]; [`Error::ImageWrite`] if the file cannot be written.
    pub fn save(&self, samples: &[(f64, Energy)], path: impl AsRef<Path>) -> Result<()> {
        let path = path.as_ref();
        save_png(&self.render_named(samples, path)?, path)
    }

    /// Pixel columns of the plotting area: the image width less the legend column, the margins
    /// and the energy axis labels.
    #[must_use]
    pub fn columns(&self) -> u32 {
        let (plot_width, _) = self.split();
        plot_width.saturating_sub(2 * MARGIN + ENERGY_LABELS).max(1)
    }

    /// Bins [`EnergyPlot::envelopes`] gathers the samples in: one per 4 pixel columns of the
    /// plotting area (at least 1).
    #[must_use]
    pub fn bins(&self) -> u32 {
        (self.columns() / BIN_PIXELS).max(1)
    }

    /// What the plot draws of each series of `samples` (each `(time in s, energy)`): its
    /// [`Envelope`] over the plot's [`EnergyPlot::bins`] from the first sample's time to the
    /// last's. A light band spans each bin's smallest to largest sample and a line joins the bin
    /// means, so oscillations faster than a few pixel columns show as a band around their mean
    /// instead of a solid zigzag; with at most one sample per bin the line is the samples
    /// themselves. The exact samples stay in the caller's trace.
    ///
    /// # Errors
    /// As [`EnergyPlot::render`].
    pub fn envelopes(&self, samples: &[(f64, Energy)]) -> Result<Vec<(Series, Envelope)>> {
        self.envelopes_named(samples, Path::new("<memory>"))
    }

    fn envelopes_named(
        &self,
        samples: &[(f64, Energy)],
        path: &Path,
    ) -> Result<Vec<(Series, Envelope)>> {
        check_size(self.width, self.height, path)?;
        if samples.is_empty() {
            return Err(plot_error(path, "no samples to plot".to_string()));
        }
        let series = self.series_for(samples);
        energy_range(samples, &series, path)?;
        let (t0, t1) = (samples[0].0, samples[samples.len() - 1].0);
        let bins = self.bins();
        Ok(series
            .into_iter()
            .map(|s| {
                let points: Vec<(f64, f64)> =
                    samples.iter().map(|(t, e)| (*t, s.value(e))).collect();
                (s, Envelope::new(&points, t0, t1, bins))
            })
            .collect())
    }

    /// Widths of the chart and of the legend column on its right.
    fn split(&self) -> (u32, u32) {
        let legend = (self.width / 4).clamp(120, 260);
        (self.width - legend, legend)
    }

    fn render_named(&self, samples: &[(f64, Energy)], path: &Path) -> Result<image::RgbImage> {
        let envelopes = self.envelopes_named(samples, path)?;
        let series: Vec<Series> = envelopes.iter().map(|(s, _)| *s).collect();
        let (y_min, y_max) = energy_range(samples, &series, path)?;
        let t0 = samples[0].0;
        let mut t1 = samples[samples.len() - 1].0;
        if t1 <= t0 {
            t1 = t0 + 1.0;
        }
        let (w, h) = (self.width, self.height);
        draw_canvas(w, h, path, |root, draw| {
            // The legend gets its own column on the right, so it never hides a curve.
            let (area, legend) = root.split_horizontally(self.split().0);
            let mut chart = ChartBuilder::on(&area)
                .caption(&self.title, (FAMILY, 22))
                .margin(MARGIN)
                .x_label_area_size(42)
                .y_label_area_size(ENERGY_LABELS)
                .build_cartesian_2d(t0..t1, y_min..y_max)
                .map_err(|e| draw(&e))?;
            debug_assert_eq!(
                chart.plotting_area().dim_in_pixel().0.max(1),
                self.columns()
            );
            chart
                .configure_mesh()
                .x_desc("time (s)")
                .y_desc("energy (J)")
                .label_style((FAMILY, 14))
                .axis_desc_style((FAMILY, 16))
                .light_line_style(RGBColor(235, 235, 235))
                .bold_line_style(RGBColor(205, 205, 205))
                .draw()
                .map_err(|e| draw(&e))?;
            for (s, envelope) in &envelopes {
                draw_envelope(&mut chart, *s, envelope).map_err(|e| draw(&e))?;
            }
            draw_legend(&legend, &series).map_err(|e| draw(&e))
        })
    }
}

/// Width of the bins [`EnergyPlot::envelopes`] gathers samples in, in pixel columns: wide enough
/// that a bin of a signal sampled every step spans a few periods of its fastest oscillation
/// (the bouncing cube: 2 s over about 600 columns, 13 ms per bin, 2 to 3 periods of its
/// vibration), narrow enough that a smooth curve drawn through the bins looks smooth.
const BIN_PIXELS: u32 = 4;

/// Margin around the chart, in pixels.
const MARGIN: u32 = 12;
/// Width of the energy axis labels, in pixels.
const ENERGY_LABELS: u32 = 78;

/// A plotters drawing error of the bitmap backend.
type DrawError = DrawingAreaErrorKind<<BitMapBackend<'static> as DrawingBackend>::ErrorType>;

/// Draws `s`'s envelope: a band (the series colour at 25 % opacity) from each bin's smallest to
/// largest sample, and the line through the bin means (dashed for the balance).
fn draw_envelope<'a>(
    chart: &mut ChartContext<
        'a,
        BitMapBackend<'a>,
        Cartesian2d<plotters::coord::types::RangedCoordf64, plotters::coord::types::RangedCoordf64>,
    >,
    s: Series,
    envelope: &Envelope,
) -> std::result::Result<(), DrawError> {
    let ([r, g, b], width) = s.color();
    let style = RGBColor(r, g, b).stroke_width(width);
    if envelope.has_spread() {
        let band = Polygon::new(envelope.band(), RGBColor(r, g, b).mix(0.25).filled());
        chart.draw_series(std::iter::once(band))?;
    }
    let points = envelope.line();
    if s == Series::Balance {
        chart.draw_series(DashedLineSeries::new(points, 8, 5, style))?;
    } else if points.len() == 1 {
        chart.draw_series(LineSeries::new(points, style))?;
    } else {
        // Separate segments: a wide polyline's miter joins spike at sharp turns.
        let segments = points
            .windows(2)
            .map(|ab| PathElement::new(ab.to_vec(), style));
        chart.draw_series(segments)?;
    }
    Ok(())
}

/// The legend column: a key and label per series, and what the balance means.
fn draw_legend(
    legend: &DrawingArea<BitMapBackend<'_>, plotters::coord::Shift>,
    series: &[Series],
) -> std::result::Result<(), DrawError> {
    for (i, s) in series.iter().enumerate() {
        let ([r, g, b], width) = s.color();
        let style = RGBColor(r, g, b).stroke_width(width);
        let y = 50 + 24 * i as i32;
        if *s == Series::Balance {
            legend.draw(&PathElement::new(vec![(8, y), (16, y)], style))?;
            legend.draw(&PathElement::new(vec![(22, y), (30, y)], style))?;
        } else {
            legend.draw(&PathElement::new(vec![(8, y), (34, y)], style))?;
        }
        let label = match s {
            Series::Balance => "balance",
            other => other.label(),
        };
        let font = (FAMILY, 15).into_font().color(&BLACK);
        legend.draw(&Text::new(label, (42, y - 8), font))?;
    }
    let y = 50 + 24 * series.len() as i32;
    let mut notes = vec![
        "light bands: smallest to largest",
        "  sample around each point",
    ];
    if series.contains(&Series::Balance) {
        notes.extend([
            "balance = total + dissipated",
            "  - injected: constant up to",
            "  the integrator's swing and,",
            "  with damping or contact, a",
            "  drift: both halve with dt",
            "  (see the guide, \"How exact",
            "  the books are\")",
        ]);
    }
    for (j, line) in notes.iter().enumerate() {
        let font = (FAMILY, 12).into_font().color(&RGBColor(90, 90, 90));
        legend.draw(&Text::new(*line, (8, y + 18 * j as i32), font))?;
    }
    Ok(())
}

/// The energy axis of a plot of `series` over `samples` (J), padded by 5 % of the span (at
/// least a relative 1e-6, or 1e-12 J); `[0, 1]` padded for no series.
///
/// # Errors
/// [`Error::Plot`] naming `path` for a non-finite or decreasing time or a non-finite energy.
fn energy_range(samples: &[(f64, Energy)], series: &[Series], path: &Path) -> Result<(f64, f64)> {
    let fail = |reason: String| plot_error(path, reason);
    let mut y_min = f64::INFINITY;
    let mut y_max = f64::NEG_INFINITY;
    for (i, (t, e)) in samples.iter().enumerate() {
        if !t.is_finite() {
            return Err(fail(format!("sample {i} has a non-finite time {t}")));
        }
        if i > 0 && *t < samples[i - 1].0 {
            return Err(fail(format!(
                "sample {i} has time {t} s, before the previous sample's {} s",
                samples[i - 1].0
            )));
        }
        for s in series {
            let v = s.value(e);
            if !v.is_finite() {
                return Err(fail(format!(
                    "sample {i} (t = {t} s) has a non-finite {} energy",
                    s.label()
                )));
            }
            y_min = y_min.min(v);
            y_max = y_max.max(v);
        }
    }
    if series.is_empty() {
        (y_min, y_max) = (0.0, 1.0);
    }
    let pad = ((y_max - y_min) * 0.05)
        .max(y_max.abs().max(y_min.abs()) * 1e-6)
        .max(1e-12);
    Ok((y_min - pad, y_max + pad))
}

/// One curve of a [`CostPlot`]: a label and `(springs, nanoseconds per spring update)` points.
#[derive(Clone, Debug, PartialEq)]
pub struct CostCurve {
    /// Legend text, e.g. `"GPU World (lavapipe)"`.
    pub label: String,
    /// `(springs, ns per spring update)`, springs > 0 and ns >= 0, in any order.
    pub points: Vec<(f64, f64)>,
}

/// Cost per spring update (ns) against the number of springs, on a logarithmic spring axis: a
/// flat curve is cost growing linearly with springs. The `throughput` example writes one.
#[derive(Clone, Debug, PartialEq)]
pub struct CostPlot {
    /// Image width in pixels (>= 200).
    pub width: u32,
    /// Image height in pixels (>= 150).
    pub height: u32,
    /// The caption.
    pub title: String,
}

impl Default for CostPlot {
    /// 960 x 540 pixels, titled "Cost per spring update".
    fn default() -> Self {
        Self {
            width: 960,
            height: 540,
            title: "Cost per spring update".to_string(),
        }
    }
}

impl CostPlot {
    /// Draws `curves` as an RGB image.
    ///
    /// # Errors
    /// [`Error::Plot`] for no points at all, a spring count that is not finite and > 0, a cost
    /// that is not finite and >= 0, a size below 200 x 150, or a drawing failure.
    pub fn render(&self, curves: &[CostCurve]) -> Result<image::RgbImage> {
        self.render_named(curves, Path::new("<memory>"))
    }

    /// Draws `curves` and writes them as a PNG file at `path`.
    ///
    /// # Errors
    /// As [`CostPlot::render`]; [`Error::ImageWrite`] if the file cannot be written.
    pub fn save(&self, curves: &[CostCurve], path: impl AsRef<Path>) -> Result<()> {
        let path = path.as_ref();
        save_png(&self.render_named(curves, path)?, path)
    }

    fn render_named(&self, curves: &[CostCurve], path: &Path) -> Result<image::RgbImage> {
        let fail = |reason: String| plot_error(path, reason);
        check_size(self.width, self.height, path)?;
        let (mut x_min, mut x_max, mut y_max) = (f64::INFINITY, 0.0f64, 0.0f64);
        for c in curves {
            for &(x, y) in &c.points {
                if !(x.is_finite() && x > 0.0) {
                    return Err(fail(format!("{}: spring count {x} is not > 0", c.label)));
                }
                if !(y.is_finite() && y >= 0.0) {
                    return Err(fail(format!("{}: cost {y} ns is not >= 0", c.label)));
                }
                x_min = x_min.min(x);
                x_max = x_max.max(x);
                y_max = y_max.max(y);
            }
        }
        if x_max == 0.0 {
            return Err(fail("no points to plot".to_string()));
        }
        let (x_min, x_max) = (x_min / 1.5, x_max * 1.5);
        let y_max = if y_max > 0.0 { y_max * 1.1 } else { 1.0 };

        let (w, h) = (self.width, self.height);
        draw_canvas(w, h, path, |root, draw| {
            let mut chart = ChartBuilder::on(root)
                .caption(&self.title, (FAMILY, 22))
                .margin(12)
                .x_label_area_size(42)
                .y_label_area_size(64)
                .build_cartesian_2d((x_min..x_max).log_scale(), 0.0..y_max)
                .map_err(|e| draw(&e))?;
            chart
                .configure_mesh()
                .x_desc("springs")
                .y_desc("ns per spring update")
                .x_label_formatter(&|x| format!("{x:.0e}"))
                .label_style((FAMILY, 14))
                .axis_desc_style((FAMILY, 16))
                .light_line_style(RGBColor(235, 235, 235))
                .bold_line_style(RGBColor(205, 205, 205))
                .draw()
                .map_err(|e| draw(&e))?;
            const COLORS: [RGBColor; 4] = [
                RGBColor(31, 119, 180),
                RGBColor(214, 39, 40),
                RGBColor(44, 160, 44),
                RGBColor(148, 103, 189),
            ];
            for (i, c) in curves.iter().enumerate() {
                let color = COLORS[i % COLORS.len()];
                let mut points = c.points.clone();
                points.sort_by(|a, b| a.0.total_cmp(&b.0));
                chart
                    .draw_series(LineSeries::new(points.clone(), color.stroke_width(2)))
                    .map_err(|e| draw(&e))?
                    .label(c.label.as_str())
                    .legend(move |(x, y)| {
                        PathElement::new(vec![(x, y), (x + 24, y)], color.stroke_width(2))
                    });
                chart
                    .draw_series(points.iter().map(|&p| Circle::new(p, 4, color.filled())))
                    .map_err(|e| draw(&e))?;
            }
            chart
                .configure_series_labels()
                .label_font((FAMILY, 15))
                .background_style(WHITE.mix(0.9))
                .border_style(RGBColor(205, 205, 205))
                .position(SeriesLabelPosition::UpperRight)
                .draw()
                .map_err(|e| draw(&e))?;
            Ok(())
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_bins_span_the_plotting_area_plotters_lays_out() {
        // render_named asserts (debug builds, so tests) that plotters' plotting area is
        // EnergyPlot::columns() wide; render at widths that hit both legend clamps and between.
        let samples: Vec<(f64, Energy)> = (0..50)
            .map(|i| (f64::from(i) * 0.01, Energy::default()))
            .collect();
        for width in [200, 480, 640, 960, 1041, 1600] {
            let plot = EnergyPlot {
                width,
                height: 300,
                ..EnergyPlot::default()
            };
            let image = plot.render(&samples).unwrap();
            assert_eq!(image.width(), width);
            assert_eq!(plot.bins(), (plot.columns() / BIN_PIXELS).max(1));
        }
    }
}
