//! Load and faults on loopback, every loop bounded: concurrent streams,
//! memory per open stream, the latency the gateway adds per event, a slow
//! client, many clients that go away mid-stream.
//!
//! Small by default (CI); `SSEKIT_GATEWAY_LOAD=large` runs 1,000 concurrent
//! streams, 1,000 open streams for the memory figure, 2,000 timed events
//! and 10,000 disconnects:
//!
//! ```sh
//! SSEKIT_GATEWAY_LOAD=large cargo test --features request --test gateway load -- --nocapture
//! ```
//!
//! Memory is counted by the binary's global allocator (`alloc.rs`): heap
//! bytes live in the whole process, the scripted upstream and the clients
//! included, which is why the figure through the gateway is set against the
//! same streams read from the upstream directly. The binary's tests run one
//! at a time ([`crate::run`]) so that none counts another's memory.

use std::sync::OnceLock;
use std::time::{Duration, Instant};

use futures::StreamExt;
use serde_json::json;
use ssekit::turn::Dialect;
use ssekit::Bytes;
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::task::JoinSet;

use crate::upstream::{Script, Upstream};
use crate::{alloc, ask_body, client_request, gateway, http, run, wire};

fn large() -> bool {
    std::env::var("SSEKIT_GATEWAY_LOAD").as_deref() == Ok("large")
}

fn size(small: usize, large_size: usize) -> usize {
    if large() {
        large_size
    } else {
        small
    }
}

/// Microseconds since the first call (one clock for the whole process).
fn micros() -> u64 {
    static EPOCH: OnceLock<Instant> = OnceLock::new();
    EPOCH.get_or_init(Instant::now).elapsed().as_micros() as u64
}

/// A Chat chunk saying `text`.
fn chat_chunk(text: &str) -> Bytes {
    let c = json!({"id": "chatcmpl-l", "object": "chat.completion.chunk", "created": 1,
        "model": "m", "choices": [{"index": 0, "delta": {"content": text}}]});
    Bytes::from(format!("data: {c}\n\n"))
}

/// The end of a Chat stream.
fn chat_end() -> Bytes {
    let c = json!({"id": "chatcmpl-l", "object": "chat.completion.chunk", "created": 1,
        "model": "m", "choices": [{"index": 0, "delta": {}, "finish_reason": "stop"}]});
    Bytes::from(format!("data: {c}\n\ndata: [DONE]\n\n"))
}

fn percentile(sorted: &[u64], p: f64) -> u64 {
    if sorted.is_empty() {
        return 0;
    }
    let i = ((sorted.len() - 1) as f64 * p).round() as usize;
    sorted[i.min(sorted.len() - 1)]
}

#[test]
fn concurrent_streams_all_arrive_whole() {
    let n = size(100, 1000);
    let text = "The quick brown fox jumps over the lazy dog, twice: the quick brown fox.";
    run(Duration::from_secs(120), async move {
        let body = crate::faults::chat_text(text, 4);
        let upstream =
            Upstream::start(move |_| Script::events(&body, Duration::from_millis(2))).await;
        let gw = gateway(Dialect::Chat, &upstream.url, |_| {}).await;
        let client = http();
        let start = Instant::now();
        let mut set = JoinSet::new();
        for i in 0..n {
            let (client, gw) = (client.clone(), gw.clone());
            let dialect = Dialect::ALL[i % 4];
            set.spawn(async move {
                let r = client_request(&client, &gw, dialect, &ask_body(dialect, "hi", true), true)
                    .send()
                    .await
                    .expect("sent");
                assert_eq!(r.status(), 200);
                let bytes = crate::read_all(r, Duration::from_secs(60)).await;
                let got = wire::stream(dialect, &bytes);
                assert_eq!(got.error, None, "{dialect:?}");
                assert!(got.ended, "{dialect:?}");
                got.text
            });
        }
        let mut done = 0;
        while let Some(r) = set.join_next().await {
            assert_eq!(r.expect("a stream task"), text);
            done += 1;
        }
        assert_eq!(done, n);
        assert_eq!(
            upstream
                .shared
                .requests
                .load(std::sync::atomic::Ordering::SeqCst),
            n
        );
        eprintln!(
            "load: {n} concurrent streams (4 client dialects, Chat upstream, {} events each) in {:?}",
            crate::upstream::split_events(&crate::faults::chat_text(text, 4)).len(),
            start.elapsed()
        );
    });
}

