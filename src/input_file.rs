//! Reading an input file (a scene, a population, evolution settings) with a size limit: a file
//! of hundreds of MB is refused with an error naming it, its size and the limit, before it is
//! read, instead of being parsed into many times its size in memory.
//!
//! The limit is [`DEFAULT_MAX_INPUT_BYTES`] (64 MiB: a population of some 300 000 voxel
//! genomes, or a hand-written part of about a million masses); the environment variable
//! [`MAX_INPUT_BYTES_VAR`] (`HOOKE_MAX_INPUT_BYTES`, a number of bytes) raises or lowers it for
//! every reader: [`Scene::load`](crate::Scene::load), `hooke run`, `hooke eval`, `hooke evolve`,
//! `hooke view`. The file's size is checked before reading, and the read itself stops one byte
//! past the limit, so a file that grows while it is read, a pipe or a device cannot get around it.

use std::io::Read;
use std::path::Path;

use crate::error::{Error, Result};

/// The default size limit on an input file: 64 MiB.
pub const DEFAULT_MAX_INPUT_BYTES: u64 = 64 << 20;

/// The environment variable that sets the size limit on input files, in bytes
/// (`HOOKE_MAX_INPUT_BYTES=1000000000` reads files of up to 1 GB).
pub const MAX_INPUT_BYTES_VAR: &str = "HOOKE_MAX_INPUT_BYTES";

/// The size limit on input files in bytes: [`MAX_INPUT_BYTES_VAR`] when it is set, else
/// [`DEFAULT_MAX_INPUT_BYTES`].
///
/// # Errors
/// [`Error::InvalidParameter`] naming `HOOKE_MAX_INPUT_BYTES` when it is set but is not a whole
/// number of bytes.
pub fn max_input_bytes() -> Result<u64> {
    match std::env::var(MAX_INPUT_BYTES_VAR) {
        Err(_) => Ok(DEFAULT_MAX_INPUT_BYTES),
        Ok(text) => text.trim().parse().map_err(|_| Error::InvalidParameter {
            name: MAX_INPUT_BYTES_VAR,
            value: text.trim().parse().unwrap_or(f64::NAN),
            expected: "must be a whole number of bytes, such as 1000000000",
        }),
    }
}

/// The bytes of the input file `path`, refused when it is larger than [`max_input_bytes`].
///
/// # Errors
/// [`Error::InputTooLarge`] naming the file, its size and the limit; [`Error::SceneIo`] when it
/// cannot be read; that of [`max_input_bytes`].
pub fn read_input(path: &Path) -> Result<Vec<u8>> {
    read_input_with_limit(path, max_input_bytes()?)
}

/// The bytes of the input file `path`, refused when it is larger than `limit` bytes.
///
/// # Errors
/// [`Error::InputTooLarge`] naming the file, its size and the limit; [`Error::SceneIo`] when it
/// cannot be read.
pub fn read_input_with_limit(path: &Path, limit: u64) -> Result<Vec<u8>> {
    let io = |source| Error::SceneIo {
        path: path.to_path_buf(),
        source,
    };
    let file = std::fs::File::open(path).map_err(io)?;
    let size = file.metadata().map_err(io)?.len();
    if size > limit {
        return Err(too_large(path, size, limit));
    }
    read_bounded(file, path, limit)
}

/// Reads `reader` to its end, refusing it (named `path`) once it passes `limit` bytes: at most
/// `limit + 1` bytes are ever held.
pub(crate) fn read_bounded(reader: impl Read, path: &Path, limit: u64) -> Result<Vec<u8>> {
    let mut bytes = Vec::new();
    reader
        .take(limit.saturating_add(1))
        .read_to_end(&mut bytes)
        .map_err(|source| Error::SceneIo {
            path: path.to_path_buf(),
            source,
        })?;
    if bytes.len() as u64 > limit {
        return Err(too_large(path, bytes.len() as u64, limit));
    }
    Ok(bytes)
}

fn too_large(path: &Path, size: u64, limit: u64) -> Error {
    Error::InputTooLarge {
        path: path.to_path_buf(),
        size,
        limit,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_endless_reader_is_refused_after_the_limit() {
        // 1 TiB of spaces, produced lazily: only limit + 1 bytes are ever read.
        let endless = std::io::repeat(b' ').take(1 << 40);
        let e = read_bounded(endless, Path::new("pipe.json"), 1 << 20).unwrap_err();
        let Error::InputTooLarge { size, limit, .. } = &e else {
            panic!("not InputTooLarge: {e}");
        };
        assert_eq!((*size, *limit), ((1 << 20) + 1, 1 << 20));
        let message = e.to_string();
        assert!(message.contains("pipe.json"), "{message}");
        assert!(message.contains("more than 1048576 bytes"), "{message}");
        assert!(message.contains(MAX_INPUT_BYTES_VAR), "{message}");
    }

    #[test]
    fn a_file_at_the_limit_is_read_whole() {
        let bytes = read_bounded(&b"{}\n"[..], Path::new("x.json"), 3).unwrap();
        assert_eq!(bytes, b"{}\n");
        assert!(read_bounded(&b"{}\n"[..], Path::new("x.json"), 2).is_err());
    }
}
