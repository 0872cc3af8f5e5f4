//! Running the `hooke` binary as a user does, and the files its tests read and write.

use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};
use std::time::Duration;

use serde_json::Value;

/// The `hooke` binary with `args`, not yet started (warnings only in its log).
pub fn command(args: &[&str]) -> Command {
    let mut c = Command::new(env!("CARGO_BIN_EXE_hooke"));
    c.args(args).env("RUST_LOG", "warn");
    c
}

/// Runs the `hooke` binary with `args` and waits for it.
pub fn hooke(args: &[&str]) -> Output {
    command(args).output().expect("the hooke binary runs")
}

/// How long any one `hooke` run of a test that kills or resumes runs may take before the test
/// fails: far above the seconds they take, so only a hang reaches it.
pub const DEADLINE: Duration = Duration::from_secs(240);

/// Runs `hooke args` to its end, failing the test (and killing it) past [`DEADLINE`].
pub fn bounded(args: &[&str]) -> Output {
    let child = command(args)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let id = child.id();
    let (tx, rx) = std::sync::mpsc::channel();
    std::thread::spawn(move || tx.send(child.wait_with_output()));
    match rx.recv_timeout(DEADLINE) {
        Ok(out) => out.unwrap(),
        Err(_) => {
            // SIGKILL by process id: the waiting thread owns the child.
            let _ = std::process::Command::new("kill")
                .args(["-9", &id.to_string()])
                .status();
            panic!("hooke {args:?} ran past {DEADLINE:?}");
        }
    }
}

/// What the run printed on standard error.
pub fn stderr(out: &Output) -> String {
    String::from_utf8_lossy(&out.stderr).into_owned()
}

/// `out` succeeded, or the test fails with hooke's message.
pub fn ok(out: &Output) {
    assert!(out.status.success(), "hooke failed: {}", stderr(out));
}

/// A fresh, empty folder for the files of test `test` of group `group`.
pub fn scratch(group: &str, test: &str) -> PathBuf {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR"))
        .join(group)
        .join(test);
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// Writes `value` as pretty JSON to `path`; returns the path as a string for an argument list.
pub fn write(path: &Path, value: &Value) -> String {
    std::fs::write(path, serde_json::to_string_pretty(value).unwrap()).unwrap();
    path.to_str().unwrap().to_owned()
}

/// The JSON file at `path`.
pub fn read(path: &Path) -> Value {
    serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap()
}
