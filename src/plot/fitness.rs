//! [`FitnessPlot`]: best and mean fitness per generation of an evolutionary run.

use std::path::Path;

use plotters::prelude::*;

use super::{check_size, draw_canvas, plot_error, save_png, FAMILY};
use crate::error::Result;

/// A curve of the plot: its label, its colour and the value it draws.
type Curve = (&'static str, RGBColor, fn(&GenerationFitness) -> f64);

/// The fitness of one generation: its best and its mean over the robots that did not fail
/// (units of the fitness, e.g. m for distance walked).
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct GenerationFitness {
    /// The best fitness of the generation.
    pub best: f64,
    /// The mean fitness of the generation.
    pub mean: f64,
}

/// Best and mean fitness against generation number (generation 0 first), the plot an evolution
/// run writes (`hooke evolve`).
///
/// # Examples
///
/// ```
/// use hooke::plot::{FitnessPlot, GenerationFitness};
///
/// let history: Vec<_> = (0..10)
///     .map(|g| GenerationFitness { best: 0.1 * g as f64, mean: 0.05 * g as f64 })
///     .collect();
/// let image = FitnessPlot::default().render(&history)?;
/// assert_eq!(image.dimensions(), (960, 540));
/// # Ok::<(), hooke::Error>(())
/// ```
#[derive(Clone, Debug, PartialEq)]
pub struct FitnessPlot {
    /// Image width in pixels (>= 200).
    pub width: u32,
    /// Image height in pixels (>= 150).
    pub height: u32,
    /// The caption.
    pub title: String,
    /// The fitness axis label, with its unit.
    pub fitness: String,
}

impl Default for FitnessPlot {
    /// 960 x 540 pixels, titled "Fitness over generations", axis "distance walked (m)".
    fn default() -> Self {
        Self {
            width: 960,
            height: 540,
            title: "Fitness over generations".to_string(),
            fitness: "distance walked (m)".to_string(),
        }
    }
}

impl FitnessPlot {
    /// Draws `history` (one entry per generation) as an RGB image.
    ///
    /// # Errors
    /// [`crate::Error::Plot`] for an empty history, a non-finite value, a size below 200 x 150,
    /// or a drawing failure.
    pub fn render(&self, history: &[GenerationFitness]) -> Result<image::RgbImage> {
        self.render_named(history, Path::new("<memory>"))
    }

    /// Draws `history` and writes it as a PNG file at `path`.
    ///
    /// # Errors
    /// As [`FitnessPlot::render`]; [`crate::Error::ImageWrite`] if the file cannot be written.
    pub fn save(&self, history: &[GenerationFitness], path: impl AsRef<Path>) -> Result<()> {
        let path = path.as_ref();
        save_png(&self.render_named(history, path)?, path)
    }

    fn render_named(&self, history: &[GenerationFitness], path: &Path) -> Result<image::RgbImage> {
        check_size(self.width, self.height, path)?;
        if history.is_empty() {
            return Err(plot_error(path, "no generations to plot".to_string()));
        }
        let (mut lo, mut hi) = (f64::INFINITY, f64::NEG_INFINITY);
        for (g, f) in history.iter().enumerate() {
            if !(f.best.is_finite() && f.mean.is_finite()) {
                return Err(plot_error(
                    path,
                    format!(
                        "generation {g}: best {} or mean {} is not finite",
                        f.best, f.mean
                    ),
                ));
            }
            lo = lo.min(f.best.min(f.mean));
            hi = hi.max(f.best.max(f.mean));
        }
        let pad = (0.05 * (hi - lo)).max(1e-9);
        let (lo, hi) = (lo - pad, hi + pad);
        let last = (history.len() - 1).max(1) as f64;
        draw_canvas(self.width, self.height, path, |root, draw| {
            let mut chart = ChartBuilder::on(root)
                .caption(&self.title, (FAMILY, 22))
                .margin(12)
                .x_label_area_size(42)
                .y_label_area_size(64)
                .build_cartesian_2d(0.0..last, lo..hi)
                .map_err(|e| draw(&e))?;
            chart
                .configure_mesh()
                .x_desc("generation")
                .y_desc(self.fitness.as_str())
                // At most one label per generation: more would repeat rounded numbers.
                .x_labels(history.len().clamp(2, 11))
                .x_label_formatter(&|x| format!("{x:.0}"))
                .label_style((FAMILY, 14))
                .axis_desc_style((FAMILY, 16))
                .light_line_style(RGBColor(235, 235, 235))
                .bold_line_style(RGBColor(205, 205, 205))
                .draw()
                .map_err(|e| draw(&e))?;
            let curves: [Curve; 2] = [
                ("best", RGBColor(214, 39, 40), |f| f.best),
                ("mean", RGBColor(31, 119, 180), |f| f.mean),
            ];
            for (label, color, value) in curves {
                let points: Vec<(f64, f64)> = history
                    .iter()
                    .enumerate()
                    .map(|(g, f)| (g as f64, value(f)))
                    .collect();
                chart
                    .draw_series(LineSeries::new(points, color.stroke_width(2)))
                    .map_err(|e| draw(&e))?
                    .label(label)
                    .legend(move |(x, y)| {
                        PathElement::new(vec![(x, y), (x + 24, y)], color.stroke_width(2))
                    });
            }
            chart
                .configure_series_labels()
                .label_font((FAMILY, 15))
                .background_style(WHITE.mix(0.9))
                .border_style(RGBColor(205, 205, 205))
                .position(SeriesLabelPosition::LowerRight)
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
    fn non_finite_fitness_is_an_error_naming_the_generation() {
        let history = [
            GenerationFitness {
                best: 1.0,
                mean: 0.5,
            },
            GenerationFitness {
                best: f64::NAN,
                mean: 0.5,
            },
        ];
        let err = FitnessPlot::default().render(&history).unwrap_err();
        assert!(err.to_string().contains("generation 1"), "{err}");
        assert!(FitnessPlot::default().render(&[]).is_err());
    }

    #[test]
    fn one_generation_draws() {
        let history = [GenerationFitness {
            best: 1.0,
            mean: 1.0,
        }];
        assert_eq!(
            FitnessPlot::default().render(&history).unwrap().width(),
            960
        );
    }
}
