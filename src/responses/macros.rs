//! `event_view!`: a Responses event view. The struct, its description for
//! the generic decoder and its visitor come from the shared `view!` (see
//! `views/macros.rs`); on top, an event
//! view has a `TYPE` constant, a `to_owned()` that keeps the whole event as
//! an [`OwnedResponsesEvent`](super::OwnedResponsesEvent), and (feature
//! `serde`) a `Deserialize` that checks its `type`. It does not decode as a
//! nested field.
//!
//! ```text
//! event_view! {
//!     /// docs
//!     pub struct OutputTextDelta<'a> = "response.output_text.delta" {
//!         /// docs
//!         item_id: req JsonStr<'a>,
//!         logprobs: opt Logprobs<'a>,
//!     }
//! }
//! ```

/// A view's field as one of the members `accessors.rs` reads generically
/// (the correlation keys, the delta text, the item and response objects),
/// or nothing for the other fields.
macro_rules! event_key {
    (item_id, $keys:ident, $v:expr) => {
        $crate::responses::accessors::Keys {
            item_id: Some($v),
            ..$keys
        }
    };
    (output_index, $keys:ident, $v:expr) => {
        $crate::responses::accessors::Keys {
            output_index: Some($v),
            ..$keys
        }
    };
    (content_index, $keys:ident, $v:expr) => {
        $crate::responses::accessors::Keys {
            content_index: Some($v),
            ..$keys
        }
    };
    (summary_index, $keys:ident, $v:expr) => {
        $crate::responses::accessors::Keys {
            summary_index: Some($v),
            ..$keys
        }
    };
    (command_index, $keys:ident, $v:expr) => {
        $crate::responses::accessors::Keys {
            command_index: Some($v),
            ..$keys
        }
    };
    (delta, $keys:ident, $v:expr) => {
        $crate::responses::accessors::Keys {
            delta: $crate::responses::accessors::Text::text(&$v),
            ..$keys
        }
    };
    (item, $keys:ident, $v:expr) => {
        $crate::responses::accessors::Keys {
            item: Some($v.object()),
            ..$keys
        }
    };
    (response, $keys:ident, $v:expr) => {
        $crate::responses::accessors::Keys {
            response: Some($v.object()),
            ..$keys
        }
    };
    ($other:ident, $keys:ident, $v:expr) => {
        $keys
    };
}

macro_rules! event_view {
    (
        $(#[$meta:meta])*
        pub struct $name:ident<'a> = $ty:literal {
            $( $(#[$fmeta:meta])* $field:ident $([$key:literal])? : $kind:ident $fty:ty ),* $(,)?
        }
    ) => {
        view! { @struct $(#[$meta])* $name<'a> { $( $(#[$fmeta])* $field $([$key])? : $kind $fty ),* } }

        impl<'a> $name<'a> {
            /// The event type this view decodes.
            pub const TYPE: &'static str = $ty;

            /// Copies the event's JSON text into an
            /// [`OwnedResponsesEvent`]($crate::responses::OwnedResponsesEvent)
            /// that outlives the input.
            pub fn to_owned(&self) -> $crate::responses::OwnedResponsesEvent {
                $crate::responses::OwnedResponsesEvent::from_parts(self.__src.0.get(), $ty)
            }

            /// The correlation keys among the fields (see `accessors.rs`).
            #[inline]
            pub(crate) fn keys(&self) -> $crate::responses::accessors::Keys<'a> {
                let keys = $crate::responses::accessors::Keys::NONE;
                $( let keys = event_key!($field, keys, self.$field); )*
                keys
            }

            /// Decodes the [`Lazy`]($crate::views::Lazy) fields (a no-op
            /// for the others).
            #[inline]
            pub(crate) fn check_fields(&self) -> ::core::result::Result<(), $crate::views::DecodeError> {
                $crate::views::decode::check_fields(self)
            }
        }

        #[cfg(feature = "serde")]
        impl<'de: 'a, 'a> ::serde::Deserialize<'de> for $name<'a> {
            /// Decodes the event from its raw JSON text (see the module docs);
            /// its `type`, if present, must be this view's.
            fn deserialize<D: ::serde::Deserializer<'de>>(d: D) -> ::core::result::Result<Self, D::Error> {
                $crate::views::serde::deserialize_borrowed(d, |raw: &'de str| {
                    let text = $crate::views::trim_json_ws(raw);
                    $crate::views::decode::decode($crate::json::ObjectScanner::new(raw), raw, Some(text), Some($ty))
                        .map_err(|e| e.with_event_type($ty))
                })
            }
        }
    };
}
