//! When an evaluation writes its checkpoints ([`CheckpointEvery`]) and the writer its loop
//! calls after every control period ([`Checkpoints`]).

use std::fmt;
use std::str::FromStr;
use std::time::Instant;

use super::eval_checkpoint::{ControlState, EvaluationCheckpoint, Fingerprints, Progress};
use crate::error::{Error, Result};
use crate::snapshot::Snapshot;

/// How often an evaluation writes a checkpoint
/// ([`EvaluationRun::checkpoint`](super::EvaluationRun::checkpoint)). Checkpoints are taken
/// between two control periods ([`Evaluation::control_steps`](super::Evaluation::control_steps)
/// steps each) and change no bit of the results.
///
/// As text (`hooke eval --checkpoint-every`, Python's `checkpoint_every`): `N` for
/// [`CheckpointEvery::Periods`], `Ts` (`30s`, `1.5s`) for [`CheckpointEvery::Seconds`].
///
/// # Examples
///
/// ```
/// use hooke::population::CheckpointEvery;
///
/// assert_eq!("10".parse::<CheckpointEvery>()?, CheckpointEvery::Periods(10));
/// assert_eq!("90s".parse::<CheckpointEvery>()?, CheckpointEvery::Seconds(90.0));
/// assert!("0".parse::<CheckpointEvery>().is_err());
/// # Ok::<(), hooke::Error>(())
/// ```
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum CheckpointEvery {
    /// After every `n`-th control period of a run (periods `n`, `2n`, ... counted from the
    /// run's start; a run starts again from time 0 after a robot fails). At least 1.
    Periods(u64),
    /// After the first control period that ends this many seconds of wall time (s) or more
    /// after the last checkpoint (or the evaluation's start). Finite and >= 0 (0: after every
    /// period).
    Seconds(f64),
}

impl Default for CheckpointEvery {
    /// Every 60 s of wall time.
    fn default() -> Self {
        Self::Seconds(60.0)
    }
}

impl CheckpointEvery {
    /// Checks the interval.
    ///
    /// # Errors
    /// [`Error::InvalidParameter`] (`checkpoint_every`) for 0 periods or seconds that are not
    /// finite and >= 0.
    pub fn check(self) -> Result<()> {
        let ok = match self {
            Self::Periods(n) => n >= 1,
            Self::Seconds(s) => s.is_finite() && s >= 0.0,
        };
        if ok {
            Ok(())
        } else {
            Err(Error::InvalidParameter {
                name: "checkpoint_every",
                value: match self {
                    Self::Periods(n) => n as f64,
                    Self::Seconds(s) => s,
                },
                expected: "at least 1 control period, or seconds finite and >= 0",
            })
        }
    }
}

impl fmt::Display for CheckpointEvery {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::Periods(n) => write!(f, "{n}"),
            Self::Seconds(s) => write!(f, "{s}s"),
        }
    }
}

impl FromStr for CheckpointEvery {
    type Err = Error;

    /// `N` control periods or `Ts` seconds of wall time.
    fn from_str(text: &str) -> Result<Self> {
        let text = text.trim();
        let bad = || Error::InvalidBuilder {
            builder: "checkpoint_every",
            reason: format!(
                "{text:?} is neither control periods (a whole number: 10) nor seconds of wall \
                 time (a number and s: 90s)"
            ),
        };
        let every = match text.strip_suffix('s') {
            Some(s) => Self::Seconds(s.trim().parse().map_err(|_| bad())?),
            None => Self::Periods(text.parse().map_err(|_| bad())?),
        };
        every.check()?;
        Ok(every)
    }
}

/// What receives each checkpoint (a file's save, a test's list).
pub(super) type Sink<'a> = dyn FnMut(&EvaluationCheckpoint) -> Result<()> + 'a;

/// The checkpoints of one evaluation: when they are due and where they go.
pub(super) struct Checkpoints<'a> {
    every: CheckpointEvery,
    fingerprints: Fingerprints,
    last: Instant,
    sink: Box<Sink<'a>>,
}

impl fmt::Debug for Checkpoints<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Checkpoints")
            .field("every", &self.every)
            .finish_non_exhaustive()
    }
}

impl<'a> Checkpoints<'a> {
    pub(super) fn new(
        every: CheckpointEvery,
        fingerprints: Fingerprints,
        sink: Box<Sink<'a>>,
    ) -> Self {
        Self {
            every,
            fingerprints,
            last: Instant::now(),
            sink,
        }
    }

    /// Whether a checkpoint is due after control period `period` (counted from 1) of a run.
    pub(super) fn due(&self, period: u64) -> bool {
        match self.every {
            CheckpointEvery::Periods(n) => period.is_multiple_of(n.max(1)),
            CheckpointEvery::Seconds(s) => self.last.elapsed().as_secs_f64() >= s,
        }
    }

    /// Hands the checkpoint of `snapshot`, `progress` and `control` to the sink.
    pub(super) fn write(
        &mut self,
        snapshot: Snapshot,
        progress: &Progress,
        control: Option<ControlState>,
    ) -> Result<()> {
        let c = EvaluationCheckpoint::new(self.fingerprints, progress, control, snapshot);
        (self.sink)(&c)?;
        self.last = Instant::now();
        Ok(())
    }
}
