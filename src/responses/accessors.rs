//! Generic accessors of [`ResponseEvent`]: the correlation keys that many
//! event types share (`item_id`, `output_index`, `content_index`,
//! `summary_index`), without matching on every variant.

use super::ResponseEvent;
use crate::json::JsonStr;

impl<'a> ResponseEvent<'a> {
    /// The event's `item_id`, for the event types that carry one (deltas,
    /// `*.done`, content and summary parts, tool call progress).
    ///
    /// `None` for the other types, including `output_item.added` / `.done`
    /// (whose item has its own `id`) and unknown events.
    ///
    /// ```
    /// use ssekit::responses::ResponseEvent;
    ///
    /// let event = ResponseEvent::parse(
    ///     r#"{"type":"response.output_text.delta","item_id":"msg_1","output_index":2,"content_index":0,"delta":"Hi"}"#,
    /// )?;
    /// assert_eq!(event.item_id().and_then(|id| id.as_str()), Some("msg_1"));
    /// assert_eq!(event.output_index(), Some(2));
    /// assert_eq!(event.content_index(), Some(0));
    /// assert_eq!(event.summary_index(), None);
    /// # Ok::<(), ssekit::responses::DecodeError>(())
    /// ```
    pub fn item_id(&self) -> Option<JsonStr<'a>> {
        match self {
            Self::CompactionCompacting(v) => Some(v.item_id),
            _ => None,
        }
    }

    /// The event's `output_index`: the position of the output item it is
    /// about. `None` for lifecycle events, `error`, transport events and
    /// unknown events.
    pub fn output_index(&self) -> Option<u64> {
        match self {
            Self::CompactionCompacting(v) => Some(v.output_index),
            _ => None,
        }
    }

    /// The event's `content_index`: the position of the content part (of a
    /// message, or of a reasoning item's `content`) it is about.
    pub fn content_index(&self) -> Option<u64> {
        match self {
            Self::LegacyReasoningDone(v) => Some(v.content_index),
            _ => None,
        }
    }

    /// The event's `summary_index`: the position of the reasoning summary
    /// part it is about.
    pub fn summary_index(&self) -> Option<u64> {
        match self {
            Self::LegacyReasoningSummaryDone(v) => Some(v.summary_index),
            _ => None,
        }
    }
}
