//! The final response of a stream, rebuilt from its events: one accumulator
//! per dialect, each giving the response in its API's own shape.
//!
//! * [`ResponsesAccumulator`]: the events of a Responses API stream → a
//!   [`FinalResponse`] in the API's Response shape ([`JsonValue`]), with
//!   live snapshots while it streams.
//! * [`ChatAccumulator`], [`AnthropicAccumulator`], [`GeminiAccumulator`]: the
//!   same for Chat Completions, Anthropic Messages and Gemini.
//! * [`TurnAccumulator`]: any dialect's stream, read into the model of a
//!   turn by the dialect's [`TurnReader`](crate::turn::TurnReader), → a
//!   [`FinalTurn`](crate::turn::FinalTurn), rendered in any dialect's
//!   non-streaming shape.

mod responses;
mod value;

pub mod anthropic;
pub mod chat;
mod dialect;
mod error;
pub mod gemini;
mod turn;
pub use anthropic::{AnthropicAccumulator, AnthropicAccumulatorConfig};
pub use chat::{ChatAccumulator, ChatAccumulatorConfig};
pub use dialect::IndexOrder;
pub use error::{AccumulateError, AccumulateErrorKind, Outcome};
pub use gemini::{GeminiAccumulator, GeminiAccumulatorConfig, DEFAULT_MAX_CANDIDATES};
pub use responses::{
    Anomaly, AnomalyKind, FinalResponse, ItemSnapshot, ResponsesAccumulator,
    ResponsesAccumulatorConfig, SequenceInfo,
};
pub use turn::{TurnAccumulator, TurnAccumulatorConfig};
pub use value::JsonValue;
