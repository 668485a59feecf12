//! Streamed function-call arguments (`partialArgs`) as JSON text, written
//! as the pieces come: the one place that knows how the pieces make the
//! arguments object, used by the Gemini reader and the Gemini accumulator.
//!
//! Vertex AI, asked to stream function-call arguments, sends a call in
//! several `functionCall` parts: the first names it, each carries values at
//! JSON paths (`partialArgs`: `{"jsonPath": "$.city", "stringValue":
//! "Par", "willContinue": true}`), a string may continue at the same path
//! in the next piece, and the call ends at the part without `willContinue:
//! true`. [`ArgsText`] turns the pieces into the text of the arguments
//! object, `{"city":"Par` then `is"` and so on, so that a consumer sees one
//! call whose arguments grow in fragments, as Chat or Anthropic stream
//! them.
//!
//! The pieces are expected in document order, as the server generates
//! them: a path may go deeper into the open object or array, or leave it
//! for a later member; array elements come in index order. A piece that
//! cannot continue the text (an array index out of order, a key where an
//! array is open, a path that is not one of `$`, `.name`, `['name']`,
//! `["name"]`, `[N]`) is an error. A path that comes back to an object
//! already closed opens it again, which writes its key twice.

use alloc::string::String;
use alloc::vec::Vec;

use super::PartialArg;
use crate::json::push_json_str;

/// One step of a JSON path.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Step<'a> {
    Key(&'a str),
    Index(u64),
}

/// An open object or array: the step that leads to it from its parent
/// (none for the arguments object) and the members written so far.
#[derive(Debug, Clone, PartialEq, Eq)]
struct Open {
    key: Option<OwnedStep>,
    array: bool,
    members: u64,
}

#[derive(Debug, Clone, PartialEq, Eq)]
enum OwnedStep {
    Key(String),
    Index(u64),
}

impl OwnedStep {
    fn is(&self, step: &Step<'_>) -> bool {
        match (self, step) {
            (OwnedStep::Key(a), Step::Key(b)) => a == b,
            (OwnedStep::Index(a), Step::Index(b)) => a == b,
            _ => false,
        }
    }

    fn of(step: &Step<'_>) -> Self {
        match step {
            Step::Key(k) => OwnedStep::Key(String::from(*k)),
            Step::Index(i) => OwnedStep::Index(*i),
        }
    }
}

/// A piece that cannot continue the arguments text (see the
/// [module docs](self)).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct BadPiece;

/// The text of a call's arguments object, written piece by piece.
///
/// Memory: the open objects and arrays (at most the depth of the deepest
/// path seen), their keys, and a scratch buffer for escaped paths. Work:
/// linear in the pieces' size.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub(crate) struct ArgsText {
    open: Vec<Open>,
    /// The last step of a string value still open (it continues in the
    /// next piece at the same path).
    string: Option<OwnedStep>,
    scratch: String,
    /// The steps of the piece's path, kept empty between pieces: its
    /// buffer is reused, so a piece allocates nothing in steady state.
    steps: Vec<Step<'static>>,
}

impl ArgsText {
    /// Starts the text with the members of `args` (a JSON object sent with
    /// the first piece), when nothing is written yet; anything else is
    /// ignored.
    pub(crate) fn seed(&mut self, args: &str, out: &mut String) {
        if !self.open.is_empty() {
            return;
        }
        let body = args.trim_end();
        let Some(body) = body.strip_suffix('}') else {
            return;
        };
        let Some(inner) = body.trim_start().strip_prefix('{') else {
            return;
        };
        out.push('{');
        out.push_str(inner.trim_end());
        let members = u64::from(!inner.trim().is_empty());
        self.open.push(Open {
            key: None,
            array: false,
            members,
        });
    }

