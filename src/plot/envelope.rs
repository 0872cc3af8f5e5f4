//! What an energy plot draws of a series: its min/max envelope over bins of a few pixel columns.
//!
//! A simulation sampled every step has many samples per pixel column; joining them all with a
//! line draws every oscillation faster than a column as a solid zigzag (the bouncing cube's
//! kinetic and elastic energy trade places at a few hundred hertz), and sampling less often
//! aliases. Per bin the plot instead draws the range of the samples in it (a light band from the
//! smallest to the largest) and their mean (a line): at most two band points and one line point
//! per bin, and every sample lies within its bin's band.

/// The samples of one series that fall in one bin (a few pixel columns) of the plot.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct EnvelopeBin {
    /// Bin number, 0 at the left of the plotting area.
    pub bin: u32,
    /// Number of samples in it (at least 1).
    pub samples: usize,
    /// Time of its first sample, in s.
    pub first: f64,
    /// Time of its last sample, in s.
    pub last: f64,
    /// Mean time of its samples, in s: where its band and line points are drawn.
    pub time: f64,
    /// Smallest sample, in the series' unit (J for energies).
    pub min: f64,
    /// Largest sample.
    pub max: f64,
    /// Mean of its samples.
    pub mean: f64,
}

/// The min/max envelope of a series of `(time in s, value)` samples over `bins` equal bins
/// spanning `[t0, t1]` s: one [`EnvelopeBin`] per bin that has samples, left to right.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Envelope {
    /// The bins that hold at least one sample, in order.
    pub bins: Vec<EnvelopeBin>,
}

impl Envelope {
    /// The envelope of `samples` (times non-decreasing) over `bins` (at least 1) equal bins of
    /// `[t0, t1]` s: bin `j` holds the samples with `t0 + j w <= t < t0 + (j + 1) w`,
    /// `w = (t1 - t0) / bins` (times outside the span go to the first or last bin). With
    /// `t1 <= t0` every sample is in bin 0.
    #[must_use]
    pub fn new(samples: &[(f64, f64)], t0: f64, t1: f64, bins: u32) -> Self {
        let bins = bins.max(1);
        let span = t1 - t0;
        let bin_of = |t: f64| {
            if span > 0.0 {
                let j = ((t - t0) / span * f64::from(bins)).floor();
                j.clamp(0.0, f64::from(bins - 1)) as u32
            } else {
                0
            }
        };
        let mut out: Vec<EnvelopeBin> = Vec::new();
        let mut sums = (0.0, 0.0); // sums of the times and values in the open bin
        for &(t, v) in samples {
            let bin = bin_of(t);
            match out.last_mut() {
                Some(c) if c.bin == bin => {
                    c.samples += 1;
                    c.last = t;
                    c.min = c.min.min(v);
                    c.max = c.max.max(v);
                    sums = (sums.0 + t, sums.1 + v);
                }
                _ => {
                    close(out.last_mut(), sums);
                    sums = (t, v);
                    out.push(EnvelopeBin {
                        bin,
                        samples: 1,
                        first: t,
                        last: t,
                        time: t,
                        min: v,
                        max: v,
                        mean: v,
                    });
                }
            }
        }
        close(out.last_mut(), sums);
        Self { bins: out }
    }

    /// The band from each bin's smallest to its largest sample, as a closed polygon: the maxima
    /// left to right, then the minima right to left (two points per bin, at the bin's mean
    /// time).
    #[must_use]
    pub fn band(&self) -> Vec<(f64, f64)> {
        let upper = self.bins.iter().map(|c| (c.time, c.max));
        let lower = self.bins.iter().rev().map(|c| (c.time, c.min));
        upper.chain(lower).collect()
    }

    /// The line through each bin's mean (one point per bin, at its mean time); with at most one
    /// sample per bin, the samples themselves.
    #[must_use]
    pub fn line(&self) -> Vec<(f64, f64)> {
        self.bins.iter().map(|c| (c.time, c.mean)).collect()
    }

    /// Whether some bin holds more than one sample (otherwise the band is the line).
    #[must_use]
    pub fn has_spread(&self) -> bool {
        self.bins.iter().any(|c| c.samples > 1)
    }
}

/// Sets the means of a finished bin from the sums of its samples' times and values.
fn close(bin: Option<&mut EnvelopeBin>, (time, value): (f64, f64)) {
    if let Some(c) = bin {
        let n = c.samples as f64;
        c.time = time / n;
        c.mean = value / n;
        // Rounding can put a mean a hair outside the range it averages.
        c.mean = c.mean.clamp(c.min, c.max);
        c.time = c.time.clamp(c.first, c.last);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn samples_fall_in_their_bins() {
        // 10 bins of 0.1 s over [0, 1] s; samples every 0.025 s: four per bin, the one at t = 1 s
        // in the last bin.
        let samples: Vec<(f64, f64)> = (0..=40)
            .map(|i| (f64::from(i) * 0.025, f64::from(i % 4)))
            .collect();
        let e = Envelope::new(&samples, 0.0, 1.0, 10);
        assert_eq!(e.bins.len(), 10);
        assert_eq!(e.bins[0].samples, 4);
        assert_eq!(e.bins[9].samples, 5);
        let c = e.bins[3];
        assert_eq!((c.bin, c.min, c.max, c.mean), (3, 0.0, 3.0, 1.5));
        assert!((c.first - 0.3).abs() < 1e-12 && (c.last - 0.375).abs() < 1e-12);
        assert!((c.time - 0.3375).abs() < 1e-12);
        assert_eq!(e.band().len(), 20);
        assert_eq!(e.line().len(), 10);
        assert!(e.has_spread());
    }

    #[test]
    fn sparse_samples_are_drawn_as_they_are() {
        let samples = [(0.0, 1.0), (0.5, 2.0), (1.0, -1.0)];
        let e = Envelope::new(&samples, 0.0, 1.0, 100);
        assert_eq!(e.line(), samples);
        assert!(!e.has_spread());
        assert_eq!(
            e.bins.iter().map(|c| c.bin).collect::<Vec<_>>(),
            [0, 50, 99]
        );
        // A zero time span puts everything in one bin.
        let e = Envelope::new(&samples, 0.0, 0.0, 100);
        assert_eq!(e.bins.len(), 1);
        assert_eq!((e.bins[0].min, e.bins[0].max), (-1.0, 2.0));
        assert!(Envelope::new(&[], 0.0, 1.0, 10).bins.is_empty());
    }
}
