//! What the Chat Completions, Anthropic Messages and Gemini accumulators
//! share: the memory budget, the end of each push, and writing the final
//! value as JSON text (and, with the `serde` feature, through any serde
//! serializer).

use super::{AccumulateError, AccumulateErrorKind};
pub(crate) use crate::json::write_merged;
use crate::json::{push_json_str, JsonStr};
use crate::views::{Owned, ViewFamily};
use alloc::collections::btree_map::{self, BTreeMap, Entry};
use alloc::string::String;
use alloc::vec::Vec;

/// The default memory limit of an accumulator: 64 MiB of assembled text.
pub(crate) const DEFAULT_MAX_BYTES: usize = 64 << 20;

/// A memory budget: the bytes kept so far and the limit.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Budget {
    used: usize,
    max: usize,
}

impl Budget {
    pub(crate) const fn new(max: usize) -> Self {
        Self { used: 0, max }
    }

    pub(crate) fn used(&self) -> usize {
        self.used
    }

    /// Gives back `n` bytes (of something replaced).
    pub(crate) fn release(&mut self, n: usize) {
        self.used = self.used.saturating_sub(n);
    }

    /// Takes `n` more bytes, or fails leaving the budget as it was.
    pub(crate) fn charge(&mut self, n: usize) -> Result<(), AccumulateErrorKind> {
        match self.used.checked_add(n) {
            Some(next) if next <= self.max => {
                self.used = next;
                Ok(())
            }
            _ => Err(AccumulateErrorKind::TooManyBytes { limit: self.max }),
        }
    }

    /// `v` unescaped, charged.
    pub(crate) fn owned(&mut self, v: JsonStr<'_>) -> Result<String, AccumulateErrorKind> {
        let s = v.unescape();
        self.charge(s.len())?;
        Ok(s.into_owned())
    }

    /// Appends `v` (unescaped) to `text` if the budget allows `factor` times
    /// its length (else `text` is left as it was); returns where it starts.
    pub(crate) fn append(
        &mut self,
        text: &mut String,
        v: JsonStr<'_>,
        factor: usize,
    ) -> Result<usize, AccumulateErrorKind> {
        let start = text.len();
        v.unescape_into(text);
        let added = text.len() - start;
        match self.charge(added.saturating_mul(factor)) {
            Ok(()) => Ok(start),
            Err(e) => {
                text.truncate(start);
                Err(e)
            }
        }
    }

    /// Puts a charged copy of `text` in `slot`, giving back the old one's bytes.
    pub(crate) fn replace(
        &mut self,
        slot: &mut Option<String>,
        text: &str,
    ) -> Result<(), AccumulateErrorKind> {
        self.charge(text.len())?;
        if let Some(old) = slot.replace(String::from(text)) {
            self.release(old.len());
        }
        Ok(())
    }
}

/// Keeps the first problem of an event.
pub(crate) fn note(first: &mut Option<AccumulateErrorKind>, r: Result<(), AccumulateErrorKind>) {
    if let Err(e) = r {
        first.get_or_insert(e);
    }
}

/// The result of the push of event `number` whose first problem was
/// `first`: a limit that dropped data (bytes, or a count of choices, tool
/// calls or blocks) also sets `limit_hit`, so the result ends truncated.
pub(crate) fn event_result(
    first: Option<AccumulateErrorKind>,
    number: u64,
    limit_hit: &mut bool,
) -> Result<(), AccumulateError> {
    match first {
        None => Ok(()),
        Some(kind) => {
            if matches!(
                kind,
                AccumulateErrorKind::TooManyBytes { .. }
                    | AccumulateErrorKind::TooManyChoices { .. }
                    | AccumulateErrorKind::TooManyToolCalls { .. }
                    | AccumulateErrorKind::TooManyBlocks { .. }
            ) {
                *limit_hit = true;
            }
            Err(AccumulateError::new(kind, number, None))
        }
    }
}

/// Sets `slot` to `value` (unescaped) unless it is set already.
pub(crate) fn set_once(
    b: &mut Budget,
    slot: &mut Option<String>,
    value: Option<JsonStr<'_>>,
) -> Result<(), AccumulateErrorKind> {
    if let (None, Some(v)) = (&slot, value) {
        *slot = Some(b.owned(v)?);
    }
    Ok(())
}

/// Puts `value` in `slot`, charged its text, giving back the old one's bytes.
pub(crate) fn replace_owned<F: ViewFamily>(
    b: &mut Budget,
    slot: &mut Option<Owned<F>>,
    value: Owned<F>,
) -> Result<(), AccumulateErrorKind> {
    b.charge(value.as_str().len())?;
    if let Some(old) = slot.replace(value) {
        b.release(old.as_str().len());
    }
    Ok(())
}

/// Appends `value` to `kept`, charged its text and its place in the list
/// (else `kept` is left as it was).
pub(crate) fn push_owned<F: ViewFamily>(
    b: &mut Budget,
    kept: &mut Vec<Owned<F>>,
    value: Owned<F>,
) -> Result<(), AccumulateErrorKind> {
    b.charge(value.as_str().len() + core::mem::size_of::<Owned<F>>())
        .map(|()| kept.push(value))
}

