//! `RawJson` and `RawNumber`: validated spans of JSON text.

use core::fmt;

use super::error::JsonError;
use super::scan;
use super::value::Value;

/// The text of one JSON value, validated and borrowed, not decoded: the
/// borrowed counterpart of `serde_json::value::RawValue`.
///
/// Use it to keep a part of an event for later or to pass it on verbatim
/// (to another JSON library, or into an owned record). Equality compares the
/// text, not the value (`[1]` and `[ 1 ]` differ).
///
/// # Example
///
/// ```
/// use ssekit::json::RawJson;
///
/// let raw = RawJson::parse(r#"  {"a": [1, 2]} "#)?;
/// assert_eq!(raw.get(), r#"{"a": [1, 2]}"#);
/// let a = raw.value().get("a").and_then(|v| v.as_array()).unwrap();
/// assert_eq!(a.as_raw_json().get(), "[1, 2]");
/// # Ok::<(), ssekit::json::JsonError>(())
/// ```
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct RawJson<'a>(&'a str);

impl<'a> RawJson<'a> {
    /// `text` is one validated JSON value, without surrounding whitespace.
    #[inline]
    pub(crate) const fn new(text: &'a str) -> Self {
        Self(text)
    }

    /// Validates `src` as one JSON text and keeps the value's span (the
    /// whitespace around it is dropped).
    ///
    /// # Errors
    ///
    /// A [`JsonError`] if `src` is not exactly one valid JSON value.
    pub fn parse(src: &'a str) -> Result<Self, JsonError> {
        let scan::Span { start, end, .. } = scan::validate(src)?;
        Ok(Self(scan::sub(src, start, end)))
    }

    /// The JSON text.
    #[inline]
    pub fn get(&self) -> &'a str {
        self.0
    }

    /// The JSON text (the same as [`get`](Self::get)).
    #[inline]
    pub fn as_str(&self) -> &'a str {
        self.0
    }

    /// The value, ready to inspect. O(1) for scalars and containers alike
    /// (containers are walked lazily); O(n) only for a string, to learn
    /// whether it holds escapes.
    #[inline]
    pub fn value(&self) -> Value<'a> {
        Value::from_span(self.0)
    }
}

impl fmt::Debug for RawJson<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "RawJson({})", self.0)
    }
}

impl fmt::Display for RawJson<'_> {
    /// Writes the JSON text as it stands.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.0)
    }
}

/// The text of a JSON number, validated against the JSON grammar but not
/// converted: convert it with [`as_u64`](Self::as_u64),
/// [`as_i64`](Self::as_i64) or [`as_f64`](Self::as_f64), or keep the text to
/// lose no precision.
///
/// # Example
///
/// ```
/// use ssekit::json::Value;
///
/// let n = Value::parse("12")?.as_number().unwrap();
/// assert_eq!((n.as_u64(), n.as_i64(), n.as_f64()), (Some(12), Some(12), Some(12.0)));
/// let n = Value::parse("-1.5e3")?.as_number().unwrap();
/// assert_eq!((n.as_u64(), n.as_i64(), n.as_f64()), (None, None, Some(-1500.0)));
/// # Ok::<(), ssekit::json::JsonError>(())
/// ```
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct RawNumber<'a>(&'a str);

impl<'a> RawNumber<'a> {
    #[inline]
    pub(crate) fn new(text: &'a str) -> Self {
        Self(text)
    }

    /// The number as written, e.g. `-1.5e3`.
    #[inline]
    pub fn as_str(&self) -> &'a str {
        self.0
    }

    /// The number as a JSON text.
    #[inline]
    pub fn as_raw_json(&self) -> RawJson<'a> {
        RawJson(self.0)
    }

    /// Whether it is written as an integer: no fraction and no exponent.
    #[inline]
    pub fn is_integer(&self) -> bool {
        !self.0.bytes().any(|b| matches!(b, b'.' | b'e' | b'E'))
    }

    /// The number, if it is written as an integer (no fraction, no exponent)
    /// in the range of `u64`. `-0` is not (it has a sign).
    #[inline]
    pub fn as_u64(&self) -> Option<u64> {
        // Up to 19 digits cannot overflow: add them up directly (the usual
        // case: indexes and sequence numbers). The rest goes to `parse`.
        let b = self.0.as_bytes();
        if b.len() <= 19 {
            let mut n = 0u64;
            for &c in b {
                let d = c.wrapping_sub(b'0');
                if d > 9 {
                    return None;
                }
                n = n * 10 + u64::from(d);
            }
            return (!b.is_empty()).then_some(n);
        }
        self.0.parse().ok()
    }

    /// The number, if it is written as an integer (no fraction, no exponent)
    /// in the range of `i64`.
    #[inline]
    pub fn as_i64(&self) -> Option<i64> {
        self.0.parse().ok()
    }

    /// The nearest `f64`, or `None` if the number is too large for one
    /// (`1e400`; `serde_json` rejects such a text outright). Numbers too
    /// small for one become zero.
    #[inline]
    pub fn as_f64(&self) -> Option<f64> {
        self.0.parse::<f64>().ok().filter(|x| x.is_finite())
    }
}

