//! Running the `ssekit` binary as a user runs it.
#![allow(dead_code)]

use std::io::Write;
use std::process::{Command, Output, Stdio};

/// The binary under test.
pub(crate) const BIN: &str = env!("CARGO_BIN_EXE_ssekit");
/// The repository around this package.
pub(crate) const REPO: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/..");
/// The sample stream shipped in the repository.
pub(crate) const SAMPLE: &str =
    concat!(env!("CARGO_MANIFEST_DIR"), "/../samples/responses-text.sse");

/// Runs `ssekit args` with no standard input.
pub(crate) fn run(args: &[&str]) -> Output {
    Command::new(BIN).args(args).output().expect("run ssekit")
}

/// Runs `ssekit args` with `input` on standard input (closed at its end).
pub(crate) fn run_stdin(args: &[&str], input: &[u8]) -> Output {
    let mut child = Command::new(BIN)
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("run ssekit");
    let mut stdin = child.stdin.take().unwrap();
    let input = input.to_vec();
    // Write from another thread: the child may fill its stdout pipe first.
    let writer = std::thread::spawn(move || {
        let _ = stdin.write_all(&input);
    });
    let out = child.wait_with_output().unwrap();
    writer.join().unwrap();
    out
}

/// Standard error, as text.
pub(crate) fn stderr(out: &Output) -> String {
    String::from_utf8_lossy(&out.stderr).into_owned()
}
