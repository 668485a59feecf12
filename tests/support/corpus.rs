//! Where the shared data is (the corpus of recorded streams, the research
//! inventories): `../shared` beside the repository, each overridable by a variable. A test binary takes it with
//! `#[path = "support/corpus.rs"] mod corpus;`.
#![allow(dead_code)]

use std::path::{Path, PathBuf};

/// The repository: the library's directory, or the parent of the CLI
/// package's (`cli/`), whose tests borrow these helpers.
pub(crate) fn repository() -> PathBuf {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR"));
    if env!("CARGO_PKG_NAME") == "ssekit" {
        dir.to_path_buf()
    } else {
        dir.join("..")
    }
}

/// A directory of the shared data: `$var` if set, else `../shared/{sub}`; or
/// `None` (the caller skips) when it is missing.
///
/// # Panics
///
/// When it is missing under `CI=true`: there missing shared data is a failure.
pub(crate) fn shared_dir(var: &str, sub: &str) -> Option<PathBuf> {
    let dir = std::env::var(var)
        .map(PathBuf::from)
        .unwrap_or_else(|_| repository().join("../shared").join(sub));
    if dir.is_dir() {
        return Some(dir);
    }
    if std::env::var("CI").as_deref() == Ok("true") {
        panic!("directory missing: {} (set {var})", dir.display());
    }
    skip_notice(&format!("{} not found (set {var})", dir.display()));
    None
}

/// Says that a test skipped part of its work for want of shared data, where
/// a user running `cargo test` sees it: written to the terminal's standard
/// error directly, which the test harness does not capture (`eprintln!`
/// output shows only with `--nocapture` or on failure).
pub(crate) fn skip_notice(what: &str) {
    use std::io::Write;
    let _ = writeln!(
        std::io::stderr(),
        "SKIPPED (shared data missing): {what}; these checks did not run. \
         The data is ../shared beside the repository (see CONTRIBUTING.md, Test data)."
    );
}

/// The corpus of recorded streams: `$SSEKIT_CORPUS`, else `../shared/corpus`.
pub(crate) fn corpus_dir() -> Option<PathBuf> {
    shared_dir("SSEKIT_CORPUS", "corpus")
}

/// Every `*.sse` file of the corpus directory, sorted by name, with its bytes.
pub(crate) fn sse_files(dir: &Path) -> Vec<(String, Vec<u8>)> {
    let mut files: Vec<(String, Vec<u8>)> = std::fs::read_dir(dir)
        .unwrap_or_else(|e| panic!("reading {}: {e}", dir.display()))
        .map(|entry| entry.expect("a directory entry").path())
        .filter(|path| path.extension().is_some_and(|e| e == "sse"))
        .map(|path| {
            let name = path.file_name().unwrap().to_string_lossy().into_owned();
            let bytes =
                std::fs::read(&path).unwrap_or_else(|e| panic!("reading {}: {e}", path.display()));
            (name, bytes)
        })
        .collect();
    files.sort();
    files
}
