//! Recorded real-world LLM streams (`../shared/corpus` beside the crate, see its
//! PROVENANCE.md): every file parses without errors, under every chunking
//! gives the same frames, and dispatches exactly the number of events its
//! provenance table records (counted independently of this parser).
//!
//! The corpus is found at `$SSEKIT_CORPUS`, else at the shared default
//! below. When it is missing the tests are skipped with a message, except
//! under `CI=true`, where a missing corpus fails.

use crate::corpus;
use corpus::corpus_dir;
use std::collections::BTreeMap;
use std::path::Path;

use bytes::Bytes;
use ssekit::{Frame, Parser};

/// Every `*.sse` file in the corpus, by name, with its bytes.
fn corpus_files(dir: &Path) -> Vec<(String, Vec<u8>)> {
    let mut files: Vec<(String, Vec<u8>)> = std::fs::read_dir(dir)
        .expect("read corpus dir")
        .map(|e| e.expect("dir entry").path())
        .filter(|p| p.extension().is_some_and(|e| e == "sse"))
        .map(|p| {
            let name = p.file_name().unwrap().to_string_lossy().into_owned();
            (name, std::fs::read(&p).expect("read corpus file"))
        })
        .collect();
    files.sort();
    assert!(!files.is_empty(), "no .sse files in {}", dir.display());
    files
}

/// The `file` → `events` columns of the markdown table in PROVENANCE.md
/// that has both (file names are in backticks).
fn expected_event_counts(dir: &Path) -> BTreeMap<String, usize> {
    let text = std::fs::read_to_string(dir.join("PROVENANCE.md")).expect("read PROVENANCE.md");
    let cells = |line: &str| -> Vec<String> {
        let inner = line.trim().trim_start_matches('|').trim_end_matches('|');
        inner.split('|').map(|c| c.trim().to_owned()).collect()
    };
    let mut counts = BTreeMap::new();
    let mut columns: Option<(usize, usize)> = None;
    for line in text.lines() {
        if !line.trim_start().starts_with('|') {
            columns = None; // a table ended
            continue;
        }
        let row = cells(line);
        if row
            .iter()
            .all(|c| c.chars().all(|ch| ch == '-' || ch == ':'))
        {
            continue; // the |---|---| separator
        }
        match columns {
            None => {
                let file = row.iter().position(|c| c == "file");
                let events = row.iter().position(|c| c == "events");
                columns = Some(match (file, events) {
                    (Some(f), Some(e)) => (f, e),
                    _ => (usize::MAX, usize::MAX), // some other table
                });
            }
            Some((f, e)) if f != usize::MAX => {
                let file = row[f].trim_matches('`').to_owned();
                let n = row[e]
                    .parse()
                    .unwrap_or_else(|_| panic!("bad events cell in {line}"));
                assert!(
                    counts.insert(file.clone(), n).is_none(),
                    "{file} listed twice"
                );
            }
            Some(_) => {}
        }
    }
    assert!(!counts.is_empty(), "no file/events table in PROVENANCE.md");
    counts
}

/// Parses `stream` fed in `chunk`-byte pieces (of one shared buffer), and
/// asserts that nothing went wrong.
fn parse(name: &str, stream: &Bytes, chunk: usize) -> Vec<Frame> {
    let mut p = Parser::new();
    let mut frames = Vec::new();
    let mut at = 0;
    while at < stream.len() {
        let end = (at + chunk).min(stream.len());
        p.feed(stream.slice(at..end));
        at = end;
        while let Some(f) = p
            .next_frame()
            .unwrap_or_else(|e| panic!("{name} ({chunk}-byte chunks): {e}"))
        {
            frames.push(f);
        }
    }
    p.finish()
        .unwrap_or_else(|e| panic!("{name} ({chunk}-byte chunks): finish: {e}"));
    assert_eq!(p.next_frame(), Ok(None), "{name}: frame after finish");
    frames
}

/// Checks every corpus file under the given chunk sizes against its whole
/// parse and its recorded event count.
fn check_chunkings(sizes: &[usize]) {
    let Some(dir) = corpus_dir() else { return };
    let counts = expected_event_counts(&dir);
    let files = corpus_files(&dir);
    for (name, bytes) in &files {
        let expected = *counts
            .get(name)
            .unwrap_or_else(|| panic!("{name} is not in PROVENANCE.md"));
        let stream = Bytes::from(bytes.clone());
        let whole = parse(name, &stream, stream.len().max(1));
        assert_eq!(whole.len(), expected, "{name}: frames vs PROVENANCE events");
        for &size in sizes {
            let frames = parse(name, &stream, size);
            assert_eq!(
                frames.len(),
                whole.len(),
                "{name}: frame count with {size}-byte chunks"
            );
            if let Some(i) = (0..frames.len()).find(|&i| frames[i] != whole[i]) {
                panic!(
                    "{name}: frame {i} differs with {size}-byte chunks: {:?} vs {:?}",
                    frames[i], whole[i]
                );
            }
        }
    }
}

#[test]
fn provenance_lists_exactly_the_corpus_files() {
    let Some(dir) = corpus_dir() else { return };
    let counts = expected_event_counts(&dir);
    let names: Vec<String> = corpus_files(&dir).into_iter().map(|(n, _)| n).collect();
    let listed: Vec<String> = counts.keys().cloned().collect();
    assert_eq!(names, listed, "corpus files vs PROVENANCE.md table");
}

#[test]
fn whole_and_network_sized_chunks() {
    check_chunkings(&[4096, 1460]);
}

#[test]
fn small_chunks() {
    check_chunkings(&[16]);
}

#[test]
fn one_byte_chunks() {
    check_chunkings(&[1]);
}

/// In every stream with `event:` lines, the event name equals the JSON
/// `type` of its data (PROVENANCE.md states this for the whole corpus).
#[test]
fn event_name_equals_json_type() {
    let Some(dir) = corpus_dir() else { return };
    let mut checked = 0;
    for (name, bytes) in corpus_files(&dir) {
        let has_event_lines = bytes
            .split(|&b| b == b'\n')
            .any(|l| l.starts_with(b"event:"));
        if !has_event_lines {
            continue;
        }
        let stream = Bytes::from(bytes);
        for (i, f) in parse(&name, &stream, stream.len()).iter().enumerate() {
            if f.data() == "[DONE]" {
                continue;
            }
            let json: serde_json::Value = serde_json::from_str(f.data())
                .unwrap_or_else(|e| panic!("{name} frame {i}: data is not JSON: {e}"));
            let ty = json["type"]
                .as_str()
                .unwrap_or_else(|| panic!("{name} frame {i}: no string type"));
            assert_eq!(f.event(), ty, "{name} frame {i}");
            assert!(f.has_event_type(), "{name} frame {i}");
            checked += 1;
        }
    }
    assert!(checked > 0, "no stream with event: lines");
    eprintln!("checked event name == data.type for {checked} frames");
}
