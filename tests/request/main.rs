//! Request translation between the four dialects (feature `request`).
mod errors;
mod fixtures;
mod limits;
mod matrix;
mod props;
mod sdk;
mod support;
