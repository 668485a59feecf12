//! `view!` and `tagged!`: one declaration per view, from which the struct
//! (or enum) and its description as data are generated: the fields' keys
//! and kinds, the match from a key to a field's number, the fields' places
//! by number (the `View` trait of `views/decode.rs`), and the impls that
//! hand them to the generic code (the one decoder, the visitor,
//! `to_owned()`, feature `serde`'s `Deserialize`). Used by every dialect;
//! the Responses events add their own arm on top (`event_view!` in
//! `responses/macros.rs`).
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

/// A field's kind, as data (see [`FieldKind`](super::decode::FieldKind)).
macro_rules! field_kind {
    (req) => {
        $crate::views::decode::FieldKind::Required
    };
    (opt) => {
        $crate::views::decode::FieldKind::Optional
    };
    (dflt) => {
        $crate::views::decode::FieldKind::Defaulted
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
                    $crate::json::Value::Object(o) => $crate::views::decode::decode(
                        o.members(),
                        base,
                        Some(o.as_raw_json().get()),
                        None,
                    ),
                    _ => Err($crate::views::wrong_type(base, &value)),
                }
            }
            const NESTED: bool = true;
            #[inline]
            fn from_nested(
                scanner: &mut $crate::json::ObjectScanner<'a>,
                base: &'a str,
            ) -> ::core::result::Result<Self, $crate::views::DecodeError> {
                $crate::views::decode::decode(scanner, base, None, None)
            }
            #[inline]
            fn from_nested_in(
                scanner: &mut $crate::json::ObjectScanner<'a>,
                base: &'a str,
                out: &mut Self,
            ) -> ::core::result::Result<(), $crate::views::DecodeError> {
                $crate::views::decode::decode_in(scanner, base, None, None, out)
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
                    $( $field: $crate::views::decode::Slot::empty(), )*
                    __src: $crate::views::Source::EMPTY,
                }
            }

            /// The JSON keys of the fields, in declaration order.
            pub const FIELDS: &'static [&'static str] = &[$(field_key!($field $($key)?)),*];
        }

        // The view as data for the generic decoder (`views/decode.rs`):
        // its keys and kinds, the key match, its slots by number.
        impl<'a> $crate::views::decode::View<'a> for $name<'a> {
            const KEYS: &'static [&'static str] = Self::FIELDS;
            const KINDS: &'static [$crate::views::decode::FieldKind] = &[$(field_kind!($kind)),*];

            #[inline(always)]
            fn empty() -> Self {
                Self::fallback_view()
            }

            #[inline(always)]
            #[allow(unused_variables)]
            fn match_word<M: $crate::json::MemberSource<'a>>(
                word: $crate::json::KeyWord,
                members: &M,
            ) -> (usize, usize) {
                $(
                    if const { $crate::json::KeyPattern::new(field_key!($field $($key)?)) }.matches(word)
                        && (!const { $crate::json::KeyPattern::new(field_key!($field $($key)?)).is_long() }
                            || members.key_tail_is(field_key!($field $($key)?).as_bytes()))
                    {
                        return (
                            const { $crate::views::field_number(Self::FIELDS, field_key!($field $($key)?)) },
                            const { $crate::json::KeyPattern::new(field_key!($field $($key)?)).len() },
                        );
                    }
                )*
                ($crate::views::decode::OTHER_MEMBER, 0)
            }

            #[inline]
            #[allow(unused_variables)]
            fn key_number(name: &[u8]) -> usize {
                $(
                    if name == field_key!($field $($key)?).as_bytes() {
                        return const { $crate::views::field_number(Self::FIELDS, field_key!($field $($key)?)) };
                    }
                )*
                $crate::views::decode::OTHER_MEMBER
            }

            #[inline(always)]
            #[allow(unused_variables)]
            fn slot_mut<F: $crate::views::decode::SlotFn<'a>>(
                &mut self,
                n: usize,
                f: F,
            ) -> ::core::option::Option<F::Output> {
                $(
                    if n == const { $crate::views::field_number(Self::FIELDS, field_key!($field $($key)?)) } {
                        return ::core::option::Option::Some(f.call(&mut self.$field));
                    }
                )*
                ::core::option::Option::None
            }

            #[inline]
            #[allow(unused_variables)]
            fn each_slot<F: $crate::views::decode::EachSlot<'a>>(&self, f: &mut F) {
                $( f.slot(const { $crate::views::field_number(Self::FIELDS, field_key!($field $($key)?)) }, &self.$field); )*
            }

            #[inline(always)]
            fn source_mut(&mut self) -> &mut $crate::views::Source<'a> {
                &mut self.__src
            }
        }

        impl<'a> $crate::views::Fields<'a> for $name<'a> {
            fn field_names(&self) -> &'static [&'static str] {
                Self::FIELDS
            }
            fn for_each_field(
                &self,
                f: &mut dyn FnMut(&'static str, $crate::views::FieldValue<'a, '_>),
            ) {
                $crate::views::decode::for_each_field(self, f)
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
                        return $crate::views::decode::decode(members, base, Some(raw.get()), check.then_some($ty))
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
