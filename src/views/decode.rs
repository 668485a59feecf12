//! The one decoder of every view. `view!` declares a view as data (see
//! [`View`]): its fields' JSON keys, their kinds, the match from a key to
//! a field's number, and the field's place (its slot) by number. The
//! functions here read an object's members into any such view in one
//! pass: which member is which, the value read by its field's type, the
//! fields seen, a repeated key, the required fields' check, the errors with
//! their offsets; and they visit a view's fields for [`Fields`](super::Fields).

use super::{offset_in, DecodeError, DecodeErrorKind, Field, FieldValue, Source};
use crate::json::{Key, KeyPattern, KeyWord, MemberSource, RawJson};

/// The member number of an object's `type` when the decoder checks it.
pub(crate) const TYPE_MEMBER: usize = usize::MAX - 1;

/// The member number of a member the decoder skips.
pub(crate) const OTHER_MEMBER: usize = usize::MAX;

/// How a field reads an absent member or `null`, as declared in `view!`.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub(crate) enum FieldKind {
    /// `req`: absent or `null` is a `MissingField` error.
    Required,
    /// `opt`: absent or `null` is `None`.
    Optional,
    /// `dflt`: absent or `null` is the type's empty value, not visited.
    Defaulted,
}

/// The bits of the `Required` fields among `kinds`.
pub(crate) const fn required_mask(kinds: &[FieldKind]) -> u64 {
    let mut mask = 0;
    let mut n = 0;
    while n < kinds.len() && n < 64 {
        if matches!(kinds[n], FieldKind::Required) {
            mask |= 1 << n;
        }
        n += 1;
    }
    mask
}

/// A view as `view!` declares it: the data the generic decoder reads it
/// by. Field `n` is the `n`th declared; its bit in a mask is `1 << n`.
pub(crate) trait View<'a>: Sized {
    /// The JSON keys of the fields, in declaration order.
    const KEYS: &'static [&'static str];
    /// The fields' kinds, in declaration order.
    const KINDS: &'static [FieldKind];
    /// The bits of the required fields.
    const REQUIRED: u64 = required_mask(Self::KINDS);

    /// The view with every field absent (its slots' empty values).
    fn empty() -> Self;

    /// The number of the field whose key, as written and followed by its
    /// closing quote, starts the word at hand in `members` (comparing the
    /// rest of a key too long for the word), with the key's length; or
    /// `(OTHER_MEMBER, 0)`.
    fn match_word<M: MemberSource<'a>>(word: KeyWord, members: &M) -> (usize, usize);

    /// The number of the field whose key is `name` (unescaped), or
    /// `OTHER_MEMBER`: a key that was scanned.
    fn key_number(name: &[u8]) -> usize;

    /// Calls `f` on field `n`'s slot; `None` when there is no field `n`.
    fn slot_mut<F: SlotFn<'a>>(&mut self, n: usize, f: F) -> Option<F::Output>;

    /// Calls `f` on each field's slot, in declaration order.
    fn each_slot<F: EachSlot<'a>>(&self, f: &mut F);

    /// Where the view keeps the text it was decoded from.
    fn source_mut(&mut self) -> &mut Source<'a>;
}

/// The place of a field of type `Value` in a view: `Value` itself
/// (`req`, `dflt`) or `Option<Value>` (`opt`).
pub(crate) trait Slot<'a> {
    /// The field's type.
    type Value: Field<'a>;

    /// The slot of an absent field.
    fn empty() -> Self;

    /// Stores a value read; `bit` is the field's bit in `seen`, the fields
    /// read so far.
    fn put(&mut self, value: Self::Value, bit: u64, seen: &mut u64);

    /// Stores a `null` read (as [`put`](Self::put)): written apart, so that
    /// no whole `Option` of a large value is built to store a `None`.
    fn put_null(&mut self, bit: u64, seen: &mut u64);

    /// The place to read a value into in place (a nested view, a
    /// `HeadList`), holding the type's fallback: a slot read before (a
    /// repeated key, the last one wins) starts again from it.
    fn place(&mut self, bit: u64, seen: &mut u64) -> &mut Self::Value;

    /// The value, unless the field is an absent optional one.
    fn get(&self) -> Option<&Self::Value>;
}

