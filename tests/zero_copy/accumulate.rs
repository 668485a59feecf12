//! The Responses accumulator's allocations are amortised: a long run of
//! deltas (text with logprobs, function call arguments with their live
//! repair, reasoning summaries) costs O(log length) allocations, the
//! buffers growing geometrically, not one or more per delta; reading the
//! live state allocates nothing.
//!
//! A counting global allocator wraps the system one and counts only this
//! thread's allocations while `measure` runs; the events are decoded before.

use serde_json::json;
use ssekit::accumulate::ResponsesAccumulator;
use ssekit::responses::ResponsesEvent;

use crate::counting;
use counting::allocations;

const DELTAS: usize = 20_000;

/// Delta texts of 1 to 9 characters, with escapes and non-ASCII text.
fn piece(i: usize) -> String {
    let base = [
        "a", "bc \"q\"", "é\n", "🚀x", "defghi", "\\", "jk", "lmnop", "q",
    ];
    base[i % base.len()].to_owned()
}

/// Feeds `setup` unmeasured, then `deltas` measured: the allocations.
fn allocations_of_deltas(setup: &[String], deltas: &[String]) -> (ResponsesAccumulator, u64) {
    let setup: Vec<ResponsesEvent<'_>> = setup
        .iter()
        .map(|t| ResponsesEvent::parse(t).unwrap())
        .collect();
    let deltas: Vec<ResponsesEvent<'_>> = deltas
        .iter()
        .map(|t| ResponsesEvent::parse(t).unwrap())
        .collect();
    let mut acc = ResponsesAccumulator::new();
    for e in &setup {
        acc.feed(e).unwrap();
    }
    let ((), n) = allocations(|| {
        for e in &deltas {
            acc.feed(e).unwrap();
        }
    });
    (acc, n)
}

/// The bound: a handful of buffers, each doubling from a small size to the
/// final length, so about log2(length) growths each.
fn bound(buffers: u64, len: usize) -> u64 {
    buffers * (u64::from(usize::BITS - len.leading_zeros()) + 2)
}

#[test]
fn output_text_deltas_with_logprobs_allocate_amortised() {
    let setup = vec![
        json!({"type": "response.output_item.added", "output_index": 0, "sequence_number": 0,
            "item": {"type": "message", "id": "msg_1", "role": "assistant", "content": []}})
        .to_string(),
    ];
    let deltas: Vec<String> = (0..DELTAS)
        .map(|i| {
            json!({"type": "response.output_text.delta", "item_id": "msg_1", "output_index": 0,
                "content_index": 0, "delta": piece(i), "sequence_number": i + 1,
                "logprobs": [{"token": piece(i), "logprob": -0.5, "top_logprobs": []}]})
            .to_string()
        })
        .collect();
    let (acc, n) = allocations_of_deltas(&setup, &deltas);
    let text_len = acc.item(0).unwrap().part_text(0).unwrap().len();
    let want: String = (0..DELTAS).map(piece).collect();
    assert_eq!(acc.item(0).unwrap().part_text(0), Some(want.as_str()));
    // The first delta creates the part (one allocation for the parts list);
    // then the text and logprobs buffers grow geometrically.
    let limit = 1 + bound(2, text_len * 8);
    assert!(
        n <= limit,
        "{n} allocations for {DELTAS} deltas (limit {limit})"
    );
    eprintln!("output_text.delta with logprobs: {n} allocations for {DELTAS} deltas");

    // Reading the live state allocates nothing.
    let (len, n) = allocations(|| {
        let it = acc.item(0).unwrap();
        it.part_text(0).map_or(0, str::len) + it.text().len() + acc.items().len()
    });
    assert_eq!(n, 0);
    assert!(len > 0);
}

#[test]
fn function_call_argument_deltas_allocate_amortised() {
    let setup = vec![
        json!({"type": "response.output_item.added", "output_index": 0,
            "item": {"type": "function_call", "id": "fc_1", "call_id": "c", "name": "f", "arguments": ""}})
        .to_string(),
    ];
    // One long JSON string value, cut into deltas.
    let mut args = String::from("{\"text\": \"");
    let mut deltas = vec![args.clone()];
    for i in 0..DELTAS {
        let p = piece(i)
            .replace('\\', "\\\\")
            .replace('"', "\\\"")
            .replace('\n', "\\n");
        args.push_str(&p);
        deltas.push(p);
    }
    deltas.push("\"}".into());
    args.push_str("\"}");
    let events: Vec<String> = deltas
        .iter()
        .map(|d| {
            json!({"type": "response.function_call_arguments.delta", "item_id": "fc_1",
                "output_index": 0, "delta": d})
            .to_string()
        })
        .collect();
    let (acc, n) = allocations_of_deltas(&setup, &events);
    let it = acc.item(0).unwrap();
    assert_eq!(it.arguments(), Some(args.as_str()));
    assert_eq!(it.partial_arguments(), Ok(Some(args.as_str())));
    // The arguments and the repair's two buffers.
    let limit = bound(3, args.len());
    assert!(
        n <= limit,
        "{n} allocations for {} deltas (limit {limit})",
        events.len()
    );
    eprintln!(
        "function_call_arguments.delta: {n} allocations for {} deltas",
        events.len()
    );
    let (_, n) = allocations(|| {
        acc.item(0)
            .unwrap()
            .partial_arguments()
            .map(|p| p.map(str::len))
    });
    assert_eq!(n, 0);
}

#[test]
fn reasoning_summary_deltas_allocate_amortised() {
    let setup = vec![
        json!({"type": "response.output_item.added", "output_index": 0,
            "item": {"type": "reasoning", "id": "rs_1", "summary": []}})
        .to_string(),
    ];
    let deltas: Vec<String> = (0..DELTAS)
        .map(|i| {
            json!({"type": "response.reasoning_summary_text.delta", "item_id": "rs_1",
                "output_index": 0, "summary_index": 0, "delta": piece(i)})
            .to_string()
        })
        .collect();
    let (acc, n) = allocations_of_deltas(&setup, &deltas);
    let len = acc.item(0).unwrap().summary_text(0).unwrap().len();
    let limit = 1 + bound(1, len);
    assert!(
        n <= limit,
        "{n} allocations for {DELTAS} deltas (limit {limit})"
    );
}
