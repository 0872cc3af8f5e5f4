//! [`Cursor`]: the lines of a mesh file, one at a time, each error naming the file and the line.

use std::path::Path;
use std::str::FromStr;

use super::tet_error;
use crate::error::{Error, Result};

/// The lines of a text file (`\n` or `\r\n` ends), numbered from 1, read one at a time.
pub(super) struct Cursor<'a> {
    path: &'a Path,
    /// The bytes not read yet, or `None` past the last line.
    rest: Option<&'a [u8]>,
    /// How many lines the file has in all.
    total: usize,
    /// The number of the line last read (0 before the first).
    line: usize,
}

impl<'a> Cursor<'a> {
    /// The lines of `bytes`, `path` naming the file in errors.
    pub(super) fn new(bytes: &'a [u8], path: &'a Path) -> Self {
        let total = bytes.iter().filter(|&&b| b == b'\n').count() + 1;
        Self {
            path,
            rest: Some(bytes),
            total,
            line: 0,
        }
    }

    /// How many lines are left after the one last read.
    pub(super) fn left(&self) -> usize {
        self.total - self.line
    }

    /// The number of the line last read.
    pub(super) fn line(&self) -> usize {
        self.line
    }

    /// An error naming the file and the line last read.
    pub(super) fn error(&self, what: impl std::fmt::Display) -> Error {
        tet_error(self.path, format!("line {}: {what}", self.line))
    }

    /// An error naming the file only.
    pub(super) fn file_error(&self, what: impl std::fmt::Display) -> Error {
        tet_error(self.path, what.to_string())
    }

    /// The next line, trimmed, or `None` at the end of the file.
    ///
    /// # Errors
    /// A line that is not UTF-8 text (a binary file).
    pub(super) fn next_line(&mut self) -> Result<Option<&'a str>> {
        let Some(rest) = self.rest else {
            return Ok(None);
        };
        let bytes = match rest.iter().position(|&b| b == b'\n') {
            Some(end) => {
                self.rest = Some(&rest[end + 1..]);
                &rest[..end]
            }
            None => {
                self.rest = None;
                rest
            }
        };
        self.line += 1;
        let text = std::str::from_utf8(bytes).map_err(|_| {
            self.error("is not text: hooke reads ASCII MSH files (binary MSH is not read)")
        })?;
        Ok(Some(text.trim()))
    }

    /// The next line, `what` naming what it should hold when the file ends instead.
    pub(super) fn expect_line(&mut self, what: &str) -> Result<&'a str> {
        self.next_line()?.ok_or_else(|| {
            self.file_error(format!(
                "ends after line {} where {what} should follow (the file is truncated)",
                self.line
            ))
        })
    }

    /// The next line as numbers of type `T`, exactly `count` of them (at least `count` when
    /// `at_least`), `what` naming the line in errors.
    pub(super) fn numbers<T: FromStr>(
        &mut self,
        what: &str,
        count: usize,
        at_least: bool,
    ) -> Result<Vec<T>> {
        let line = self.expect_line(what)?;
        let tokens: Vec<&str> = line.split_ascii_whitespace().collect();
        let fits = if at_least {
            tokens.len() >= count
        } else {
            tokens.len() == count
        };
        if !fits {
            let expected = if at_least { "at least " } else { "" };
            return Err(self.error(format!(
                "{what} should be {expected}{count} numbers, found {:?}",
                truncate(line)
            )));
        }
        tokens[..count]
            .iter()
            .map(|t| {
                t.parse::<T>().map_err(|_| {
                    self.error(format!(
                        "{what}: {:?} is not a number of the right kind",
                        truncate(t)
                    ))
                })
            })
            .collect()
    }

    /// Checks that a count read from the file (`count` items of `lines_each` lines each, named
    /// `what`) fits in the lines left, before anything is allocated for it.
    pub(super) fn check_count(&self, what: &str, count: u64, lines_each: u64) -> Result<usize> {
        let left = self.left() as u64;
        if count.saturating_mul(lines_each) > left {
            return Err(self.error(format!(
                "counts {count} {what}, which take {} lines, but the file has only {left} lines left (truncated, or a wrong count)",
                count.saturating_mul(lines_each)
            )));
        }
        Ok(count as usize)
    }

    /// Reads lines up to `$End<name>`, skipping the section's contents.
    pub(super) fn skip_section(&mut self, name: &str) -> Result<()> {
        let end = format!("$End{name}");
        let start = self.line;
        while let Some(line) = self.next_line()? {
            if line == end {
                return Ok(());
            }
        }
        Err(self.file_error(format!(
            "section ${name} from line {start} has no {end} (the file is truncated)"
        )))
    }

    /// Reads the next line and checks it is `expected`.
    pub(super) fn expect(&mut self, expected: &str) -> Result<()> {
        let line = self.expect_line(expected)?;
        if line == expected {
            Ok(())
        } else {
            Err(self.error(format!("expected {expected}, found {:?}", truncate(line))))
        }
    }
}

/// At most the first 60 characters of `text`, for messages.
pub(super) fn truncate(text: &str) -> &str {
    match text.char_indices().nth(60) {
        Some((at, _)) => &text[..at],
        None => text,
    }
}