impl<'a, T: Field<'a>> Slot<'a> for T {
    type Value = T;

    #[inline]
    fn empty() -> Self {
        T::fallback()
    }

    #[inline]
    fn put(&mut self, value: T, bit: u64, seen: &mut u64) {
        *self = value;
        *seen |= bit;
    }

    #[inline]
    fn put_null(&mut self, bit: u64, seen: &mut u64) {
        // Absent again: the slot holds the fallback, for a later reading
        // in place (a repeated key) to start from, and a required field
        // counts as missing.
        *self = T::fallback();
        *seen &= !bit;
    }

    #[inline]
    fn place(&mut self, bit: u64, seen: &mut u64) -> &mut T {
        if *seen & bit != 0 {
            *self = T::fallback();
        }
        *seen |= bit;
        self
    }

    #[inline]
    fn get(&self) -> Option<&T> {
        Some(self)
    }
}

impl<'a, T: Field<'a>> Slot<'a> for Option<T> {
    type Value = T;

    #[inline]
    fn empty() -> Self {
        None
    }

    #[inline]
    fn put(&mut self, value: T, _bit: u64, _seen: &mut u64) {
        *self = Some(value);
    }

    #[inline]
    fn put_null(&mut self, _bit: u64, _seen: &mut u64) {
        *self = None;
    }

    #[inline]
    fn place(&mut self, _bit: u64, _seen: &mut u64) -> &mut T {
        self.insert(T::fallback())
    }

    #[inline]
    fn get(&self) -> Option<&T> {
        self.as_ref()
    }
}

/// What to do with one field's slot, by the slot's type (see
/// [`View::slot_mut`]).
pub(crate) trait SlotFn<'a> {
    /// What it returns.
    type Output;
    /// Does it.
    fn call<S: Slot<'a>>(self, slot: &mut S) -> Self::Output;
}

/// What to do with each field's slot in turn (see [`View::each_slot`]).
pub(crate) trait EachSlot<'a> {
    /// Does it to field `n`.
    fn slot<S: Slot<'a>>(&mut self, n: usize, slot: &S);
}

/// Decodes the members of one object into a view. `raw` is the object's
/// text, a slice of `base` (the event's data), or `None` for the text
/// `members` walked (a nested scanner); `expect` is the `type` the object
/// must have, if it is checked here.
#[inline(always)]
pub(crate) fn decode<'a, V: View<'a>, M: MemberSource<'a>>(
    members: M,
    base: &'a str,
    raw: Option<&'a str>,
    expect: Option<&str>,
) -> Result<V, DecodeError> {
    let mut view = V::empty();
    decode_in(members, base, raw, expect, &mut view)?;
    Ok(view)
}

/// [`decode`], with the view's decoder kept in a function of its own: for
/// a caller that picks one of many views (the Responses events). Inlined
/// there, dozens of decoders make one function so large that the compiler
/// stops inlining the small helpers of the common one (string slicing,
/// list reading) into it, which costs more than the call.
#[inline(always)]
pub(crate) fn decode_apart<'a, V: View<'a>, M: MemberSource<'a>>(
    members: M,
    base: &'a str,
    raw: Option<&'a str>,
    expect: Option<&str>,
) -> Result<V, DecodeError> {
    let mut view = V::empty();
    decode_in_apart(members, base, raw, expect, &mut view)?;
    Ok(view)
}

/// [`decode_in`], never inlined (see [`decode_apart`]).
#[inline(never)]
fn decode_in_apart<'a, V: View<'a>, M: MemberSource<'a>>(
    members: M,
    base: &'a str,
    raw: Option<&'a str>,
    expect: Option<&str>,
    out: &mut V,
) -> Result<(), DecodeError> {
    decode_inline(members, base, raw, expect, out)
}

/// [`decode`] into `out`, which holds the empty view on entry: each field
/// is decoded where it will stay, so that a large view (a chunk with its
/// first choice) is never moved on its way up. On an error `out` holds
/// what was read so far. Whether it is inlined is left to the compiler
/// (nested views, the Anthropic events, the tagged enums' variants).
pub(crate) fn decode_in<'a, V: View<'a>, M: MemberSource<'a>>(
    members: M,
    base: &'a str,
    raw: Option<&'a str>,
    expect: Option<&str>,
    out: &mut V,
) -> Result<(), DecodeError> {
    decode_inline(members, base, raw, expect, out)
}

