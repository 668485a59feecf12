//! `dview!` and `dtagged!`: the Chat and Anthropic copies of the Responses
//! layer's `view!` and `tagged!` (see `responses/macros.rs`), over
//! [`Decode`](super::Decode) instead of the sealed `responses::Field`.
//!
//! ```text
//! dview! {
//!     /// docs
//!     pub struct ContentBlockStop<'a> = "content_block_stop" {
//!         /// docs
//!         index: req u64,
//!         ty["type"]: opt JsonStr<'a>,
//!     }
//! }
//! ```
//!
//! `= "type"` makes an event view (with a `TYPE` constant, its `type`
//! checked when asked); every view also decodes as a nested field. Each
//! field is `name: req T` (absent or `null` → `MissingField`) or
//! `name: opt T` (absent or `null` → `None`); the JSON key is the name, or
//! the `["key"]` after it.

macro_rules! d_field_key {
    ($field:ident) => {
        stringify!($field)
    };
    ($field:ident $key:literal) => {
        $key
    };
}

macro_rules! d_field_ty {
    (req $t:ty) => { $t };
    (opt $t:ty) => { ::core::option::Option<$t> };
}

macro_rules! d_field_finish {
    (req $slot:ident, $name:expr, $at:expr) => {
        match $slot {
            ::core::option::Option::Some(v) => v,
            ::core::option::Option::None => {
                return ::core::result::Result::Err($crate::responses::DecodeError::new(
                    $crate::responses::DecodeErrorKind::MissingField { field: $name },
                    $at,
                ))
            }
        }
    };
    (opt $slot:ident, $name:expr, $at:expr) => {
        $slot
    };
}

macro_rules! d_field_visit {
    (req $value:expr, $name:expr, $f:ident) => {
        $f($name, $crate::dialect::Decode::field_value(&$value))
    };
    (opt $value:expr, $name:expr, $f:ident) => {
        if let ::core::option::Option::Some(v) = &$value {
            $f($name, $crate::dialect::Decode::field_value(v))
        }
    };
}

