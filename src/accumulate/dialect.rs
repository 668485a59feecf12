//! What the dialect accumulators share: the default memory limit, the
//! iterator over an index-keyed list, and writing the final value as JSON
//! text (and, with the `serde` feature, through any serde serializer).

use alloc::collections::btree_map::{self, BTreeMap};

/// The default memory limit of an accumulator: 64 MiB of assembled text.
pub(crate) const DEFAULT_MAX_BYTES: usize = 64 << 20;

/// The elements of an index-keyed list of an accumulated result (the
/// choices of a Chat completion), in index order.
///
/// An [`ExactSizeIterator`] and [`DoubleEndedIterator`]: `len()`,
/// `next()`, `next_back()` and `nth(i)` (O(i)) work as on a slice's
/// iterator. To find an element by its index, use the owner's by-index
/// accessor ([`ChatCompletion::choice`](super::chat::ChatCompletion::choice)),
/// which is O(log n).
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

#[cfg(feature = "serde")]
pub(crate) use crate::json::serialize_json_text;

#[cfg(test)]
mod tests {
    use crate::json::{push_json_str, write_merged, ObjectWriter, Value};
    use alloc::string::{String, ToString};

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
        check::<super::super::anthropic::Message<'static>>();
        check::<super::super::AccumulateError>();
    }
}
