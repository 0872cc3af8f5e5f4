//! Animations: GIF output and the frame schedule that keeps frame time independent of `dt`
//! (CS838: "the frame time is independent of dt, e.g. dt = 0.001 and T_frame = 0.03, thus
//! outputting the result of every 30th step").

use std::fs::File;
use std::io::BufWriter;
use std::path::{Path, PathBuf};

use image::codecs::gif::{GifEncoder, Repeat};
use image::{Delay, Frame, RgbaImage};

use crate::error::{Error, Result};

/// When to take frames of a simulation stepped at `dt`: frame `n` shows simulation time
/// `n * frame_time`, that is step `round(n * frame_time / dt)`. Rounding the absolute step
/// rather than each interval keeps frames from drifting when `frame_time` is not a multiple of
/// `dt` (the intervals then alternate between the two nearest step counts).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct FrameSchedule {
    frame_time: f64,
    dt: f64,
}

impl FrameSchedule {
    /// A schedule of one frame every `frame_time` s for a simulation stepping `dt` s.
    ///
    /// # Errors
    /// [`Error::InvalidParameter`] unless both are finite and > 0, and `frame_time >= dt`.
    pub fn new(frame_time: f64, dt: f64) -> Result<Self> {
        if !(dt.is_finite() && dt > 0.0) {
            return Err(Error::InvalidParameter {
                name: "dt",
                value: dt,
                expected: "must be finite and > 0 s",
            });
        }
        if !(frame_time.is_finite() && frame_time >= dt) {
            return Err(Error::InvalidParameter {
                name: "frame_time",
                value: frame_time,
                expected: "must be finite and at least dt (s)",
            });
        }
        Ok(Self { frame_time, dt })
    }

    /// Time between frames, in s.
    #[must_use]
    pub fn frame_time(&self) -> f64 {
        self.frame_time
    }

    /// The simulation step shown by frame `frame` (frame 0 is the initial state, step 0).
    #[must_use]
    pub fn step_of(&self, frame: u64) -> u64 {
        (frame as f64 * self.frame_time / self.dt).round() as u64
    }

    /// Steps to take after frame `frame - 1` to reach frame `frame` (0 for frame 0).
    #[must_use]
    pub fn steps_before(&self, frame: u64) -> u64 {
        if frame == 0 {
            0
        } else {
            self.step_of(frame) - self.step_of(frame - 1)
        }
    }

    /// Number of frames covering `duration` s, frame 0 included: `floor(duration / frame_time) + 1`
    /// (with a relative tolerance of 1e-9 so that 1.0 / 0.04 counts 26 frames, not 25).
    #[must_use]
    pub fn frames_for(&self, duration: f64) -> u64 {
        if !(duration.is_finite() && duration >= 0.0) {
            return 1;
        }
        (duration / self.frame_time * (1.0 + 1e-9)).floor() as u64 + 1
    }
}

/// Writes an animated GIF frame by frame, looping forever.
///
/// GIF delays are whole centiseconds, so each frame's delay is chosen so that frame `n` starts
/// at `round(100 n frame_time)` cs: playback keeps pace with simulation time to within 5 ms even
/// when `frame_time` is not a multiple of 10 ms. Browsers play delays under 2 cs slowly, so
/// prefer `frame_time >= 0.02` s (0.04 s = 25 fps is exact).
pub struct GifWriter {
    encoder: GifEncoder<BufWriter<File>>,
    path: PathBuf,
    frame_time: f64,
    frames: u64,
    size: Option<(u32, u32)>,
}

impl std::fmt::Debug for GifWriter {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("GifWriter")
            .field("path", &self.path)
            .field("frame_time", &self.frame_time)
            .field("frames", &self.frames)
            .field("size", &self.size)
            .finish_non_exhaustive()
    }
}

impl GifWriter {
    /// Creates (or truncates) the GIF file at `path` for frames `frame_time` s apart.
    ///
    /// # Errors
    /// [`Error::InvalidParameter`] unless `frame_time` is finite and at least 0.01 s (one GIF
    /// centisecond) and at most 655 s; [`Error::ImageWrite`] if the file cannot be created.
    pub fn create(path: impl AsRef<Path>, frame_time: f64) -> Result<Self> {
        let path = path.as_ref().to_path_buf();
        if !(frame_time.is_finite() && (0.01..=655.0).contains(&frame_time)) {
            return Err(Error::InvalidParameter {
                name: "frame_time",
                value: frame_time,
                expected: "must lie in [0.01, 655] s (GIF delays are whole centiseconds)",
            });
        }
        let write_error = |source: image::ImageError| Error::ImageWrite {
            path: path.clone(),
            source,
        };
        let file = File::create(&path).map_err(|e| write_error(image::ImageError::IoError(e)))?;
        let mut encoder = GifEncoder::new_with_speed(BufWriter::new(file), 10);
        encoder.set_repeat(Repeat::Infinite).map_err(write_error)?;
        Ok(Self {
            encoder,
            path,
            frame_time,
            frames: 0,
            size: None,
        })
    }

    /// Appends one frame (colours are quantised to the GIF's 256-colour palette).
    ///
    /// # Errors
    /// [`Error::LengthMismatch`] if its size differs from the first frame's (or is above
    /// 65535 pixels); [`Error::ImageWrite`] if encoding or writing fails.
    pub fn push(&mut self, frame: &RgbaImage) -> Result<()> {
        let size = frame.dimensions();
        let first = *self.size.get_or_insert(size);
        if size != first || size.0 > u32::from(u16::MAX) || size.1 > u32::from(u16::MAX) {
            return Err(Error::LengthMismatch {
                what: "GIF frame width x height",
                expected: (first.0.min(65535) * first.1.min(65535)) as usize,
                got: (size.0 * size.1) as usize,
            });
        }
        let n = self.frames as f64;
        let start = (100.0 * n * self.frame_time).round() as u64;
        let end = (100.0 * (n + 1.0) * self.frame_time).round() as u64;
        let centiseconds = (end - start).clamp(1, u64::from(u16::MAX)) as u32;
        let delay = Delay::from_numer_denom_ms(centiseconds * 10, 1);
        self.encoder
            .encode_frame(Frame::from_parts(frame.clone(), 0, 0, delay))
            .map_err(|source| Error::ImageWrite {
                path: self.path.clone(),
                source,
            })?;
        self.frames += 1;
        Ok(())
    }

    /// Frames written so far.
    #[must_use]
    pub fn frames(&self) -> u64 {
        self.frames
    }

    /// Finishes the file (writes the trailer and flushes).
    ///
    /// # Errors
    /// [`Error::ImageWrite`] if flushing fails.
    pub fn finish(self) -> Result<()> {
        let Self { encoder, path, .. } = self;
        drop(encoder); // the gif encoder writes its trailer on drop
                       // Dropping the BufWriter flushes it but would swallow an error; the trailer write above
                       // has no error path in the encoder API, so re-check that the file is there and non-empty.
        match std::fs::metadata(&path) {
            Ok(m) if m.len() > 0 => Ok(()),
            Ok(_) => Err(Error::ImageWrite {
                path,
                source: image::ImageError::IoError(std::io::Error::other("GIF file is empty")),
            }),
            Err(e) => Err(Error::ImageWrite {
                path,
                source: image::ImageError::IoError(e),
            }),
        }
    }
}