/// The element of `items` with `index`, inserted (and charged its size) if
/// missing, unless `items` already holds `max` elements (then `too_many`
/// of the limit). O(log n): nothing shifts, whatever order the indexes
/// come in.
pub(crate) fn by_index<'v, T>(
    b: &mut Budget,
    items: &'v mut BTreeMap<u64, T>,
    index: u64,
    max: usize,
    too_many: impl FnOnce(usize) -> AccumulateErrorKind,
    make: impl FnOnce() -> T,
) -> Result<&'v mut T, AccumulateErrorKind> {
    let len = items.len();
    match items.entry(index) {
        Entry::Occupied(e) => Ok(e.into_mut()),
        Entry::Vacant(e) => {
            if len >= max {
                return Err(too_many(max));
            }
            b.charge(core::mem::size_of::<(u64, T)>())?;
            Ok(e.insert(make()))
        }
    }
}

/// The elements of an index-keyed list of an accumulated result (the
/// choices of a Chat completion, the content blocks of an Anthropic
/// message), in index order.
///
/// An [`ExactSizeIterator`] and [`DoubleEndedIterator`]: `len()`,
/// `next()`, `next_back()` and `nth(i)` (O(i)) work as on a slice's
/// iterator. To find an element by its index, use the owner's by-index
/// accessor ([`ChatCompletion::choice`](super::chat::ChatCompletion::choice),
/// [`Message::block`](super::anthropic::Message::block)), which is O(log n).
#[derive(Debug)]
pub struct IndexOrder<'a, T>(btree_map::Values<'a, u64, T>);

impl<'a, T> IndexOrder<'a, T> {
    pub(crate) fn new(map: &'a BTreeMap<u64, T>) -> Self {
        Self(map.values())
    }
}

impl<T> Clone for IndexOrder<'_, T> {
    fn clone(&self) -> Self {
        Self(self.0.clone())
    }
}

impl<'a, T> Iterator for IndexOrder<'a, T> {
    type Item = &'a T;

    fn next(&mut self) -> Option<&'a T> {
        self.0.next()
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        self.0.size_hint()
    }

    fn last(mut self) -> Option<&'a T> {
        self.0.next_back()
    }
}

impl<T> DoubleEndedIterator for IndexOrder<'_, T> {
    fn next_back(&mut self) -> Option<Self::Item> {
        self.0.next_back()
    }
}

impl<T> ExactSizeIterator for IndexOrder<'_, T> {
    fn len(&self) -> usize {
        self.0.len()
    }
}

impl<T> core::iter::FusedIterator for IndexOrder<'_, T> {}

/// `s` as a JSON string literal.
pub(crate) fn json_str(s: &str) -> String {
    let mut out = String::new();
    push_json_str(&mut out, s);
    out
}

#[cfg(feature = "serde")]
pub(crate) use crate::json::serialize_json_text;

#[cfg(test)]
mod tests {
    use super::*;
    use crate::json::{ObjectWriter, Value};
    use alloc::string::ToString;

    #[test]
    fn json_strings_escape_quotes_backslashes_and_controls() {
        let mut out = String::new();
        push_json_str(&mut out, "a\"b\\c\nd\u{1}e\u{7f}é\t");
        assert_eq!(out, r#""a\"b\\c\nd\u0001e"#.to_string() + "\u{7f}é\\t\"");
        let v = Value::parse(&out).unwrap();
        assert_eq!(
            v.as_json_str().unwrap().unescape(),
            "a\"b\\c\nd\u{1}e\u{7f}é\t"
        );
    }

    #[test]
    fn budget_refuses_past_the_limit_and_keeps_its_count() {
        let mut b = Budget::new(10);
        assert!(b.charge(6).is_ok());
        assert_eq!(
            b.charge(5),
            Err(AccumulateErrorKind::TooManyBytes { limit: 10 })
        );
        assert_eq!(b.used(), 6);
        assert!(b.charge(4).is_ok());
        assert!(b.charge(usize::MAX).is_err());
        assert_eq!(b.used(), 10);
    }

    #[test]
    fn object_writer_writes_members_in_order() {
        let mut out = String::new();
        let mut w = ObjectWriter::new(&mut out);
        w.str("a", "x\"");
        w.u64("n", 42);
        w.str_or_null("c", None);
        w.opt_str("d", None);
        w.raw("e", "[1,2]");
        w.end();
        assert_eq!(out, r#"{"a":"x\"","n":42,"c":null,"e":[1,2]}"#);
    }

    #[test]
    fn merged_objects_replace_in_place_and_append_the_rest() {
        let mut out = String::new();
        write_merged(
            &mut out,
            Some(r#"{"a": 1, "b\u0020": [2], "c": null}"#),
            &[
                ("c", Some("3")),
                ("b ", None),
                ("d", Some("\"x\"")),
                ("e", None),
            ],
        );
        assert_eq!(out, r#"{"a":1,"b\u0020":[2],"c":3,"d":"x"}"#);
        out.clear();
        write_merged(&mut out, None, &[("k", Some("true"))]);
        assert_eq!(out, r#"{"k":true}"#);
    }

    #[test]
    fn accumulators_and_their_results_are_send_and_sync() {
        fn check<T: Send + Sync + Clone + core::fmt::Debug>() {}
        check::<super::super::ChatAccumulator>();
        check::<super::super::chat::ChatCompletion>();
        check::<super::super::AnthropicAccumulator>();
        check::<super::super::anthropic::Message>();
        check::<super::super::AccumulateError>();
    }
}
