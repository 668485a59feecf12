//! `Reports`: the findings queue of every linter, with the cap of
//! [`LintConfig::max_findings`] and one line per message.

use alloc::collections::VecDeque;
use alloc::format;
use alloc::string::String;

use super::linter::LintConfig;
use super::rule::{Finding, Rule, Severity};

/// Longest message kept (ids and types come from the input: keep messages
/// to one short line).
const MAX_MESSAGE: usize = 400;

/// Findings not yet taken, counts by severity, and what the cap left out.
#[derive(Debug)]
pub(super) struct Reports {
    max_findings: usize,
    queue: VecDeque<Finding>,
    reported: usize,
    suppressed: u64,
    suppressed_worst: Option<Severity>,
    counts: [u64; 3],
}

impl Reports {
    pub(super) fn new(config: &LintConfig) -> Self {
        Self {
            max_findings: config.max_findings,
            queue: VecDeque::new(),
            reported: 0,
            suppressed: 0,
            suppressed_worst: None,
            counts: [0; 3],
        }
    }

    /// Reports a finding (counted always, queued while under the cap).
    pub(super) fn report(
        &mut self,
        rule: Rule,
        severity: Severity,
        (offset, seq): (u64, Option<u64>),
        mut message: String,
    ) {
        if message.len() > MAX_MESSAGE {
            let mut end = MAX_MESSAGE;
            while !message.is_char_boundary(end) {
                end -= 1;
            }
            message.truncate(end);
            message.push('…');
        }
        self.counts[severity as usize] += 1;
        if self.reported >= self.max_findings {
            self.suppressed += 1;
            self.suppressed_worst = self.suppressed_worst.max(Some(severity));
            return;
        }
        self.reported += 1;
        self.queue
            .push_back(Finding::new(rule, severity, offset, seq, message));
    }

    /// Reports the rule's finding with its default severity.
    pub(super) fn rule(&mut self, rule: Rule, offset: u64, message: String) {
        self.report(rule, rule.default_severity(), (offset, None), message);
    }

    /// At the end: one finding for what the cap left out, if anything.
    pub(super) fn finish(&mut self, offset: u64) {
        if let Some(worst) = self.suppressed_worst.take() {
            let n = self.suppressed;
            self.queue.push_back(Finding::new(
                Rule::LimitReached,
                worst,
                offset,
                None,
                format!(
                    "{n} more finding(s) not reported (cap {}), the worst of severity {worst}",
                    self.max_findings
                ),
            ));
        }
    }

    pub(super) fn next(&mut self) -> Option<Finding> {
        self.queue.pop_front()
    }

    pub(super) fn drain(&mut self) -> impl Iterator<Item = Finding> + '_ {
        self.queue.drain(..)
    }

    pub(super) fn count(&self, severity: Severity) -> u64 {
        self.counts[severity as usize]
    }
}
