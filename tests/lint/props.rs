//! Properties of the linter over mangled streams: the shipped sample with
//! event blocks dropped, duplicated, swapped or cut short, and arbitrary
//! bytes. Whatever the input, linting does not panic, every finding points
//! into the stream at the start of an event block (or at its end), and the
//! findings are the same however the bytes are chunked.

use proptest::prelude::*;
use ssekit::lint::{lint_bytes, Finding, ResponsesLinter, Rule, StreamLinter};
use ssekit::{Bytes, Parser};

const SAMPLE: &str = include_str!("../../samples/responses-text.sse");

/// The sample's event blocks, each with its blank line.
fn blocks() -> Vec<String> {
    SAMPLE.split_inclusive("\n\n").map(str::to_owned).collect()
}

/// The events of a stream, as the parser reads them: (name, data).
fn events(bytes: &[u8]) -> Vec<(String, String)> {
    let mut parser = Parser::new();
    parser.feed(Bytes::copy_from_slice(bytes));
    let _ = parser.finish();
    let mut out = Vec::new();
    loop {
        match parser.next_frame() {
            Ok(Some(f)) => out.push((f.event().to_owned(), f.data().to_owned())),
            Ok(None) => return out,
            Err(_) => {}
        }
    }
}

fn chunked(bytes: &[u8], cuts: &[usize]) -> Vec<Finding> {
    let mut cuts: Vec<usize> = cuts.iter().map(|c| c % (bytes.len() + 1)).collect();
    cuts.sort_unstable();
    let mut linter = StreamLinter::new();
    let mut from = 0;
    for cut in cuts.into_iter().chain([bytes.len()]) {
        linter.feed(Bytes::copy_from_slice(&bytes[from..cut]));
        from = cut;
    }
    linter.finish();
    linter.drain().collect()
}

fn check(bytes: &[u8], cuts: &[usize]) -> Result<Vec<Finding>, TestCaseError> {
    let whole = lint_bytes(ResponsesLinter::new(), bytes);
    for f in &whole {
        let at = f.offset() as usize;
        prop_assert!(at <= bytes.len(), "{f} past the end");
        // Frame errors point where the bad line or tail begins; the others
        // at an event block (the sample has no blank lines between blocks).
        if f.rule() != Rule::SseError && at < bytes.len() {
            let rest = &bytes[at..];
            prop_assert!(
                rest.starts_with(b"event:") || rest.starts_with(b"data:") || rest.starts_with(b":"),
                "{f} not at a block"
            );
        }
    }
    prop_assert_eq!(&chunked(bytes, cuts), &whole);
    Ok(whole)
}

#[derive(Debug, Clone)]
enum Edit {
    Drop(usize),
    Duplicate(usize),
    Swap(usize, usize),
}

fn edit() -> impl Strategy<Value = Edit> {
    prop_oneof![
        any::<usize>().prop_map(Edit::Drop),
        any::<usize>().prop_map(Edit::Duplicate),
        (any::<usize>(), any::<usize>()).prop_map(|(a, b)| Edit::Swap(a, b)),
    ]
}

#[test]
fn the_sample_is_clean() {
    assert_eq!(lint_bytes(ResponsesLinter::new(), SAMPLE.as_bytes()), []);
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(256))]

    #[test]
    fn edited_streams(
        edits in proptest::collection::vec(edit(), 1..4),
        cut_tail in proptest::option::of(any::<usize>()),
        cuts in proptest::collection::vec(any::<usize>(), 0..6),
    ) {
        let mut blocks = blocks();
        for e in &edits {
            let n = blocks.len();
            match *e {
                Edit::Drop(i) if n > 1 => { blocks.remove(i % n); }
                Edit::Drop(_) => {}
                Edit::Duplicate(i) => { let b = blocks[i % n].clone(); blocks.insert(i % n, b); }
                Edit::Swap(a, b) => blocks.swap(a % n, b % n),
            }
        }
        let mut text = blocks.concat().into_bytes();
        if let Some(cut) = cut_tail {
            text.truncate(cut % (text.len() + 1));
        }
        let found = check(&text, &cuts)?;
        // Any edit of the clean sample that changes its events is noticed
        // (dropping or duplicating the keep-alive comment changes none).
        if events(&text) != events(SAMPLE.as_bytes()) {
            prop_assert!(!found.is_empty(), "an edited stream linted clean");
        }
    }

    #[test]
    fn arbitrary_bytes(
        bytes in proptest::collection::vec(any::<u8>(), 0..512),
        cuts in proptest::collection::vec(any::<usize>(), 0..6),
    ) {
        check(&bytes, &cuts)?;
    }

    #[test]
    fn sample_with_bytes_replaced(
        at in proptest::collection::vec((any::<usize>(), any::<u8>()), 1..4),
        cuts in proptest::collection::vec(any::<usize>(), 0..6),
    ) {
        let mut text = SAMPLE.as_bytes().to_vec();
        for (i, b) in at {
            let n = text.len();
            text[i % n] = b;
        }
        let whole = lint_bytes(ResponsesLinter::new(), &text);
        prop_assert_eq!(chunked(&text, &cuts), whole);
    }
}
