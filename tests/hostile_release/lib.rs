//! Empty: this package only exists to build `../hostile.rs` in release with
//! ssekit's own dependencies and none of its dev-dependencies.
