//! A progress bar for long runs: nothing for runs that finish within a second, a bar on standard
//! error (when it is a terminal) for the rest.

use std::time::{Duration, Instant};

use indicatif::{ProgressBar, ProgressStyle};

/// Wall time after which a run gets a bar.
const SHOW_AFTER: Duration = Duration::from_secs(1);

/// Progress over `total` simulation steps.
pub(crate) struct Progress {
    total: u64,
    started: Instant,
    bar: Option<ProgressBar>,
}

impl Progress {
    /// Progress of a run of `total` steps, starting now.
    pub(crate) fn new(total: u64) -> Self {
        Self {
            total,
            started: Instant::now(),
            bar: None,
        }
    }

    /// `done` of the steps are done.
    pub(crate) fn set(&mut self, done: u64) {
        if self.bar.is_none() && self.started.elapsed() >= SHOW_AFTER && done < self.total {
            let bar = ProgressBar::new(self.total);
            bar.set_style(
                ProgressStyle::with_template(
                    "{elapsed_precise} [{bar:40}] {pos}/{len} steps ({per_sec}, {eta} left)",
                )
                .unwrap_or_else(|_| ProgressStyle::default_bar())
                .progress_chars("=> "),
            );
            self.bar = Some(bar);
        }
        if let Some(bar) = &self.bar {
            bar.set_position(done);
        }
    }

    /// Removes the bar (if one was drawn) and returns the wall time since the start.
    pub(crate) fn finish(self) -> Duration {
        if let Some(bar) = self.bar {
            bar.finish_and_clear();
        }
        self.started.elapsed()
    }
}
