//! Fuzz target `lint`: every dialect's linter must not panic on any stream,
//! give the same findings however the stream is chunked, point every
//! finding inside the stream, and keep its counts consistent with the
//! findings, under default and tiny memory caps.
//!
//! Input layout (an input shorter than the header means "all defaults"):
//!
//! | bytes     | meaning                                                          |
//! | --------- | ---------------------------------------------------------------- |
//! | 0         | flags: bit 0 tiny caps (items, parts, text bytes, findings        |
//! |           | from bytes 1..=4); bits 1..=2 the dialect (`Dialect::ALL` index) |
//! | 1..=4     | `max_items`, `max_parts`, `max_text_bytes`, `max_findings`       |
//! |           | (each `byte % 8`, when bit 0)                                    |
//! | 5         | `n = byte % 16`: how many split points follow                    |
//! | 6..6+2n   | split points, u16 little endian (positions modulo len + 1)       |
//! | rest      | the SSE stream                                                   |
#![no_main]

use bytes::Bytes;
use libfuzzer_sys::fuzz_target;
use ssekit::lint::{linter_for, Finding, LintConfig, Severity, StreamLinter};
use ssekit::{Dialect, ParserConfig};

fn run(
    dialect: Dialect,
    config: LintConfig,
    stream: &[u8],
    cuts: &[usize],
) -> (Vec<Finding>, [u64; 3]) {
    let mut linter = StreamLinter::with_linter(ParserConfig::DEFAULT, linter_for(dialect, config));
    let mut from = 0;
    let mut found = Vec::new();
    for &cut in cuts.iter().chain([&stream.len()]) {
        linter.feed(Bytes::copy_from_slice(&stream[from..cut]));
        found.extend(linter.drain());
        from = cut;
    }
    linter.finish();
    found.extend(linter.drain());
    let counts = [Severity::Info, Severity::Warning, Severity::Error].map(|s| linter.count(s));
    (found, counts)
}

fuzz_target!(|input: &[u8]| {
    let dialect = Dialect::ALL[usize::from(input.first().map_or(0, |f| (f >> 1) & 3))];
    let (config, stream, mut cuts) = if input.len() < 6 {
        (LintConfig::DEFAULT, input, Vec::new())
    } else {
        let mut config = LintConfig::DEFAULT;
        if input[0] & 1 != 0 {
            config = config
                .with_max_items(usize::from(input[1] % 8))
                .with_max_parts(usize::from(input[2] % 8))
                .with_max_text_bytes(usize::from(input[3] % 8))
                .with_max_findings(usize::from(input[4] % 8));
        }
        let n = usize::from(input[5] % 16);
        let header = (6 + 2 * n).min(input.len());
        let stream = &input[header..];
        let cuts: Vec<usize> = input[6..header]
            .chunks_exact(2)
            .map(|c| usize::from(u16::from_le_bytes([c[0], c[1]])) % (stream.len() + 1))
            .collect();
        (config, stream, cuts)
    };
    cuts.sort_unstable();

    let (whole, counts) = run(dialect, config, stream, &[]);
    for f in &whole {
        assert!(f.offset() <= stream.len() as u64, "{f} past the end");
    }
    if whole.len() <= config.max_findings {
        // Nothing was left out: the counts are the findings'.
        for (i, s) in [Severity::Info, Severity::Warning, Severity::Error]
            .into_iter()
            .enumerate()
        {
            let n = whole.iter().filter(|f| f.severity() == s).count() as u64;
            assert_eq!(counts[i], n, "{s} count");
        }
    }
    let split = run(dialect, config, stream, &cuts);
    assert_eq!(split.0, whole, "split at {cuts:?}");
    assert_eq!(split.1, counts);
    if stream.len() <= 512 {
        let bytes: Vec<usize> = (1..stream.len()).collect();
        assert_eq!(
            run(dialect, config, stream, &bytes).0,
            whole,
            "byte at a time"
        );
    }
});