/// Opens `m` streams at `url` (`dialect`), each held open after its first
/// bytes; returns the heap growth per stream, and what is left once they
/// are all dropped.
async fn open_streams(url: &str, dialect: Dialect, m: usize, upstream: &Upstream) -> (i64, i64) {
    let client = http();
    let base = alloc::live();
    let mut set = JoinSet::new();
    for _ in 0..m {
        let (client, url) = (client.clone(), url.to_owned());
        set.spawn(async move {
            let r = client_request(&client, &url, dialect, &ask_body(dialect, "hi", true), true)
                .send()
                .await
                .expect("sent");
            let mut body = r.bytes_stream();
            let first = tokio::time::timeout(Duration::from_secs(30), body.next())
                .await
                .expect("first bytes in time");
            assert!(first.is_some());
            body
        });
    }
    let mut held = Vec::with_capacity(m);
    while let Some(r) = set.join_next().await {
        held.push(r.expect("a stream task"));
    }
    tokio::time::sleep(Duration::from_millis(100)).await;
    let open = alloc::live();
    drop(held);
    assert!(
        upstream.wait_idle(Duration::from_secs(10)).await,
        "the streams closed"
    );
    tokio::time::sleep(Duration::from_millis(200)).await;
    drop(client);
    let left = alloc::live();
    ((open - base) / m as i64, left - base)
}

#[test]
fn memory_per_open_stream_and_none_left_after() {
    let m = size(100, 1000);
    run(Duration::from_secs(120), async move {
        let first = chat_chunk("Hello");
        let upstream = Upstream::start(move |_| Script::Stream {
            chunks: vec![first.clone()],
            gap: Duration::ZERO,
            stall: Some(Duration::from_secs(120)),
        })
        .await;
        let gw = gateway(Dialect::Chat, &upstream.url, |c| {
            c.keep_alive = Duration::from_secs(60);
            c.idle_timeout = Duration::from_secs(120);
        })
        .await;
        // Warm up both paths (lazy statics, pools).
        open_streams(&upstream.url, Dialect::Chat, 4, &upstream).await;
        open_streams(&gw, Dialect::Responses, 4, &upstream).await;
        let (direct, direct_left) = open_streams(&upstream.url, Dialect::Chat, m, &upstream).await;
        let (through, through_left) = open_streams(&gw, Dialect::Responses, m, &upstream).await;
        let gateway_share = through - direct;
        eprintln!(
            "load: {m} open streams: {through} B/stream through the gateway (Chat → Responses), \
             {direct} B/stream read directly, so the gateway's share is {gateway_share} B/stream; \
             left after closing: {through_left} B (direct: {direct_left} B)"
        );
        assert!(
            gateway_share < 256 << 10,
            "{gateway_share} B per open stream in the gateway"
        );
        assert!(
            through_left < (1 << 20) + m as i64 * 512,
            "{through_left} B left after {m} streams closed"
        );
    });
}

#[test]
fn latency_the_gateway_adds_per_event() {
    let k = size(200, 2000) as u64;
    run(Duration::from_secs(120), async move {
        let upstream = Upstream::start(move |_| Script::Endless {
            make: Box::new(move |i| match i {
                i if i < k => Some(chat_chunk(&format!("T{};", micros()))),
                i if i == k => Some(chat_end()),
                _ => None,
            }),
            gap: Duration::from_millis(3),
        })
        .await;
        let gw = gateway(Dialect::Chat, &upstream.url, |_| {}).await;
        let direct = latencies(&upstream.url, Dialect::Chat).await;
        let through = latencies(&gw, Dialect::Responses).await;
        let through_anthropic = latencies(&gw, Dialect::Anthropic).await;
        for l in [&direct, &through, &through_anthropic] {
            assert_eq!(l.len() as u64, k, "every timed event arrived");
        }
        let (d50, d99) = (percentile(&direct, 0.5), percentile(&direct, 0.99));
        let (g50, g99) = (percentile(&through, 0.5), percentile(&through, 0.99));
        let (a50, a99) = (
            percentile(&through_anthropic, 0.5),
            percentile(&through_anthropic, 0.99),
        );
        eprintln!(
            "load: latency per event over {k} events, µs from the upstream's write to the \
             client's read: direct p50 {d50} p99 {d99}; through the gateway (Chat → Responses) \
             p50 {g50} p99 {g99}, added p50 {} p99 {}; (Chat → Anthropic) p50 {a50} p99 {a99}",
            g50.saturating_sub(d50),
            g99.saturating_sub(d99),
        );
        // Loose bounds: a debug build on a shared machine.
        assert!(g50 < d50 + 20_000, "added p50 {} µs", g50 - d50);
        assert!(g99 < 500_000, "p99 {g99} µs");
    });
}