macro_rules! dview {
    (
        $(#[$meta:meta])*
        pub struct $name:ident<'a> = $ty:literal {
            $( $(#[$fmeta:meta])* $field:ident $([$key:literal])? : $kind:ident $fty:ty ),* $(,)?
        }
    ) => {
        dview! { $(#[$meta])* pub struct $name<'a> { $( $(#[$fmeta])* $field $([$key])? : $kind $fty ),* } }

        impl $name<'_> {
            /// The `type` this view decodes.
            pub const TYPE: &'static str = $ty;
        }
    };
    (
        $(#[$meta:meta])*
        pub struct $name:ident<'a> {
            $( $(#[$fmeta:meta])* $field:ident $([$key:literal])? : $kind:ident $fty:ty ),* $(,)?
        }
    ) => {
        $(#[$meta])*
        #[derive(Debug, Clone, PartialEq)]
        #[non_exhaustive]
        pub struct $name<'a> {
            $( $(#[$fmeta])* pub $field: d_field_ty!($kind $fty), )*
            __src: $crate::dialect::Source<'a>,
        }

        impl<'a> $name<'a> {
            /// The view's JSON text, as in the input.
            #[inline]
            pub fn raw(&self) -> $crate::json::RawJson<'a> {
                self.__src.0
            }

            /// The JSON keys of the fields, in declaration order.
            pub const FIELDS: &'static [&'static str] = &[$(d_field_key!($field $($key)?)),*];

            /// Decodes the members of one object. `raw` is the object's text,
            /// a slice of `base` (the event's data); `expect` is the `type`
            /// the object must have, if it is checked here.
            #[allow(unused_mut, unused_variables)]
            pub(crate) fn decode_members<I>(
                members: I,
                base: &'a str,
                raw: &'a str,
                expect: ::core::option::Option<&str>,
            ) -> ::core::result::Result<Self, $crate::responses::DecodeError>
            where
                I: ::core::iter::Iterator<
                    Item = ::core::result::Result<
                        ($crate::json::JsonStr<'a>, $crate::json::Value<'a>),
                        $crate::json::JsonError,
                    >,
                >,
            {
                let at = $crate::dialect::offset_in(base, raw);
                $( let mut $field: ::core::option::Option<$fty> = None; )*
                for member in members {
                    let (key, value) = member.map_err($crate::responses::DecodeError::json)?;
                    let key = match key.as_str() {
                        Some(k) => k,
                        None => $crate::dialect::match_escaped(key, Self::FIELDS),
                    };
                    match key {
                        "type" if expect.is_some() => {
                            if let Some(expect) = expect {
                                $crate::dialect::check_type(expect, value, base)?;
                            }
                        }
                        $(
                            d_field_key!($field $($key)?) => {
                                $field = if value.is_null() {
                                    None
                                } else {
                                    Some(
                                        <$fty as $crate::dialect::Decode<'a>>::from_value(value, base)
                                            .map_err(|e| e.in_field(d_field_key!($field $($key)?)))?,
                                    )
                                };
                            }
                        )*
                        _ => {}
                    }
                }
                Ok(Self {
                    $( $field: d_field_finish!($kind $field, d_field_key!($field $($key)?), at), )*
                    __src: $crate::dialect::Source($crate::json::RawJson::new(raw)),
                })
            }
        }

        impl<'a> $crate::dialect::Decode<'a> for $name<'a> {
            fn from_value(
                value: $crate::json::Value<'a>,
                base: &'a str,
            ) -> ::core::result::Result<Self, $crate::responses::DecodeError> {
                match value {
                    $crate::json::Value::Object(o) => {
                        Self::decode_members(o.members().map(Ok), base, o.as_raw_json().get(), None)
                    }
                    _ => Err($crate::dialect::wrong_type(base, &value)),
                }
            }
            #[inline]
            fn field_value(&self) -> $crate::responses::FieldValue<'a, '_> {
                $crate::responses::FieldValue::Object(self)
            }
        }

        impl<'a> $crate::responses::Fields<'a> for $name<'a> {
            fn field_names(&self) -> &'static [&'static str] {
                Self::FIELDS
            }
            #[allow(unused_variables)]
            fn for_each_field(
                &self,
                f: &mut dyn FnMut(&'static str, $crate::responses::FieldValue<'a, '_>),
            ) {
                $( d_field_visit!($kind self.$field, d_field_key!($field $($key)?), f); )*
            }
        }
    };
}

/// An enum of views tagged by their `type`, with an `Other` variant for the
/// types it does not know: content blocks, deltas, citations.
macro_rules! dtagged {
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
            /// text, to inspect or pass on. Never an error.
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

            /// The JSON text of the whole object, as in the input.
            pub fn raw(&self) -> $crate::json::RawJson<'a> {
                match self {
                    $( Self::$variant(v) => v.raw(), )*
                    Self::Other { raw, .. } => *raw,
                }
            }
        }

        impl<'a> $crate::dialect::Decode<'a> for $name<'a> {
            fn from_value(
                value: $crate::json::Value<'a>,
                base: &'a str,
            ) -> ::core::result::Result<Self, $crate::responses::DecodeError> {
                let $crate::json::Value::Object(o) = value else {
                    return Err($crate::dialect::wrong_type(base, &value));
                };
                // The type is nearly always the first member: then decode the
                // rest in the same walk; else look it up and walk again.
                let mut members = o.members();
                let ty = match members.next() {
                    Some((k, $crate::json::Value::String(ty))) if k == "type" => {
                        Some((ty, members))
                    }
                    _ => match o.get("type") {
                        Some($crate::json::Value::String(ty)) => Some((ty, o.members())),
                        _ => None,
                    },
                };
                let Some((ty, members)) = ty else {
                    return Ok(Self::Other {
                        ty: $crate::json::JsonStr::default(),
                        raw: o.as_raw_json(),
                    });
                };
                match ty.as_str() {
                    $(
                        Some($ty) => $view::decode_members(members.map(Ok), base, o.as_raw_json().get(), None)
                            .map(Self::$variant),
                    )*
                    _ => Ok(Self::Other { ty, raw: o.as_raw_json() }),
                }
            }
            #[inline]
            fn field_value(&self) -> $crate::responses::FieldValue<'a, '_> {
                $crate::responses::FieldValue::Object(self)
            }
        }

        impl<'a> $crate::responses::Fields<'a> for $name<'a> {
            fn field_names(&self) -> &'static [&'static str] {
                match self {
                    $( Self::$variant(v) => $crate::responses::Fields::field_names(v), )*
                    Self::Other { .. } => &[],
                }
            }
            fn for_each_field(
                &self,
                f: &mut dyn FnMut(&'static str, $crate::responses::FieldValue<'a, '_>),
            ) {
                match self {
                    $(
                        Self::$variant(v) => {
                            f("type", $crate::responses::FieldValue::Str(
                                $crate::json::JsonStr::new(concat!("\"", $ty, "\""), false),
                            ));
                            $crate::responses::Fields::for_each_field(v, f);
                        }
                    )*
                    Self::Other { ty, .. } => {
                        if !ty.is_empty() {
                            f("type", $crate::responses::FieldValue::Str(*ty));
                        }
                    }
                }
            }
        }
    };
}