/// [`decode_in`], always inlined: for the callers where a measured call
/// cost outweighs the code size (the Chat and Gemini chunks in their
/// events).
#[inline(always)]
pub(crate) fn decode_inline<'a, V: View<'a>, M: MemberSource<'a>>(
    mut members: M,
    base: &'a str,
    raw: Option<&'a str>,
    expect: Option<&str>,
    out: &mut V,
) -> Result<(), DecodeError> {
    const { assert!(V::KEYS.len() <= 64, "a view has at most 64 fields") };
    const { assert!(V::KEYS.len() == V::KINDS.len()) };
    // The fields read so far, bit `n` for field number `n`: for the
    // required fields' check, and to start a value read in place a second
    // time (a repeated key: the last one wins) from its fallback.
    let mut seen: u64 = 0;
    let check = expect.is_some();
    loop {
        // Which member this is: `TYPE_MEMBER` for the checked `type`, a
        // field's number, or `OTHER_MEMBER`.
        let n = if M::IN_PLACE {
            // Keys as written are compared in place, without scanning them
            // first; a key none of them matches is scanned.
            match members.start_member() {
                None => break,
                Some(r) => r.map_err(DecodeError::json)?,
            }
            // The key's first sixteen bytes, compared with each field's
            // key in a few instructions; a key no field has, or one too
            // long for the word, is scanned.
            let n = match members.key_word() {
                Some(word) => {
                    let (n, len) = if check && const { KeyPattern::new("type") }.matches(word) {
                        (TYPE_MEMBER, 4)
                    } else {
                        V::match_word(word, &members)
                    };
                    if n != OTHER_MEMBER {
                        members.take_key(len).map_err(DecodeError::json)?;
                    }
                    n
                }
                None => OTHER_MEMBER,
            };
            if n == OTHER_MEMBER {
                let key = members.scan_key().map_err(DecodeError::json)?;
                member_number::<V>(key, check)
            } else {
                n
            }
        } else {
            match members.next_key() {
                None => break,
                Some(key) => member_number::<V>(key.map_err(DecodeError::json)?, check),
            }
        };
        if n == TYPE_MEMBER {
            if let Some(expect) = expect {
                // The expected type as written is the common case:
                // compared in place, not scanned first.
                if !members.value_is_str(expect.as_bytes()) {
                    let value = members.value().map_err(DecodeError::json)?;
                    super::check_type(expect, value, base)?;
                }
            }
        } else {
            let mut error = None;
            let read = out.slot_mut(
                n,
                ReadField::<V, M> {
                    members: &mut members,
                    base,
                    n,
                    seen: &mut seen,
                    error: &mut error,
                    _view: core::marker::PhantomData,
                },
            );
            match read {
                Some(true) => {}
                Some(false) => {
                    if let Some(e) = error {
                        return Err(e);
                    }
                }
                None => {
                    members.value().map_err(DecodeError::json)?;
                }
            }
        }
    }
    let raw = match raw {
        Some(raw) => raw,
        None => members.object_text(),
    };
    let missing = V::REQUIRED & !seen;
    if missing != 0 {
        return Err(missing_field(V::KEYS, missing, base, raw));
    }
    *out.source_mut() = Source(RawJson::new(raw));
    Ok(())
}

/// The error for the first missing required field among the bits of
/// `missing`.
#[cold]
fn missing_field(
    keys: &'static [&'static str],
    missing: u64,
    base: &str,
    raw: &str,
) -> DecodeError {
    let field = keys
        .get(missing.trailing_zeros() as usize)
        .copied()
        .unwrap_or_default();
    DecodeError::new(
        DecodeErrorKind::MissingField { field },
        offset_in(base, raw),
    )
}

/// The number of the member with this key, scanned: matched as bytes (no
/// `str` slicing); an escaped key is unescaped and matched by name.
#[inline(always)]
fn member_number<'a, V: View<'a>>(key: Key<'a>, check: bool) -> usize {
    let name = if key.has_escapes() {
        super::match_escaped(key.json_str(), V::KEYS).as_bytes()
    } else {
        key.bytes()
    };
    if check && name == b"type" {
        return TYPE_MEMBER;
    }
    V::key_number(name)
}

/// Reads the value at hand in `members` into field `n`'s slot: `true`
/// when it was read, else `false` with the error in `error`. A flag, not
/// a `Result`, comes back out of the match on the field's number, so that
/// the branches of that match meet on one byte.
struct ReadField<'a, 'r, V, M> {
    members: &'r mut M,
    base: &'a str,
    n: usize,
    seen: &'r mut u64,
    error: &'r mut Option<DecodeError>,
    _view: core::marker::PhantomData<fn() -> V>,
}

