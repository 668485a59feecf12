//! `view!` and `tagged!`: one declaration per view, from which the struct
//! (or enum), its one-pass decoder, its field listing, its visitor, its
//! `to_owned()` and (feature `serde`) its `Deserialize` are generated. Used
//! by every dialect; the Responses events add their own arm on top
//! (`event_view!` in `responses/macros.rs`).
//!
//! ```text
//! view! {
//!     /// docs
//!     pub struct OutputTextDelta<'a> = "response.output_text.delta" {
//!         /// docs
//!         item_id: req JsonStr<'a>,
//!         logprobs: opt Logprobs<'a>,
//!     }
//! }
//! ```
//!
//! `= "type"` adds a `TYPE` constant (the `type` the view decodes, checked
//! when the caller asks); every view decodes as a nested field. Each field is
//! `name: req T` (absent or `null` → `DecodeErrorKind::MissingField`),
//! `name: opt T` (absent or `null` → `None`) or `name: dflt T` (absent or
//! `null` → `T`'s empty value, an empty `List`; not visited then); the
//! field's name is its JSON key. `T` is any `Field`; the JSON key is the name, or the `["key"]`
//! after it.

/// The JSON key of a field: its name, or the `["key"]` given after it.
macro_rules! field_key {
    ($field:ident) => {
        stringify!($field)
    };
    ($field:ident $key:literal) => {
        $key
    };
}

/// The declared type of a field.
macro_rules! field_ty {
    (req $t:ty) => { $t };
    (dflt $t:ty) => { $t };
    (opt $t:ty) => { ::core::option::Option<$t> };
}

/// Stores a field's value (`Option<T>`: `None` for absent or `null`) in
/// its place in the view being built, and notes it in `seen`.
macro_rules! field_put {
    (req $place:expr, $seen:ident, $bit:ident, $value:expr) => {
        match $value {
            ::core::option::Option::Some(v) => {
                $place = v;
                $seen |= $bit;
            }
            ::core::option::Option::None => {
                // Absent again: the place holds the fallback, for a later
                // reading in place (a repeated key) to start from.
                $place = $crate::views::Field::fallback();
                $seen &= !$bit;
            }
        }
    };
    (opt $place:expr, $seen:ident, $bit:ident, $value:expr) => {
        $place = $value
    };
    (dflt $place:expr, $seen:ident, $bit:ident, $value:expr) => {{
        $place = match $value {
            ::core::option::Option::Some(v) => v,
            ::core::option::Option::None => $crate::views::Field::fallback(),
        };
        $seen |= $bit;
    }};
}