/// Reads one stream from `url` as a `dialect` client; returns, sorted, the
/// time each `T{micros};` stamp took from the upstream to this client.
async fn latencies(url: &str, dialect: Dialect) -> Vec<u64> {
    let r = client_request(&http(), url, dialect, &ask_body(dialect, "hi", true), true)
        .send()
        .await
        .expect("sent");
    let mut body = r.bytes_stream();
    let mut out = Vec::new();
    // A Responses or Anthropic client also gets the whole text again at the
    // end (done events, the final response): each stamp counts once, at its
    // first arrival.
    let mut stamps = std::collections::HashSet::new();
    let mut carry = Vec::new();
    while let Some(chunk) = tokio::time::timeout(Duration::from_secs(30), body.next())
        .await
        .expect("timely")
    {
        let now = micros();
        carry.extend_from_slice(&chunk.expect("chunk"));
        // Stamps are `T<digits>;`; a stamp cut between chunks waits for
        // the rest (and is timed at the later chunk, as the client sees it).
        let mut i = 0;
        let mut keep_from = 0;
        while i < carry.len() {
            if carry[i] == b'T' {
                let digits = carry[i + 1..]
                    .iter()
                    .take_while(|b| b.is_ascii_digit())
                    .count();
                match carry.get(i + 1 + digits) {
                    Some(b';') if digits > 0 => {
                        let s = std::str::from_utf8(&carry[i + 1..i + 1 + digits]).expect("digits");
                        let sent: u64 = s.parse().expect("a stamp");
                        if stamps.insert(sent) {
                            out.push(now.saturating_sub(sent));
                        }
                        i += digits + 2;
                        keep_from = i;
                        continue;
                    }
                    None => {
                        keep_from = i;
                        break;
                    }
                    _ => {}
                }
            }
            i += 1;
            keep_from = i;
        }
        carry.drain(..keep_from.min(carry.len()));
    }
    out.sort_unstable();
    out
}

#[test]
fn a_slow_client_holds_the_upstream_back() {
    // 8 KiB of text per event, 64 MiB offered in all.
    let piece = "x".repeat(8 << 10);
    let events = (64 << 20) / piece.len() as u64;
    run(Duration::from_secs(60), async move {
        let chunk = chat_chunk(&piece);
        let upstream = Upstream::start(move |_| {
            let chunk = chunk.clone();
            Script::Endless {
                make: Box::new(move |i| match i {
                    i if i < events => Some(chunk.clone()),
                    i if i == events => Some(chat_end()),
                    _ => None,
                }),
                gap: Duration::ZERO,
            }
        })
        .await;
        let gw = gateway(Dialect::Chat, &upstream.url, |c| {
            c.keep_alive = Duration::from_secs(30);
            c.idle_timeout = Duration::from_secs(60);
        })
        .await;
        let addr = gw.trim_start_matches("http://").parse().expect("address");
        let socket = tokio::net::TcpSocket::new_v4().expect("socket");
        socket.set_recv_buffer_size(16 << 10).expect("SO_RCVBUF");
        let mut conn = socket.connect(addr).await.expect("connect");
        let body = ask_body(Dialect::Responses, "hi", true).to_string();
        let request = format!(
            "POST /v1/responses HTTP/1.1\r\nhost: gateway\r\ncontent-type: application/json\r\n\
             content-length: {}\r\nconnection: close\r\n\r\n{body}",
            body.len()
        );
        conn.write_all(request.as_bytes()).await.expect("request");
        let mut buf = vec![0u8; 16 << 10];
        let mut received = 0u64;
        read_until(&mut conn, &mut buf, &mut received, 256 << 10)
            .await
            .expect("the first 256 KiB in time");
        let heap_reading = alloc::live();
        // The client stops reading: the upstream must stop too.
        tokio::time::sleep(Duration::from_millis(1000)).await;
        let sent_1 = upstream.sent();
        let heap_1 = alloc::live();
        tokio::time::sleep(Duration::from_millis(1000)).await;
        let sent_2 = upstream.sent();
        let heap_paused = alloc::live();
        let offered = events * chat_chunk(&piece).len() as u64;
        eprintln!(
            "load: slow client: received {received} B, the upstream had sent {sent_2} B of \
             {offered} B (in flight, in socket buffers: {} B); it sent {} B in the last second \
             of the pause; heap change in the pause's first second {} B, in its last second {} B",
            sent_2 - received,
            sent_2 - sent_1,
            heap_1 - heap_reading,
            heap_paused - heap_1
        );
        assert!(sent_2 - sent_1 < 256 << 10, "the upstream kept sending");
        assert!(
            sent_2 < offered / 2,
            "the upstream was read far ahead of the client"
        );
        assert!(
            (heap_paused - heap_1).abs() < 256 << 10,
            "the heap grew while the client did not read"
        );
        assert!(
            heap_paused - heap_reading < 16 << 20,
            "the heap holds what the client did not read"
        );
        // The client reads again: the upstream goes on.
        read_until(&mut conn, &mut buf, &mut received, sent_2 + (4 << 20))
            .await
            .expect("more in time");
        assert!(upstream.sent() > sent_2, "the upstream resumed");
        drop(conn);
        assert!(upstream.wait_idle(Duration::from_secs(5)).await, "released");
    });
}

