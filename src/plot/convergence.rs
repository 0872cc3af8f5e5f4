//! [`ConvergencePlot`]: relative error against lattice refinement, both axes logarithmic.

use std::path::Path;

use plotters::prelude::*;

use super::{check_size, draw_canvas, plot_error, save_png, FAMILY};
use crate::error::Result;

/// One curve of a [`ConvergencePlot`]: a label and `(cells across, |relative error|)` points.
#[derive(Clone, Debug, PartialEq)]
pub struct ConvergenceCurve {
    /// Legend text, e.g. `"cantilever tip deflection"`.
    pub label: String,
    /// `(cells across the thickness, |relative error|)`, both finite and > 0, in any order.
    pub points: Vec<(f64, f64)>,
    /// A prediction rather than a measurement: drawn as a thin line without markers, in the
    /// colour of the measured curve before it.
    pub predicted: bool,
}

/// Relative error against the number of cells across a body's thickness, on logarithmic axes:
/// an error of order `p` in the spacing is a straight line of slope `-p`. The
/// `continuum_validation` example writes one.
///
/// # Examples
///
/// ```
/// use hooke::plot::{ConvergenceCurve, ConvergencePlot};
///
/// let measured = ConvergenceCurve {
///     label: "deflection".to_string(),
///     points: vec![(1.0, 0.56), (2.0, 0.24), (4.0, 0.074)],
///     predicted: false,
/// };
/// let image = ConvergencePlot::default().render(&[measured])?;
/// assert_eq!(image.dimensions(), (960, 600));
/// # Ok::<(), hooke::Error>(())
/// ```
#[derive(Clone, Debug, PartialEq)]
pub struct ConvergencePlot {
    /// Image width in pixels (>= 200).
    pub width: u32,
    /// Image height in pixels (>= 150).
    pub height: u32,
    /// The caption.
    pub title: String,
}

impl Default for ConvergencePlot {
    /// 960 x 600 pixels, titled "Error against lattice refinement".
    fn default() -> Self {
        Self {
            width: 960,
            height: 600,
            title: "Error against lattice refinement".to_string(),
        }
    }
}

/// The measured curves' colours, in order.
const COLORS: [RGBColor; 6] = [
    RGBColor(31, 119, 180),
    RGBColor(214, 39, 40),
    RGBColor(44, 160, 44),
    RGBColor(148, 103, 189),
    RGBColor(255, 127, 14),
    RGBColor(23, 190, 207),
];

impl ConvergencePlot {
    /// Draws `curves` as an RGB image.
    ///
    /// # Errors
    /// [`crate::Error::Plot`] for no points at all, a coordinate that is not finite and > 0, a
    /// size below 200 x 150, or a drawing failure.
    pub fn render(&self, curves: &[ConvergenceCurve]) -> Result<image::RgbImage> {
        self.render_named(curves, Path::new("<memory>"))
    }

    /// Draws `curves` and writes them as a PNG file at `path`.
    ///
    /// # Errors
    /// As [`ConvergencePlot::render`]; [`crate::Error::ImageWrite`] if the file cannot be
    /// written.
    pub fn save(&self, curves: &[ConvergenceCurve], path: impl AsRef<Path>) -> Result<()> {
        let path = path.as_ref();
        save_png(&self.render_named(curves, path)?, path)
    }

    fn render_named(&self, curves: &[ConvergenceCurve], path: &Path) -> Result<image::RgbImage> {
        check_size(self.width, self.height, path)?;
        let (mut x, mut y) = ((f64::INFINITY, 0.0f64), (f64::INFINITY, 0.0f64));
        for c in curves {
            for &(px, py) in &c.points {
                if !(px.is_finite() && px > 0.0 && py.is_finite() && py > 0.0) {
                    let reason = format!("{}: point ({px}, {py}) is not finite and > 0", c.label);
                    return Err(plot_error(path, reason));
                }
                x = (x.0.min(px), x.1.max(px));
                y = (y.0.min(py), y.1.max(py));
            }
        }
        if x.1 == 0.0 {
            return Err(plot_error(path, "no points to plot".to_string()));
        }
        // Room on the right for the legend, clear of the finest points.
        let (x, y) = ((x.0 / 1.3)..(x.1 * 4.0), (y.0 / 2.0)..(y.1 * 2.0));
        draw_canvas(self.width, self.height, path, |root, draw| {
            let mut chart = ChartBuilder::on(root)
                .caption(&self.title, (FAMILY, 22))
                .margin(12)
                .x_label_area_size(42)
                .y_label_area_size(72)
                .build_cartesian_2d(x.log_scale(), y.log_scale())
                .map_err(|e| draw(&e))?;
            chart
                .configure_mesh()
                .x_desc("cells across the thickness (b / a)")
                .y_desc("|relative error|")
                .x_label_formatter(&|v| format!("{v:.0}"))
                .y_label_formatter(&|v| format!("{v:.0e}"))
                .label_style((FAMILY, 14))
                .axis_desc_style((FAMILY, 16))
                .light_line_style(RGBColor(235, 235, 235))
                .bold_line_style(RGBColor(205, 205, 205))
                .draw()
                .map_err(|e| draw(&e))?;
            let mut measured = 0;
            for c in curves {
                measured += usize::from(!c.predicted);
                let color = COLORS[measured.saturating_sub(1) % COLORS.len()];
                let width = if c.predicted { 1 } else { 2 };
                let mut points = c.points.clone();
                points.sort_by(|a, b| a.0.total_cmp(&b.0));
                chart
                    .draw_series(LineSeries::new(points.clone(), color.stroke_width(width)))
                    .map_err(|e| draw(&e))?
                    .label(c.label.as_str())
                    .legend(move |(x, y)| {
                        PathElement::new(vec![(x, y), (x + 24, y)], color.stroke_width(width))
                    });
                if !c.predicted {
                    chart
                        .draw_series(points.iter().map(|&p| Circle::new(p, 4, color.filled())))
                        .map_err(|e| draw(&e))?;
                }
            }
            chart
                .configure_series_labels()
                .label_font((FAMILY, 14))
                .background_style(WHITE.mix(0.9))
                .border_style(RGBColor(205, 205, 205))
                .position(SeriesLabelPosition::UpperRight)
                .draw()
                .map_err(|e| draw(&e))?;
            Ok(())
        })
    }
}
