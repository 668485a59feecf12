//! A tiny Responses API server: it writes a stream with
//! `responses::writer::ResponsesWriter` (a reasoning summary, a function call and an
//! answer, with keep-alives and usage), serves it over HTTP on 127.0.0.1,
//! and reads it back once with reqwest through the `stream` adapter.
//!
//! ```sh
//! cargo run --example writer_server --features stream
//! ```
//!
//! It binds a port the system picks, serves one request and exits.

use std::convert::Infallible;
use std::time::Duration;

use futures::{stream, StreamExt};
use http_body_util::StreamBody;
use hyper::body::Frame as BodyFrame;
use hyper::server::conn::http1;
use hyper::service::service_fn;
use hyper::Response;
use hyper_util::rt::TokioIo;
use ssekit::adapters::SseStreamExt;
use ssekit::responses::writer::{ResponsesWriter, TokenUsage};
use ssekit::responses::ResponsesEvent;
use ssekit::Bytes;
use tokio::net::TcpListener;

/// What the "model" does, one step at a time.
#[derive(Clone, Copy)]
enum Step {
    Reasoning(&'static str),
    Summary(&'static str),
    Call(&'static str, &'static str, &'static str),
    Arguments(&'static str),
    Message(&'static str),
    Text(&'static str),
    KeepAlive,
    Done,
}

const SCRIPT: &[Step] = &[
    Step::Reasoning("rs_1"),
    Step::Summary("**Weather lookup**\n\n"),
    Step::Summary("The user asks about Paris; "),
    Step::Summary("call the tool."),
    Step::Call("fc_1", "call_1", "get_weather"),
    Step::Arguments("{\"city\":"),
    Step::Arguments("\"Paris\"}"),
    Step::KeepAlive,
    Step::Message("msg_1"),
    Step::Text("It is "),
    Step::Text("18 °C and \"sunny\" "),
    Step::Text("in Paris ☀️."),
    Step::Done,
];

/// Writes one step; returns the bytes to send.
fn write_step(w: &mut ResponsesWriter, step: Step) -> Bytes {
    let result = match step {
        Step::Reasoning(id) => w.start_reasoning(id),
        Step::Summary(text) => w.summary_delta(text),
        Step::Call(id, call_id, name) => w.start_function_call(id, call_id, name),
        Step::Arguments(text) => w.arguments_delta(text),
        Step::Message(id) => w.start_message(id),
        Step::Text(text) => w.text_delta(text),
        Step::KeepAlive => {
            w.keep_alive();
            Ok(())
        }
        Step::Done => {
            w.set_usage(TokenUsage::new(42, 57).with_reasoning_tokens(21));
            w.complete()
        }
    };
    result.expect("the script is a well-formed response");
    w.take()
}

/// The response body: one chunk per step, a few milliseconds apart.
fn body() -> StreamBody<impl futures::Stream<Item = Result<BodyFrame<Bytes>, Infallible>>> {
    let writer = ResponsesWriter::new("resp_example", "example-model", 1_767_225_600);
    StreamBody::new(stream::unfold(
        (writer, SCRIPT.iter()),
        |(mut writer, mut steps)| async move {
            let step = *steps.next()?;
            tokio::time::sleep(Duration::from_millis(5)).await;
            let chunk = write_step(&mut writer, step);
            Some((Ok(BodyFrame::data(chunk)), (writer, steps)))
        },
    ))
}

async fn serve_once(listener: TcpListener) {
    let (tcp, _) = listener.accept().await.expect("accept");
    let service = service_fn(|_req| async {
        Ok::<_, Infallible>(
            Response::builder()
                .header("content-type", "text/event-stream")
                .header("cache-control", "no-cache")
                .body(body())
                .unwrap(),
        )
    });
    let _ = http1::Builder::new()
        .serve_connection(TokioIo::new(tcp), service)
        .await;
}

async fn client(url: String) -> Result<(), Box<dyn std::error::Error>> {
    let response = reqwest::Client::builder()
        .no_proxy()
        .build()?
        .get(&url)
        .send()
        .await?
        .error_for_status()?;
    let mut frames = response.bytes_stream().sse_frames();
    while let Some(frame) = frames.next().await {
        let frame = frame?;
        let event = ResponsesEvent::from_frame(&frame)?;
        let seq = event.sequence_number().unwrap_or_default();
        match &event {
            ResponsesEvent::ReasoningSummaryTextDelta(d) => {
                println!("{seq:>3} {} {:?}", event.ty(), d.delta.unescape())
            }
            ResponsesEvent::FunctionCallArgumentsDelta(d) => {
                println!("{seq:>3} {} {:?}", event.ty(), d.delta.unescape())
            }
            ResponsesEvent::OutputTextDelta(d) => {
                println!("{seq:>3} {} {:?}", event.ty(), d.delta.unescape())
            }
            ResponsesEvent::ResponseCompleted(c) => {
                let response = c.response.get()?;
                let usage = response.usage.as_ref().and_then(|u| u.total_tokens);
                println!("{seq:>3} {} (total_tokens: {usage:?})", event.ty());
            }
            _ => println!("{seq:>3} {}", event.ty()),
        }
    }
    Ok(())
}

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()?;
    runtime.block_on(async {
        let listener = TcpListener::bind("127.0.0.1:0").await?;
        let url = format!("http://{}/v1/responses", listener.local_addr()?);
        let server = tokio::spawn(serve_once(listener));
        let result = tokio::time::timeout(Duration::from_secs(30), client(url)).await;
        server.abort();
        result.map_err(|_| "timed out")?
    })
}
