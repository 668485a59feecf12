//! The event views, one file per group of events.

mod calls;
mod lifecycle;
mod misc;
mod reasoning;
mod text;
mod tools;

pub use calls::*;
pub use lifecycle::*;
pub use misc::*;
pub use reasoning::*;
pub use text::*;
pub use tools::*;