impl<'a, V: View<'a>, M: MemberSource<'a>> SlotFn<'a> for ReadField<'a, '_, V, M> {
    type Output = bool;

    #[inline(always)]
    fn call<S: Slot<'a>>(self, slot: &mut S) -> bool {
        match read_slot::<V, M, S>(self.members, self.base, self.n, self.seen, slot) {
            Ok(()) => true,
            Err(e) => {
                *self.error = Some(e);
                false
            }
        }
    }
}

/// Reads the value at hand in `members` into `slot`, field `n`'s.
#[inline(always)]
fn read_slot<'a, V: View<'a>, M: MemberSource<'a>, S: Slot<'a>>(
    members: &mut M,
    base: &'a str,
    n: usize,
    seen: &mut u64,
    slot: &mut S,
) -> Result<(), DecodeError> {
    let bit = 1u64 << (n & 63);
    let in_field = |e: DecodeError| e.in_field(V::KEYS.get(n).copied().unwrap_or_default());
    if S::Value::FROM_U64 {
        if let Some(v) = members.value_u64() {
            match S::Value::from_u64(v) {
                Some(v) => slot.put(v, bit, seen),
                None => slot.put_null(bit, seen),
            }
            return Ok(());
        }
    }
    if S::Value::NESTED {
        // An object decoded in the pass that validates it, not validated
        // then walked, and built in its place, not moved there.
        if let Some(v) = members.nested_object(|s| {
            <S::Value as Field<'a>>::from_nested_in(s, base, slot.place(bit, seen))
        }) {
            return v.map_err(in_field);
        }
    }
    if S::Value::FROM_SCANNER {
        // An array whose first element is decoded in the pass that
        // validates it (`HeadList`).
        if members
            .with_scanner(|s| <S::Value as Field<'a>>::from_scanner(s, base, slot.place(bit, seen)))
        {
            return Ok(());
        }
    }
    if members.value_is_null() {
        slot.put_null(bit, seen);
        return Ok(());
    }
    let value = members.value().map_err(DecodeError::json)?;
    if value.is_null() {
        slot.put_null(bit, seen);
    } else {
        slot.put(
            <S::Value as Field<'a>>::from_value(value, base).map_err(in_field)?,
            bit,
            seen,
        );
    }
    Ok(())
}

/// Hands each present field of `view` to a visitor (see
/// [`Fields::for_each_field`](super::Fields::for_each_field)): a
/// required field always, an optional one unless absent, a defaulted one
/// unless it holds its empty value.
pub(crate) fn for_each_field<'a, V: View<'a>>(
    view: &V,
    f: &mut dyn FnMut(&'static str, FieldValue<'a, '_>),
) {
    struct Visit<'f, 'a, V> {
        f: &'f mut dyn FnMut(&'static str, FieldValue<'a, '_>),
        _view: core::marker::PhantomData<fn() -> V>,
    }
    impl<'a, V: View<'a>> EachSlot<'a> for Visit<'_, 'a, V> {
        fn slot<S: Slot<'a>>(&mut self, n: usize, slot: &S) {
            if let Some(value) = slot.get() {
                if V::KINDS.get(n) != Some(&FieldKind::Defaulted) || !value.is_fallback() {
                    let name = V::KEYS.get(n).copied().unwrap_or_default();
                    (self.f)(name, value.field_value());
                }
            }
        }
    }
    view.each_slot(&mut Visit::<V> {
        f,
        _view: core::marker::PhantomData,
    });
}

/// Decodes the fields' [`Lazy`](super::Lazy) payloads and returns the
/// first error, naming its field (`Ok` when every field was decoded when
/// read).
pub(crate) fn check_fields<'a, V: View<'a>>(view: &V) -> Result<(), DecodeError> {
    struct Check<V> {
        first: Result<(), DecodeError>,
        _view: core::marker::PhantomData<fn() -> V>,
    }
    impl<'a, V: View<'a>> EachSlot<'a> for Check<V> {
        #[inline]
        fn slot<S: Slot<'a>>(&mut self, n: usize, slot: &S) {
            if self.first.is_ok() {
                if let Some(value) = slot.get() {
                    self.first = value
                        .check()
                        .map_err(|e| e.in_field(V::KEYS.get(n).copied().unwrap_or_default()));
                }
            }
        }
    }
    let mut check = Check::<V> {
        first: Ok(()),
        _view: core::marker::PhantomData,
    };
    view.each_slot(&mut check);
    check.first
}