#[test]
fn many_clients_that_go_away_leave_nothing_behind() {
    let d = size(400, 10_000);
    let batch = 100;
    run(Duration::from_secs(120), async move {
        let upstream = Upstream::start(|_| Script::Endless {
            make: Box::new(|i| Some(chat_chunk(&format!("{i} ")))),
            gap: Duration::from_millis(1),
        })
        .await;
        let gw = gateway(Dialect::Chat, &upstream.url, |_| {}).await;
        let client = http();
        let metrics = tokio::runtime::Handle::current().metrics();
        // One stream first, so that lazy statics are not counted.
        one_and_leave(&client, &gw, Dialect::Responses).await;
        assert!(upstream.wait_idle(Duration::from_secs(5)).await);
        tokio::time::sleep(Duration::from_millis(200)).await;
        let tasks_before = metrics.num_alive_tasks();
        let heap_before = alloc::live();
        let start = Instant::now();
        let mut worst_release = Duration::ZERO;
        let batches = d.div_ceil(batch);
        let mut heap_mid = heap_before;
        for b in 0..batches {
            if b == batches / 2 {
                heap_mid = alloc::live();
            }
            let mut set = JoinSet::new();
            for i in 0..batch.min(d - b * batch) {
                let (client, gw) = (client.clone(), gw.clone());
                set.spawn(async move { one_and_leave(&client, &gw, Dialect::ALL[i % 4]).await });
            }
            while let Some(r) = set.join_next().await {
                r.expect("a stream task");
            }
            let left = Instant::now();
            assert!(
                upstream.wait_idle(Duration::from_secs(5)).await,
                "batch {b}: the upstream bodies were dropped"
            );
            worst_release = worst_release.max(left.elapsed());
        }
        let took = start.elapsed();
        // Connections and tasks wind down; wait for them, bounded.
        let settle = Instant::now();
        while (upstream.connections() > 0 || metrics.num_alive_tasks() > tasks_before)
            && settle.elapsed() < Duration::from_secs(5)
        {
            tokio::time::sleep(Duration::from_millis(20)).await;
        }
        let heap_after = alloc::live();
        eprintln!(
            "load: {d} clients left mid-stream in {took:?}; slowest release of a batch's \
             upstream bodies {worst_release:?}; afterwards {} upstream connections, {} live \
             bodies, tasks {} (before {tasks_before}), heap {} B more than before (of which \
             {} B during the second half)",
            upstream.connections(),
            upstream.live(),
            metrics.num_alive_tasks(),
            heap_after - heap_before,
            heap_after - heap_mid
        );
        assert_eq!(upstream.live(), 0);
        assert_eq!(upstream.connections(), 0, "upstream connections left open");
        assert!(
            metrics.num_alive_tasks() <= tasks_before,
            "tasks left behind"
        );
        // Pools and slabs grow to the peak concurrency once and stay; what
        // grows with the number of streams is a leak.
        assert!(heap_after - heap_before < 4 << 20, "heap left behind");
        assert!(
            heap_after - heap_mid < 256 << 10,
            "the heap grows with the streams"
        );
    });
}

/// Opens a stream, reads a few hundred bytes, goes away.
async fn one_and_leave(client: &reqwest::Client, gw: &str, dialect: Dialect) {
    let r = client_request(client, gw, dialect, &ask_body(dialect, "hi", true), true)
        .send()
        .await
        .expect("sent");
    let mut body = r.bytes_stream();
    let mut got = 0;
    while got < 400 {
        let chunk = tokio::time::timeout(Duration::from_secs(10), body.next())
            .await
            .expect("timely")
            .expect("more")
            .expect("chunk");
        got += chunk.len();
    }
}

/// Reads `conn` until `received` reaches `goal`, within 30 s.
async fn read_until(
    conn: &mut tokio::net::TcpStream,
    buf: &mut [u8],
    received: &mut u64,
    goal: u64,
) -> Result<(), tokio::time::error::Elapsed> {
    tokio::time::timeout(Duration::from_secs(30), async {
        while *received < goal {
            let n = conn.read(buf).await.expect("read");
            assert!(n > 0, "the stream ended early");
            *received += n as u64;
        }
    })
    .await
}
