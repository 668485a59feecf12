//! `config!`: one declaration per configuration type, from which the
//! struct, its `DEFAULT` constant, one `const fn with_<field>` builder per
//! field and `Default` are generated, so that every limits type of the
//! crate (`ResponsesAccumulatorConfig` and its siblings, `OrderConfig`, `LintConfig`)
//! reads and is built the same way as `ParserConfig`:
//!
//! ```text
//! config! {
//!     /// docs
//!     pub struct OrderConfig {
//!         /// docs
//!         max_items: usize = 4096, with_max_items;
//!     }
//! }
//! ```
//!
//! The struct is `Copy`, `Eq` and `#[non_exhaustive]`, with public fields:
//! set a field of `DEFAULT` (or of `default()`), or chain the builders.

macro_rules! config {
    (
        $(#[$meta:meta])*
        pub struct $name:ident {
            $( $(#[$fmeta:meta])* $field:ident : $ty:ty = $default:expr, $with:ident; )*
        }
    ) => {
        $(#[$meta])*
        #[derive(Debug, Clone, Copy, PartialEq, Eq)]
        #[non_exhaustive]
        pub struct $name {
            $( $(#[$fmeta])* pub $field: $ty, )*
        }

        impl $name {
            /// Every field at its default.
            pub const DEFAULT: Self = Self { $( $field: $default, )* };

            $(
                #[doc = concat!(
                    "This configuration with another [`", stringify!($field),
                    "`](Self::", stringify!($field), ")."
                )]
                #[must_use]
                pub const fn $with(mut self, value: $ty) -> Self {
                    self.$field = value;
                    self
                }
            )*
        }

        impl Default for $name {
            fn default() -> Self {
                Self::DEFAULT
            }
        }
    };
}
