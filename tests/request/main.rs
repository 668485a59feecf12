//! Request translation between the four dialects (feature `request`).

mod fixtures;

mod matrix;
mod support;
