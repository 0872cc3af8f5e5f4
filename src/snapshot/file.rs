//! Writing a file so that a kill or a power cut at any moment leaves either the old file or the
//! new one whole: the bytes go to a temporary file beside it, which is flushed to the disk
//! (`fsync`) and then renamed over the old one, and the folder is flushed so the rename lasts.

use std::io::Write as _;
use std::path::Path;

/// Writes `bytes` to `path` so that a kill or a power cut at any moment leaves either the old
/// file or the new one whole: to a temporary file beside it (`.NAME.PID.tmp`), flushed to the
/// disk (`fsync`), renamed over `path`, and the folder flushed so the rename lasts. A temporary
/// file that could not be written whole is removed. What [`Snapshot::save`](super::Snapshot::save),
/// evolution checkpoints and `hooke`'s result files are written with.
///
/// # Errors
/// Which step failed (create, write, rename), naming the file.
pub fn write_durably(path: &Path, bytes: &[u8]) -> Result<(), String> {
    let dir = path.parent().filter(|d| !d.as_os_str().is_empty());
    if let Some(dir) = dir {
        std::fs::create_dir_all(dir)
            .map_err(|e| format!("cannot create {}: {e}", dir.display()))?;
    }
    let name = path
        .file_name()
        .ok_or_else(|| format!("{} is not a file name", path.display()))?;
    let mut temp_name = std::ffi::OsString::from(".");
    temp_name.push(name);
    temp_name.push(format!(".{}.tmp", std::process::id()));
    let temp = path.with_file_name(temp_name);
    let written = write_synced(&temp, bytes).and_then(|()| {
        std::fs::rename(&temp, path).map_err(|e| {
            format!(
                "cannot rename {} to {}: {e}",
                temp.display(),
                path.display()
            )
        })
    });
    if written.is_err() {
        let _ = std::fs::remove_file(&temp);
        return written;
    }
    // The rename lasts once the folder's entry is on the disk (a folder cannot be opened for
    // syncing on every platform: there the rename is as durable as the file system makes it).
    if let Some(d) = dir.and_then(|d| std::fs::File::open(d).ok()) {
        let _ = d.sync_all();
    }
    Ok(())
}

/// Creates `path` with `bytes` and flushes it to the disk.
fn write_synced(path: &Path, bytes: &[u8]) -> Result<(), String> {
    let mut file = std::fs::File::create(path)
        .map_err(|e| format!("cannot create {}: {e}", path.display()))?;
    file.write_all(bytes)
        .and_then(|()| file.sync_all())
        .map_err(|e| format!("cannot write {}: {e}", path.display()))
}

/// Where a checkpoint file's previous version is kept: `checkpoint.json` ->
/// `checkpoint.previous.json`, `eval.ckpt` -> `eval.previous.ckpt`.
pub(crate) fn previous_path(path: &Path) -> std::path::PathBuf {
    let stem = path.file_stem().unwrap_or_default().to_string_lossy();
    match path.extension() {
        Some(ext) => path.with_file_name(format!("{stem}.previous.{}", ext.to_string_lossy())),
        None => path.with_file_name(format!("{stem}.previous")),
    }
}

/// Writes a checkpoint's `bytes` to `path`, keeping the file there (if any) at
/// [`previous_path`]: it is renamed there first, then the new bytes are written with
/// [`write_durably`]. A kill at any moment leaves a whole checkpoint at one of the two paths.
///
/// # Errors
/// The step that failed, naming the file.
pub(crate) fn save_keeping_previous(path: &Path, bytes: &[u8]) -> Result<(), String> {
    if path.is_file() {
        let previous = previous_path(path);
        std::fs::rename(path, &previous)
            .map_err(|e| format!("cannot rename it to {}: {e}", previous.display()))?;
    }
    write_durably(path, bytes)
}

/// Reads the checkpoint at `path` with `load`, or when that one is missing or refused, the one
/// it replaced ([`previous_path`]). Returns it and, when it is the previous one, why the latest
/// was refused.
///
/// # Errors
/// Both refusals in one [`Error::Snapshot`](crate::Error::Snapshot) naming `path`, when
/// neither reads.
pub(crate) fn load_latest<T>(
    path: &Path,
    load: impl Fn(&Path) -> crate::Result<T>,
) -> crate::Result<(T, Option<crate::Error>)> {
    match load(path) {
        Ok(c) => Ok((c, None)),
        Err(latest) => match load(&previous_path(path)) {
            Ok(c) => Ok((c, Some(latest))),
            Err(previous) => Err(crate::Error::Snapshot {
                origin: format!("checkpoint {}", path.display()),
                reason: format!("no checkpoint reads: {latest}; {previous}"),
            }),
        },
    }
}

/// The bytes of the file at `path`; an error is [`Error::Snapshot`](crate::Error::Snapshot)
/// naming `origin` ("cannot read it: ...").
pub(crate) fn read_named(path: &Path, origin: &str) -> crate::Result<Vec<u8>> {
    std::fs::read(path).map_err(|e| crate::Error::Snapshot {
        origin: origin.to_owned(),
        reason: format!("cannot read it: {e}"),
    })
}
