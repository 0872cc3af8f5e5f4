//! Reading the files the commands are given, within hooke's size limit on input files
//! ([`hooke::read_input`]: 64 MiB unless `HOOKE_MAX_INPUT_BYTES` says otherwise).

use std::path::Path;

/// The bytes of `path`; errors name the file (and its size and the limit when it is too large).
pub(crate) fn read(path: &Path) -> Result<Vec<u8>, String> {
    hooke::read_input(path).map_err(|e| match e {
        hooke::Error::SceneIo { source, .. } => format!("cannot read {}: {source}", path.display()),
        e => e.to_string(),
    })
}

/// The text of `path`, as [`read`]; an error also when it is not UTF-8.
pub(crate) fn read_text(path: &Path) -> Result<String, String> {
    String::from_utf8(read(path)?)
        .map_err(|e| format!("cannot read {}: {}", path.display(), e.utf8_error()))
}
