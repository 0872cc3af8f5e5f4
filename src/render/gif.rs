//! Animations: GIF output and the frame schedule that keeps frame time independent of `dt`
//! (CS838: "the frame time is independent of dt, e.g. dt = 0.001 and T_frame = 0.03, thus
//! outputting the result of every 30th step").

use std::collections::HashMap;
use std::fs::File;
use std::io::{BufWriter, Write};
use std::path::{Path, PathBuf};

use image::RgbaImage;

use super::palette::Palette;
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
///
/// Small files of fixed-camera animations: each frame after the first stores only the rectangle
/// of pixels that changed since the previous frame, with the unchanged pixels in it transparent
/// (the previous frame shows through, disposal "keep"), in a palette of its own for the changed
/// pixels. When those have at most 255 colours they are kept exactly; otherwise the palette keeps
/// the most frequent colours and spreads the rest so that no pixel moves far from its colour
/// (farthest-point clustering in CIELAB). Lipson's bouncing cube (2 s at 50 frames per second,
/// 640 x 480) takes about 1.5 MB, every pixel within a CIE76 delta E of 1 of the rendered frame.
/// Frames are treated as opaque (alpha is ignored).
pub struct GifWriter {
    /// The file until the first frame gives the size, then the encoder writing to it.
    output: Output,
    path: PathBuf,
    frame_time: f64,
    frames: u64,
    size: Option<(u32, u32)>,
    /// The previous frame's RGBA pixels, to find what changed.
    previous: Vec<u8>,
}

/// Where a [`GifWriter`] is: before its first frame (no size yet) or writing frames.
enum Output {
    Waiting(BufWriter<File>),
    Writing(gif::Encoder<BufWriter<File>>),
    /// Only while switching from one to the other (or after a failure to).
    Gone,
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

/// An [`Error::ImageWrite`] for the GIF at `path`.
fn write_error(path: &Path, source: impl Into<GifFailure>) -> Error {
    let source = match source.into() {
        GifFailure::Io(e) => image::ImageError::IoError(e),
        GifFailure::Encoding(e) => image::ImageError::Encoding(image::error::EncodingError::new(
            image::error::ImageFormatHint::Exact(image::ImageFormat::Gif),
            e,
        )),
    };
    Error::ImageWrite {
        path: path.to_path_buf(),
        source,
    }
}

/// What can go wrong while writing a GIF.
enum GifFailure {
    Io(std::io::Error),
    Encoding(gif::EncodingError),
}

impl From<std::io::Error> for GifFailure {
    fn from(e: std::io::Error) -> Self {
        Self::Io(e)
    }
}

impl From<gif::EncodingError> for GifFailure {
    fn from(e: gif::EncodingError) -> Self {
        Self::Encoding(e)
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
        let file = File::create(&path).map_err(|e| write_error(&path, e))?;
        Ok(Self {
            output: Output::Waiting(BufWriter::new(file)),
            path,
            frame_time,
            frames: 0,
            size: None,
            previous: Vec::new(),
        })
    }

    /// Appends one frame (the changed pixels, in a palette of at most 255 colours; see
    /// [`GifWriter`]).
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
        let delay = (end - start).clamp(1, u64::from(u16::MAX)) as u16;
        let mut gif_frame = changed_part(frame, &self.previous);
        gif_frame.delay = delay;
        let encoder = self.encoder(size)?;
        encoder
            .write_frame(&gif_frame)
            .map_err(|e| write_error(&self.path, e))?;
        self.previous.clear();
        self.previous.extend_from_slice(frame.as_raw());
        self.frames += 1;
        Ok(())
    }

    /// The encoder, made at the first frame (whose size is the animation's).
    fn encoder(
        &mut self,
        (width, height): (u32, u32),
    ) -> Result<&mut gif::Encoder<BufWriter<File>>> {
        if let Output::Waiting(_) = self.output {
            let Output::Waiting(file) = std::mem::replace(&mut self.output, Output::Gone) else {
                unreachable!("matched just above");
            };
            let mut encoder = gif::Encoder::new(file, width as u16, height as u16, &[])
                .map_err(|e| write_error(&self.path, e))?;
            encoder
                .set_repeat(gif::Repeat::Infinite)
                .map_err(|e| write_error(&self.path, e))?;
            self.output = Output::Writing(encoder);
        }
        match &mut self.output {
            Output::Writing(encoder) => Ok(encoder),
            _ => Err(write_error(
                &self.path,
                std::io::Error::other("an earlier write failed"),
            )),
        }
    }

    /// Frames written so far.
    #[must_use]
    pub fn frames(&self) -> u64 {
        self.frames
    }

    /// Finishes the file (writes the trailer and flushes).
    ///
    /// # Errors
    /// [`Error::ImageWrite`] if no frame was pushed (a GIF needs one) or writing fails.
    pub fn finish(self) -> Result<()> {
        let Self { output, path, .. } = self;
        let Output::Writing(encoder) = output else {
            return Err(write_error(
                &path,
                std::io::Error::other("no frames were pushed"),
            ));
        };
        let mut file = encoder.into_inner().map_err(|e| write_error(&path, e))?;
        file.flush().map_err(|e| write_error(&path, e))
    }
}

/// The GIF frame that turns `previous` (RGBA, empty for none) into `frame`: the rectangle
/// around the pixels whose colour changed, unchanged pixels in it transparent, in a palette of
/// its own (at most 255 colours; index 255 or the palette's length is transparent). A frame
/// that changes nothing is one transparent pixel (it still carries a delay).
fn changed_part(frame: &RgbaImage, previous: &[u8]) -> gif::Frame<'static> {
    let (width, height) = frame.dimensions();
    let (w, h) = (width as usize, height as usize);
    let pixels = frame.as_raw();
    let changed =
        |i: usize| previous.is_empty() || previous[4 * i..4 * i + 3] != pixels[4 * i..4 * i + 3];
    // The changed rectangle, [x0, x1) x [y0, y1).
    let (mut x0, mut y0, mut x1, mut y1) = (w, h, 0, 0);
    for y in 0..h {
        for x in 0..w {
            if changed(y * w + x) {
                (x0, x1, y0, y1) = (x0.min(x), x1.max(x + 1), y0.min(y), y1.max(y + 1));
            }
        }
    }
    if x1 <= x0 {
        return gif::Frame {
            width: 1,
            height: 1,
            palette: Some(vec![0, 0, 0]),
            transparent: Some(0),
            buffer: vec![0].into(),
            ..gif::Frame::default()
        };
    }
    let colour = |i: usize| [pixels[4 * i], pixels[4 * i + 1], pixels[4 * i + 2]];
    let rows = || (y0..y1).flat_map(|y| (x0..x1).map(move |x| y * w + x));
    let mut counts: HashMap<[u8; 3], u32> = HashMap::new();
    for i in rows().filter(|&i| changed(i)) {
        *counts.entry(colour(i)).or_default() += 1;
    }
    let palette = Palette::new(&counts, 255);
    let transparent = palette.len() as u8; // the entry after the colours (at most 255)
    let mut table = palette.table();
    table.extend_from_slice(&[0, 0, 0]);
    let buffer: Vec<u8> = rows()
        .map(|i| {
            if changed(i) {
                palette.index_of(colour(i))
            } else {
                transparent
            }
        })
        .collect();
    gif::Frame {
        left: x0 as u16,
        top: y0 as u16,
        width: (x1 - x0) as u16,
        height: (y1 - y0) as u16,
        palette: Some(table),
        transparent: Some(transparent),
        dispose: gif::DisposalMethod::Keep,
        buffer: buffer.into(),
        ..gif::Frame::default()
    }
}