impl fmt::Debug for RawNumber<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "RawNumber({})", self.0)
    }
}

impl fmt::Display for RawNumber<'_> {
    /// Writes the number as written.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.0)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Text, then `as_u64`, `as_i64`, `as_f64` and `is_integer`.
    type NumberCase = (&'static str, Option<u64>, Option<i64>, Option<f64>, bool);

    #[test]
    fn as_u64_agrees_with_parse() {
        // The digit loop (up to 19 digits) and `parse` (longer) must agree
        // with `str::parse` on every integer text JSON can hold, around the
        // 19/20-digit hand-over and `u64::MAX`.
        let mut texts: alloc::vec::Vec<alloc::string::String> = alloc::vec::Vec::new();
        for n in [
            0u64,
            1,
            9,
            10,
            99,
            12345,
            u64::MAX / 10,
            u64::MAX - 1,
            u64::MAX,
        ] {
            texts.push(alloc::format!("{n}"));
            texts.push(alloc::format!("-{n}"));
        }
        for digits in 1..=21 {
            texts.push("9".repeat(digits));
            texts.push(alloc::format!("1{}", "0".repeat(digits - 1)));
        }
        texts.extend(["1.0", "1e5", "-0", "12a"].map(Into::into));
        for t in &texts {
            assert_eq!(RawNumber::new(t).as_u64(), t.parse::<u64>().ok(), "{t}");
        }
    }

    #[test]
    fn numbers() {
        let table: &[NumberCase] = &[
            ("0", Some(0), Some(0), Some(0.0), true),
            ("-0", None, Some(0), Some(-0.0), true),
            ("42", Some(42), Some(42), Some(42.0), true),
            ("-42", None, Some(-42), Some(-42.0), true),
            (
                "18446744073709551615",
                Some(u64::MAX),
                None,
                Some(1.8446744073709552e19),
                true,
            ),
            (
                "18446744073709551616",
                None,
                None,
                Some(1.8446744073709552e19),
                true,
            ),
            (
                "-9223372036854775808",
                None,
                Some(i64::MIN),
                Some(-9.223372036854776e18),
                true,
            ),
            ("1.5", None, None, Some(1.5), false),
            ("1e2", None, None, Some(100.0), false),
            ("1E+2", None, None, Some(100.0), false),
            ("2.5e-3", None, None, Some(0.0025), false),
            ("1e-400", None, None, Some(0.0), false),
        ];
        for &(text, u, i, f, int) in table {
            let n = RawJson::parse(text).unwrap().value().as_number().unwrap();
            assert_eq!(n.as_str(), text);
            assert_eq!(n.as_u64(), u, "{text}");
            assert_eq!(n.as_i64(), i, "{text}");
            assert_eq!(n.as_f64(), f, "{text}");
            assert_eq!(n.is_integer(), int, "{text}");
            assert_eq!(n.as_raw_json().get(), text);
        }
    }

    #[test]
    fn raw_json_keeps_the_text() {
        let r = RawJson::parse(" [1 , 2]\n").unwrap();
        assert_eq!(r.get(), "[1 , 2]");
        assert_eq!(r.as_str(), "[1 , 2]");
        assert_eq!(alloc::format!("{r}"), "[1 , 2]");
        assert_eq!(alloc::format!("{r:?}"), "RawJson([1 , 2])");
        assert!(RawJson::parse("[1,]").is_err());
        assert_ne!(RawJson::parse("[1]").unwrap(), r);
    }
}