/// A field's place in the view being built, as `&mut T` holding `T`'s
/// fallback, for a value decoded in place (a nested view, a `HeadList`).
macro_rules! field_slot {
    (opt $place:expr, $seen:ident, $bit:ident, $t:ty) => {
        $place.insert(<$t as $crate::views::Field<'a>>::fallback())
    };
    ($kind:ident $place:expr, $seen:ident, $bit:ident, $t:ty) => {{
        // Read before (a repeated key): start again from the fallback.
        if $seen & $bit != 0 {
            $place = <$t as $crate::views::Field<'a>>::fallback();
        }
        $seen |= $bit;
        &mut $place
    }};
}

/// A required field's check, once the members were read.
macro_rules! field_require {
    (req $seen:ident, $n:expr, $name:expr, $base:expr, $raw:expr) => {
        if $seen & (1u64 << $n) == 0 {
            return ::core::result::Result::Err($crate::views::DecodeError::new(
                $crate::views::DecodeErrorKind::MissingField { field: $name },
                $crate::views::offset_in($base, $raw),
            ));
        }
    };
    ($kind:ident $seen:ident, $n:expr, $name:expr, $base:expr, $raw:expr) => {};
}

/// The value of a field in a fallback view (see `Field::fallback`).
macro_rules! field_fallback {
    (req $t:ty) => {
        <$t as $crate::views::Field<'_>>::fallback()
    };
    (opt $t:ty) => {
        ::core::option::Option::None
    };
    (dflt $t:ty) => {
        <$t as $crate::views::Field<'_>>::fallback()
    };
}

/// Hands a field to a visitor (skipping an absent optional one).
macro_rules! field_visit {
    (req $value:expr, $name:expr, $f:ident) => {
        $f($name, $crate::views::Field::field_value(&$value))
    };
    (opt $value:expr, $name:expr, $f:ident) => {
        if let ::core::option::Option::Some(v) = &$value {
            $f($name, $crate::views::Field::field_value(v))
        }
    };
    (dflt $value:expr, $name:expr, $f:ident) => {
        if !$crate::views::Field::is_fallback(&$value) {
            $f($name, $crate::views::Field::field_value(&$value))
        }
    };
}

/// Decodes a field's lazy payload, returning its error (see `Field::check`).
macro_rules! field_check {
    (req $value:expr, $name:expr) => {
        $crate::views::Field::check(&$value).map_err(|e| e.in_field($name))?
    };
    (opt $value:expr, $name:expr) => {
        if let ::core::option::Option::Some(v) = &$value {
            $crate::views::Field::check(v).map_err(|e| e.in_field($name))?
        }
    };
    (dflt $value:expr, $name:expr) => {
        $crate::views::Field::check(&$value).map_err(|e| e.in_field($name))?
    };
}

/// What every view that decodes as a field has on top (a nested view, a
/// tagged enum): its [`ViewFamily`](super::ViewFamily), `to_owned()` and
/// (feature `serde`) `Deserialize`. The view has a `raw()` method.
macro_rules! owned_view {
    ($name:ident) => {
        impl $crate::views::ViewFamily for $name<'static> {
            type View<'a> = $name<'a>;
        }

        #[cfg(feature = "serde")]
        impl<'de: 'a, 'a> ::serde::Deserialize<'de> for $name<'a> {
            /// Decodes the view from its raw JSON text (see the module docs).
            fn deserialize<D: ::serde::Deserializer<'de>>(
                d: D,
            ) -> ::core::result::Result<Self, D::Error> {
                $crate::views::serde::deserialize_borrowed(d, $crate::views::serde::decode_nested)
            }
        }

        impl $name<'_> {
            /// Copies the view's JSON text into an [`Owned`]($crate::responses::Owned)
            /// form that outlives the input.
            pub fn to_owned(&self) -> $crate::views::Owned<$name<'static>> {
                $crate::views::Owned::from_text(self.raw().get())
            }
        }
    };
}