    /// Appends what `piece` adds to the text.
    ///
    /// # Errors
    ///
    /// [`BadPiece`] when the piece cannot continue the text; nothing of it
    /// was written then, and the text stays as it was.
    pub(crate) fn push(
        &mut self,
        piece: &PartialArg<'_>,
        out: &mut String,
    ) -> Result<(), BadPiece> {
        let Some(path) = piece.json_path else {
            return Err(BadPiece);
        };
        let mut path_text = core::mem::take(&mut self.scratch);
        path_text.clear();
        path.unescape_into(&mut path_text);
        let mut steps = recycle(core::mem::take(&mut self.steps));
        let result = match parse_path(&path_text, &mut steps) {
            Ok(()) => self.push_at(&steps, piece, out),
            Err(e) => Err(e),
        };
        self.steps = recycle(steps);
        self.scratch = path_text;
        result
    }

    fn push_at(
        &mut self,
        steps: &[Step<'_>],
        piece: &PartialArg<'_>,
        out: &mut String,
    ) -> Result<(), BadPiece> {
        let Some((leaf, parents)) = steps.split_last() else {
            // The root itself: the arguments are an object, not a value.
            return Err(BadPiece);
        };
        let continues = piece.will_continue == Some(true);
        if let Some(open) = &self.string {
            if open.is(leaf) && self.is_open_path(parents) {
                // The next piece of the open string, or its end.
                if let Some(s) = piece.string_value {
                    out.push_str(s.raw());
                }
                if !continues {
                    out.push('"');
                    self.string = None;
                }
                return Ok(());
            }
        }
        let has_value = piece.string_value.is_some()
            || piece.number_value.is_some()
            || piece.bool_value.is_some()
            || piece.null_value.is_some();
        if !has_value {
            return Ok(());
        }
        self.check(parents, leaf)?;
        // From here on the piece fits: write it.
        if self.string.take().is_some() {
            out.push('"');
        }
        if self.open.is_empty() {
            out.push('{');
            self.open.push(Open {
                key: None,
                array: false,
                members: 0,
            });
        }
        let shared = self.shared(parents);
        while self.open.len() > shared + 1 {
            if let Some(o) = self.open.pop() {
                out.push(if o.array { ']' } else { '}' });
            }
        }
        for (i, step) in parents.iter().enumerate().skip(shared) {
            self.member(step, out);
            let next = parents.get(i + 1).unwrap_or(leaf);
            let array = matches!(next, Step::Index(_));
            out.push(if array { '[' } else { '{' });
            self.open.push(Open {
                key: Some(OwnedStep::of(step)),
                array,
                members: 0,
            });
        }
        self.member(leaf, out);
        if let Some(s) = piece.string_value {
            out.push('"');
            out.push_str(s.raw());
            if continues {
                self.string = Some(OwnedStep::of(leaf));
            } else {
                out.push('"');
            }
        } else if let Some(n) = piece.number_value {
            out.push_str(n.get().trim());
        } else if let Some(b) = piece.bool_value {
            out.push_str(if b { "true" } else { "false" });
        } else {
            out.push_str("null");
        }
        Ok(())
    }

    /// Whether `parents` is exactly the path of the innermost open
    /// container.
    fn is_open_path(&self, parents: &[Step<'_>]) -> bool {
        self.open.len() == parents.len() + 1 && self.shared(parents) == parents.len()
    }

    /// How many steps of `parents` lead through open containers.
    fn shared(&self, parents: &[Step<'_>]) -> usize {
        parents
            .iter()
            .zip(self.open.iter().skip(1))
            .take_while(|(step, open)| open.key.as_ref().is_some_and(|k| k.is(step)))
            .count()
    }

    /// Checks, without writing, that the piece at `parents` + `leaf` can
    /// continue the text: each step fits the container it goes into.
    fn check(&self, parents: &[Step<'_>], leaf: &Step<'_>) -> Result<(), BadPiece> {
        let shared = self.shared(parents);
        // The container the first new step goes into, as it is now (the
        // arguments object, to be opened, when nothing is written).
        let (array, members) = self
            .open
            .get(shared)
            .map_or((false, 0), |o| (o.array, o.members));
        let first = parents.get(shared).unwrap_or(leaf);
        let fits = match (array, first) {
            (false, Step::Key(_)) => true,
            (true, Step::Index(i)) => *i == members,
            _ => false,
        };
        // Steps below a new container go into new (empty) containers whose
        // kind follows the step, so only their first index can fail.
        let fresh = parents
            .iter()
            .skip(shared + 1)
            .chain(core::iter::once(leaf))
            .all(|s| !matches!(s, Step::Index(i) if *i != 0));
        if fits && (fresh || parents.len() == shared) {
            Ok(())
        } else {
            Err(BadPiece)
        }
    }

    /// Writes the separator and key of one more member of the innermost
    /// container (checked before).
    fn member(&mut self, step: &Step<'_>, out: &mut String) {
        let Some(o) = self.open.last_mut() else {
            return;
        };
        if o.members > 0 {
            out.push(',');
        }
        o.members += 1;
        if let Step::Key(k) = step {
            push_json_str(out, k);
            out.push(':');
        }
    }

    /// Appends what closes the text so far (an open string, the open
    /// containers; `{}` when nothing was written), without ending it.
    pub(crate) fn closing(&self, out: &mut String) {
        if self.open.is_empty() {
            out.push_str("{}");
            return;
        }
        if self.string.is_some() {
            out.push('"');
        }
        for o in self.open.iter().rev() {
            out.push(if o.array { ']' } else { '}' });
        }
    }

    /// Closes the text (see [`closing`](Self::closing)) and starts over.
    pub(crate) fn finish(&mut self, out: &mut String) {
        self.closing(out);
        self.open.clear();
        self.string = None;
    }
}

/// An empty vector of steps of any lifetime, on the buffer of `steps`
/// (emptied, then collected in place: the standard library reuses the
/// allocation of a vector collected from its own iterator when the element
/// types have the same layout, as they do here).
fn recycle<'b>(mut steps: Vec<Step<'_>>) -> Vec<Step<'b>> {
    steps.clear();
    // No element is left to map: the map only changes the lifetime.
    steps
        .into_iter()
        .map(|s| match s {
            Step::Index(i) => Step::Index(i),
            Step::Key(_) => Step::Key(""),
        })
        .collect()
}

/// The steps of a JSON path, into `steps` (empty): `$` then `.name`,
/// `['name']`, `["name"]` or `[N]`, any number of times.
fn parse_path<'p>(path: &'p str, steps: &mut Vec<Step<'p>>) -> Result<(), BadPiece> {
    let mut rest = path.strip_prefix('$').ok_or(BadPiece)?;
    while !rest.is_empty() {
        if let Some(after) = rest.strip_prefix('.') {
            let end = after.find(['.', '[']).unwrap_or(after.len());
            if end == 0 {
                return Err(BadPiece);
            }
            steps.push(Step::Key(&after[..end]));
            rest = &after[end..];
        } else if let Some(after) = rest.strip_prefix('[') {
            let quote = after.chars().next().ok_or(BadPiece)?;
            if quote == '\'' || quote == '"' {
                let body = &after[1..];
                let end = body.find(quote).ok_or(BadPiece)?;
                steps.push(Step::Key(&body[..end]));
                rest = body[end + 1..].strip_prefix(']').ok_or(BadPiece)?;
            } else {
                let end = after.find(']').ok_or(BadPiece)?;
                let digits = &after[..end];
                if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) {
                    return Err(BadPiece);
                }
                steps.push(Step::Index(digits.parse().map_err(|_| BadPiece)?));
                rest = &after[end + 1..];
            }
        } else {
            return Err(BadPiece);
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::json::Value;
    use crate::views::Field;

    fn piece(json: &str) -> PartialArg<'_> {
        let value = Value::parse(json).unwrap();
        PartialArg::from_value(value, json).unwrap()
    }

    /// Writes the pieces (each a JSON `PartialArg`) and closes the text.
    fn text(pieces: &[&str]) -> Result<String, BadPiece> {
        let mut args = ArgsText::default();
        let mut out = String::new();
        for p in pieces {
            args.push(&piece(p), &mut out)?;
        }
        args.finish(&mut out);
        Ok(out)
    }

    #[test]
    fn strings_continue_at_their_path() {
        let got = text(&[
            r#"{"jsonPath":"$.city","stringValue":"Par","willContinue":true}"#,
            r#"{"jsonPath":"$.city","stringValue":"is \"FR\"","willContinue":true}"#,
            r#"{"jsonPath":"$.city","stringValue":""}"#,
            r#"{"jsonPath":"$.days","numberValue":3}"#,
        ])
        .unwrap();
        assert_eq!(got, r#"{"city":"Paris \"FR\"","days":3}"#);
    }

    #[test]
    fn nested_objects_and_arrays_open_and_close() {
        let got = text(&[
            r#"{"jsonPath":"$.trip.stops[0].name","stringValue":"A"}"#,
            r#"{"jsonPath":"$.trip.stops[0].ok","boolValue":true}"#,
            r#"{"jsonPath":"$.trip.stops[1]['the name']","stringValue":"B","willContinue":true}"#,
            r#"{"jsonPath":"$.trip.stops[1]['the name']","stringValue":"C"}"#,
            r#"{"jsonPath":"$.note","nullValue":"NULL_VALUE"}"#,
        ])
        .unwrap();
        assert_eq!(
            got,
            r#"{"trip":{"stops":[{"name":"A","ok":true},{"the name":"BC"}]},"note":null}"#
        );
        let v: serde_json::Value = serde_json::from_str(&got).unwrap();
        assert_eq!(v["trip"]["stops"][1]["the name"], "BC");
    }

    #[test]
    fn a_string_left_open_is_closed_by_the_next_path() {
        let got = text(&[
            r#"{"jsonPath":"$.a","stringValue":"x","willContinue":true}"#,
            r#"{"jsonPath":"$.b","stringValue":"y","willContinue":true}"#,
        ])
        .unwrap();
        assert_eq!(got, r#"{"a":"x","b":"y"}"#);
    }

    #[test]
    fn seeded_with_args() {
        let mut args = ArgsText::default();
        let mut out = String::new();
        args.seed(r#"{ "a": 1 }"#, &mut out);
        args.push(&piece(r#"{"jsonPath":"$.b","boolValue":false}"#), &mut out)
            .unwrap();
        args.finish(&mut out);
        assert_eq!(out, r#"{ "a": 1,"b":false}"#);
        let mut out = String::new();
        args.seed("{}", &mut out);
        args.push(&piece(r#"{"jsonPath":"$.b","numberValue":2.5}"#), &mut out)
            .unwrap();
        args.finish(&mut out);
        assert_eq!(out, r#"{"b":2.5}"#);
    }

    #[test]
    fn nothing_written_closes_as_an_empty_object() {
        assert_eq!(text(&[]).unwrap(), "{}");
        // A piece without a value writes nothing.
        assert_eq!(text(&[r#"{"jsonPath":"$.a"}"#]).unwrap(), "{}");
    }

    #[test]
    fn pieces_out_of_order_are_refused_and_write_nothing() {
        for bad in [
            r#"{"jsonPath":"$[0]","numberValue":1}"#,
            r#"{"jsonPath":"$","numberValue":1}"#,
            r#"{"jsonPath":"a","numberValue":1}"#,
            r#"{"jsonPath":"$.","numberValue":1}"#,
            r#"{"jsonPath":"$.a[x]","numberValue":1}"#,
            r#"{"jsonPath":"$.a[1]","numberValue":1}"#,
            r#"{"numberValue":1}"#,
        ] {
            assert_eq!(text(&[bad]), Err(BadPiece), "{bad}");
        }
        let mut args = ArgsText::default();
        let mut out = String::new();
        args.push(&piece(r#"{"jsonPath":"$.a[0]","numberValue":1}"#), &mut out)
            .unwrap();
        // Index 2 before 1; a key where the array is open.
        for bad in [
            r#"{"jsonPath":"$.a[2]","numberValue":1}"#,
            r#"{"jsonPath":"$.a.b","numberValue":1}"#,
        ] {
            assert_eq!(args.push(&piece(bad), &mut out), Err(BadPiece), "{bad}");
        }
        assert_eq!(out, r#"{"a":[1"#);
        let mut closed = out.clone();
        args.closing(&mut closed);
        assert_eq!(closed, r#"{"a":[1]}"#);
        args.push(&piece(r#"{"jsonPath":"$.a[1]","numberValue":2}"#), &mut out)
            .unwrap();
        args.finish(&mut out);
        assert_eq!(out, r#"{"a":[1,2]}"#);
    }
}
