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