macro_rules! view {
    // A view with a `type` of its own (the Chat and Anthropic events),
    // which also decodes as a nested field.
    (
        $(#[$meta:meta])*
        pub struct $name:ident<'a> = $ty:literal {
            $( $(#[$fmeta:meta])* $field:ident $([$key:literal])? : $kind:ident $fty:ty ),* $(,)?
        }
    ) => {
        view! { $(#[$meta])* pub struct $name<'a> { $( $(#[$fmeta])* $field $([$key])? : $kind $fty ),* } }

        impl $name<'_> {
            /// The `type` this view decodes.
            pub const TYPE: &'static str = $ty;
        }
    };
    // A nested view.
    (
        $(#[$meta:meta])*
        pub struct $name:ident<'a> {
            $( $(#[$fmeta:meta])* $field:ident $([$key:literal])? : $kind:ident $fty:ty ),* $(,)?
        }
    ) => {
        view! { @struct $(#[$meta])* $name<'a> { $( $(#[$fmeta])* $field $([$key])? : $kind $fty ),* } }

        impl $crate::views::Sealed for $name<'_> {}
        impl<'a> $crate::views::Field<'a> for $name<'a> {
            fn from_value(
                value: $crate::json::Value<'a>,
                base: &'a str,
            ) -> ::core::result::Result<Self, $crate::views::DecodeError> {
                match value {
                    $crate::json::Value::Object(o) => {
                        Self::decode_members(o.members(), base, Some(o.as_raw_json().get()), None)
                    }
                    _ => Err($crate::views::wrong_type(base, &value)),
                }
            }
            const NESTED: bool = true;
            #[inline]
            fn from_nested(
                scanner: &mut $crate::json::ObjectScanner<'a>,
                base: &'a str,
            ) -> ::core::result::Result<Self, $crate::views::DecodeError> {
                Self::decode_members(scanner, base, None, None)
            }
            #[inline]
            fn from_nested_in(
                scanner: &mut $crate::json::ObjectScanner<'a>,
                base: &'a str,
                out: &mut Self,
            ) -> ::core::result::Result<(), $crate::views::DecodeError> {
                Self::decode_members_in(scanner, base, None, None, out)
            }
            #[inline]
            fn field_value(&self) -> $crate::views::FieldValue<'a, '_> {
                $crate::views::FieldValue::Object(self)
            }
            fn fallback() -> Self {
                Self::fallback_view()
            }
        }

        owned_view!($name);
    };
    // The one-pass decoder of a view, under the name and attributes given:
    // `decode_members_in` (inlined where the compiler chooses) and
    // `decode_members_inline` (always inlined: for the callers where a
    // measured call cost outweighs the code size, the Chat and Gemini
    // chunks in their events).
    (@decoder
        $name:ident<'a> $decode:ident [$($attr:meta)?] {
            $( $field:ident $([$key:literal])? : $kind:ident $fty:ty ),*
        }
    ) => {
        impl<'a> $name<'a> {
            /// [`decode_members`](Self::decode_members) into `out`, which
            /// holds the fallback view (every field absent) on entry: each
            /// field is decoded where it will stay, so that a large view (a
            /// chunk with its first choice) is never moved on its way up.
            /// On an error `out` holds what was read so far.
            // The loop is written out per view rather than as one generic
            // function over a per-view trait: the key compares and the value
            // dispatch are one chain on constants. The generic forms tried
            // so far cost more per event on some dialect (BENCHMARKS.md,
            // "The typed decoder").
            #[allow(unused_mut, unused_variables, dead_code)]
            $(#[$attr])?
            pub(crate) fn $decode<M: $crate::json::MemberSource<'a>>(
                mut members: M,
                base: &'a str,
                raw: ::core::option::Option<&'a str>,
                expect: ::core::option::Option<&str>,
                out: &mut Self,
            ) -> ::core::result::Result<(), $crate::views::DecodeError> {
                const { assert!(Self::FIELDS.len() <= 64, "a view has at most 64 fields") };
                // The fields read so far, bit `n` for field number `n`: for
                // the required fields' check, and to start a nested view
                // read a second time (a repeated key: the last one wins)
                // from its fallback.
                let mut seen: u64 = 0;
                let check = expect.is_some();
                loop {
                    // Which member this is: `TYPE_MEMBER` for the checked
                    // `type`, a field's number (see `field_number`), or
                    // `OTHER_MEMBER`.
                    let n = if M::IN_PLACE {
                        // Keys as written are compared in place, in
                        // declaration order, without scanning them first;
                        // a key none of them matches is scanned.
                        match members.start_member() {
                            None => break,
                            Some(r) => r.map_err($crate::views::DecodeError::json)?,
                        }
                        // The key's first sixteen bytes, compared with each
                        // field's key in a few instructions; a key no field
                        // has, or one too long for the word, is scanned.
                        let n = match members.key_word() {
                            ::core::option::Option::Some(word) => {
                                let (n, len) = if check && const { $crate::json::KeyPattern::new("type") }.matches(word) {
                                    ($crate::views::TYPE_MEMBER, 4)
                                }
                                $(
                                    else if const { $crate::json::KeyPattern::new(field_key!($field $($key)?)) }.matches(word)
                                        && (!const { $crate::json::KeyPattern::new(field_key!($field $($key)?)).is_long() }
                                            || members.key_tail_is(field_key!($field $($key)?).as_bytes()))
                                    {
                                        (
                                            const { $crate::views::field_number(Self::FIELDS, field_key!($field $($key)?)) },
                                            const { $crate::json::KeyPattern::new(field_key!($field $($key)?)).len() },
                                        )
                                    }
                                )*
                                else {
                                    ($crate::views::OTHER_MEMBER, 0)
                                };
                                if n != $crate::views::OTHER_MEMBER {
                                    members.take_key(len).map_err($crate::views::DecodeError::json)?;
                                }
                                n
                            }
                            ::core::option::Option::None => $crate::views::OTHER_MEMBER,
                        };
                        if n == $crate::views::OTHER_MEMBER {
                            let key = members.scan_key().map_err($crate::views::DecodeError::json)?;
                            Self::member_number(key, check)
                        } else {
                            n
                        }
                    } else {
                        match members.next_key() {
                            None => break,
                            Some(key) => Self::member_number(
                                key.map_err($crate::views::DecodeError::json)?,
                                check,
                            ),
                        }
                    };
                    if n == $crate::views::TYPE_MEMBER {
                        if let Some(expect) = expect {
                            // The expected type as written is the common case:
                            // compared in place, not scanned first.
                            if !members.value_is_str(expect.as_bytes()) {
                                let value = members.value().map_err($crate::views::DecodeError::json)?;
                                $crate::views::check_type(expect, value, base)?;
                            }
                        }
                    }
                    $(
                        else if n == const { $crate::views::field_number(Self::FIELDS, field_key!($field $($key)?)) } {
                            let bit = 1u64 << const { $crate::views::field_number(Self::FIELDS, field_key!($field $($key)?)) };
                            if <$fty as $crate::views::Field<'a>>::FROM_U64 {
                                if let Some(v) = members.value_u64() {
                                    field_put!($kind out.$field, seen, bit, <$fty as $crate::views::Field<'a>>::from_u64(v));
                                    continue;
                                }
                            }
                            if <$fty as $crate::views::Field<'a>>::NESTED {
                                // An object decoded in the pass that
                                // validates it, not validated then walked,
                                // and built in its place, not moved there.
                                if let Some(v) = members.nested_object(|s| {
                                    <$fty as $crate::views::Field<'a>>::from_nested_in(
                                        s,
                                        base,
                                        field_slot!($kind out.$field, seen, bit, $fty),
                                    )
                                }) {
                                    v.map_err(|e| e.in_field(field_key!($field $($key)?)))?;
                                    continue;
                                }
                            }
                            if <$fty as $crate::views::Field<'a>>::FROM_SCANNER {
                                // An array whose first element is decoded
                                // in the pass that validates it (`HeadList`).
                                if members.with_scanner(|s| {
                                    <$fty as $crate::views::Field<'a>>::from_scanner(
                                        s,
                                        base,
                                        field_slot!($kind out.$field, seen, bit, $fty),
                                    )
                                }) {
                                    continue;
                                }
                            }
                            if members.value_is_null() {
                                field_put!($kind out.$field, seen, bit, ::core::option::Option::<$fty>::None);
                                continue;
                            }
                            let value = members.value().map_err($crate::views::DecodeError::json)?;
                            let value = if value.is_null() {
                                None
                            } else {
                                Some(
                                    <$fty as $crate::views::Field<'a>>::from_value(value, base)
                                        .map_err(|e| e.in_field(field_key!($field $($key)?)))?,
                                )
                            };
                            field_put!($kind out.$field, seen, bit, value);
                        }
                    )*
                    else {
                        members.value().map_err($crate::views::DecodeError::json)?;
                    }
                }
                let raw = match raw {
                    ::core::option::Option::Some(raw) => raw,
                    ::core::option::Option::None => members.object_text(),
                };
                $(
                    field_require!($kind seen, (const { $crate::views::field_number(Self::FIELDS, field_key!($field $($key)?)) }),
                        field_key!($field $($key)?), base, raw);
                )*
                out.__src = $crate::views::Source($crate::json::RawJson::new(raw));
                Ok(())
            }
        }
    };
    (@struct
        $(#[$meta:meta])*
        $name:ident<'a> {
            $( $(#[$fmeta:meta])* $field:ident $([$key:literal])? : $kind:ident $fty:ty ),*
        }
    ) => {
        $(#[$meta])*
        #[derive(Debug, Clone, PartialEq)]
        #[non_exhaustive]
        pub struct $name<'a> {
            $( $(#[$fmeta])* pub $field: field_ty!($kind $fty), )*
            __src: $crate::views::Source<'a>,
        }

        impl<'a> $name<'a> {
            /// The view's JSON text, as in the input.
            #[inline]
            pub fn raw(&self) -> $crate::json::RawJson<'a> {
                self.__src.0
            }

            /// The view with every field absent (its fields' fallbacks).
            #[inline]
            pub(crate) fn fallback_view() -> Self {
                Self {
                    $( $field: field_fallback!($kind $fty), )*
                    __src: $crate::views::Source::EMPTY,
                }
            }

            /// The JSON keys of the fields, in declaration order.
            pub const FIELDS: &'static [&'static str] = &[$(field_key!($field $($key)?)),*];

            /// Decodes the members of one object. `raw` is the object's text,
            /// a slice of `base` (the event's data), or `None` for the text
            /// `members` walked (a nested scanner); `expect` is the `type`
            /// the object must have, if it is checked here.
            #[inline(always)]
            pub(crate) fn decode_members<M: $crate::json::MemberSource<'a>>(
                members: M,
                base: &'a str,
                raw: ::core::option::Option<&'a str>,
                expect: ::core::option::Option<&str>,
            ) -> ::core::result::Result<Self, $crate::views::DecodeError> {
                let mut view = Self::fallback_view();
                Self::decode_members_in(members, base, raw, expect, &mut view)?;
                Ok(view)
            }

            /// The number of the member with this key (see `decode_members`).
            /// Keys are matched as bytes (no `str` slicing); escaped keys
            /// are unescaped and matched by name.
            #[inline(always)]
            #[allow(unused_variables)]
            fn member_number(key: $crate::json::Key<'a>, check: bool) -> usize {
                let escaped = key.has_escapes();
                let unescaped = if escaped {
                    $crate::views::match_escaped(key.json_str(), Self::FIELDS)
                } else {
                    ""
                };
                let k = key.bytes();
                let is = |name: &str| {
                    if escaped {
                        unescaped == name
                    } else {
                        k == name.as_bytes()
                    }
                };
                if check && is("type") {
                    $crate::views::TYPE_MEMBER
                }
                $(
                    else if is(field_key!($field $($key)?)) {
                        const { $crate::views::field_number(Self::FIELDS, field_key!($field $($key)?)) }
                    }
                )*
                else {
                    $crate::views::OTHER_MEMBER
                }
            }
        }

        view! { @decoder $name<'a> decode_members_in [] { $( $field $([$key])? : $kind $fty ),* } }
        view! { @decoder $name<'a> decode_members_inline [inline(always)] { $( $field $([$key])? : $kind $fty ),* } }

        impl<'a> $crate::views::Fields<'a> for $name<'a> {
            fn field_names(&self) -> &'static [&'static str] {
                Self::FIELDS
            }
            #[allow(unused_variables)]
            fn for_each_field(
                &self,
                f: &mut dyn FnMut(&'static str, $crate::views::FieldValue<'a, '_>),
            ) {
                $( field_visit!($kind self.$field, field_key!($field $($key)?), f); )*
            }
        }
    };
}

/// An enum of views tagged by their `type`, with an `Other` variant for the
/// types it does not know: output items, content parts, annotations.
macro_rules! tagged {
    (
        $(#[$meta:meta])*
        pub enum $name:ident<'a> {
            $( $(#[$vmeta:meta])* $variant:ident($view:ident) = $ty:literal, )*
        }
    ) => {
        $(#[$meta])*
        #[derive(Debug, Clone, PartialEq)]
        #[non_exhaustive]
        pub enum $name<'a> {
            $( $(#[$vmeta])* $variant($view<'a>), )*
            /// A type this version does not model: its `type` and its JSON
            /// text, to inspect or pass on.
            Other {
                /// The `type` (empty when the object has none).
                ty: $crate::json::JsonStr<'a>,
                /// The whole object.
                raw: $crate::json::RawJson<'a>,
            },
        }

        impl<'a> $name<'a> {
            /// The types with their own variant.
            pub const TYPES: &'static [&'static str] = &[$($ty),*];

            /// The `type`: a constant for the modeled variants; for
            /// [`Other`](Self::Other), its raw text (escapes as they stand).
            pub fn ty(&self) -> &'a str {
                match self {
                    $( Self::$variant(_) => $ty, )*
                    Self::Other { ty, .. } => ty.raw(),
                }
            }

            /// The JSON keys of a variant's fields (empty for an unknown type).
            pub fn fields_of(ty: &str) -> &'static [&'static str] {
                match ty {
                    $( $ty => $view::FIELDS, )*
                    _ => &[],
                }
            }

            /// Decodes the members of an object of type `ty` (compared
            /// unescaped). With `check`, `ty` came from the first member and
            /// a later `type` member that differs is a
            /// [`TypeMismatch`]($crate::views::DecodeErrorKind::TypeMismatch).
            fn decode_tagged(
                ty: $crate::json::JsonStr<'a>,
                members: $crate::json::Members<'a>,
                base: &'a str,
                o: $crate::json::ObjectView<'a>,
                check: bool,
            ) -> ::core::result::Result<Self, $crate::views::DecodeError> {
                let raw = o.as_raw_json();
                $(
                    if ty == $ty {
                        return $view::decode_members(members, base, Some(raw.get()), check.then_some($ty))
                            .map(Self::$variant);
                    }
                )*
                if check && members.clone().any(|(k, v)| {
                    k == "type" && !matches!(v, $crate::json::Value::String(v) if v == ty)
                }) {
                    return Err($crate::views::DecodeError::new(
                        $crate::views::DecodeErrorKind::TypeMismatch,
                        $crate::views::offset_in(base, raw.get()),
                    ));
                }
                Ok(Self::Other { ty, raw })
            }
        }

        impl $crate::views::Sealed for $name<'_> {}
        impl<'a> $crate::views::Field<'a> for $name<'a> {
            fn from_value(
                value: $crate::json::Value<'a>,
                base: &'a str,
            ) -> ::core::result::Result<Self, $crate::views::DecodeError> {
                let $crate::json::Value::Object(o) = value else {
                    return Err($crate::views::wrong_type(base, &value));
                };
                // The type is nearly always the first member, or the second
                // after `id` (as OpenAI sends output items): then decode in
                // one walk (the rest after a first `type`; from the start
                // after an `id`), checking that any later `type` agrees.
                // Else, or when they disagree, the last one wins (as in
                // serde_json::Value), and the object is walked again.
                let mut members = o.members();
                for skipped in [false, true] {
                    let Some((k, v)) = members.next() else { break };
                    if k != "type" {
                        continue;
                    }
                    if let $crate::json::Value::String(ty) = v {
                        let rest = if skipped { o.members() } else { members.clone() };
                        match Self::decode_tagged(ty, rest, base, o, true) {
                            Err(e) if e.kind() == $crate::views::DecodeErrorKind::TypeMismatch => {}
                            decoded => return decoded,
                        }
                    }
                    break;
                }
                match o.get("type") {
                    Some($crate::json::Value::String(ty)) => {
                        Self::decode_tagged(ty, o.members(), base, o, false)
                    }
                    _ => Ok(Self::Other {
                        ty: $crate::json::JsonStr::default(),
                        raw: o.as_raw_json(),
                    }),
                }
            }
            #[inline]
            fn field_value(&self) -> $crate::views::FieldValue<'a, '_> {
                $crate::views::FieldValue::Object(self)
            }
            fn fallback() -> Self {
                Self::Other {
                    ty: $crate::json::JsonStr::default(),
                    raw: $crate::json::RawJson::new("{}"),
                }
            }
        }

        owned_view!($name);

        impl<'a> $name<'a> {
            /// The JSON text of the whole object, as in the input.
            pub fn raw(&self) -> $crate::json::RawJson<'a> {
                match self {
                    $( Self::$variant(v) => v.raw(), )*
                    Self::Other { raw, .. } => *raw,
                }
            }
        }

        impl<'a> $crate::views::Fields<'a> for $name<'a> {
            fn field_names(&self) -> &'static [&'static str] {
                match self {
                    $( Self::$variant(v) => $crate::views::Fields::field_names(v), )*
                    Self::Other { .. } => &[],
                }
            }
            fn for_each_field(
                &self,
                f: &mut dyn FnMut(&'static str, $crate::views::FieldValue<'a, '_>),
            ) {
                match self {
                    $(
                        Self::$variant(v) => {
                            f("type", $crate::views::FieldValue::Str(
                                $crate::json::JsonStr::new(concat!("\"", $ty, "\""), false),
                            ));
                            $crate::views::Fields::for_each_field(v, f);
                        }
                    )*
                    Self::Other { ty, .. } => {
                        if !ty.is_empty() {
                            f("type", $crate::views::FieldValue::Str(*ty));
                        }
                    }
                }
            }
        }
    };
}

/// The strict reading of an event enum (`strict`), given the module it is
/// in and the JSON of an object that does not fit it, for the doc example;
/// with `validate`, also the `validate` of an enum whose only failure is its
/// `decode_error` (every dialect but Responses, which also reads its lazy
/// payloads there).
macro_rules! strict_reading {
    ($event:ident, $module:literal, $unfit:literal, validate) => {
        /// Fails for an [`Unknown`](Self::Unknown) that does not fit its
        /// type, with what did not fit: with `parse`, the strict reading, as
        /// in every dialect.
        ///
        /// # Errors
        ///
        /// The [`decode_error`](Self::decode_error), if there is one.
        pub fn validate(&self) -> Result<(), $crate::views::DecodeError> {
            self.decode_error().map_or(Ok(()), Err)
        }

        strict_reading!($event, $module, $unfit);
    };
    ($event:ident, $module:literal, $unfit:literal) => {
        /// The strict reading: the event, or the error of
        /// [`validate`](Self::validate). For code that stops at an event
        /// that does not fit instead of passing it on:
        ///
        /// ```
        #[doc = concat!("use ssekit::", $module, "::", stringify!($event), ";")]
        ///
        #[doc = concat!("let data = r#\"", $unfit, "\"#;")]
        #[doc = concat!("assert!(", stringify!($event), "::parse(data)?.decode_error().is_some());")]
        #[doc = concat!("assert!(", stringify!($event), "::parse(data)?.strict().is_err());")]
        #[doc = concat!("# Ok::<(), ssekit::", $module, "::DecodeError>(())")]
        /// ```
        ///
        /// # Errors
        ///
        /// As [`validate`](Self::validate).
        pub fn strict(self) -> Result<Self, $crate::views::DecodeError> {
            self.validate().map(|()| self)
        }
    };
}
