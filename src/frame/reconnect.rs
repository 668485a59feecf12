//! [`Reconnect`]: when to reconnect to a stream that broke off, and what
//! `Last-Event-ID` to send. Sans-IO: it reads no clock and sleeps not.

use alloc::string::String;
use core::time::Duration;

use super::Parser;

/// A reconnection policy: the delay before each new attempt, and the
/// `Last-Event-ID` to send with it.
///
/// It keeps what a client must carry from one connection to the next — the
/// last event ID and the server's `retry` time, taken from the parser with
/// [`observe`](Self::observe) — and computes delays: the server's `retry`
/// time if it sent one (else [`with_initial_delay`](Self::with_initial_delay),
/// 1 s by default), doubled for each attempt that failed in a row, capped
/// at [`with_max_delay`](Self::with_max_delay) (30 s by default), with
/// "equal jitter": a random delay between half of that and all of it, so
/// that clients cut off together do not come back together.
///
/// The randomness is a caller's choice: [`next_delay_with`](Self::next_delay_with)
/// takes a random `u64` from any source; [`next_delay`](Self::next_delay)
/// draws from a small deterministic generator seeded by
/// [`with_seed`](Self::with_seed) (give each client its own seed: a
/// process id, a clock reading, a random number).
///
/// It does no I/O: the caller sleeps for the delay (with its runtime's
/// timer), connects with [`last_event_id_header`](Self::last_event_id_header),
/// starts a new parser with [`parser`](Self::parser), and decides when to
/// give up ([`attempts`](Self::attempts) counts the failures in a row).
///
/// # Example
///
/// ```
/// use core::time::Duration;
/// use ssekit::{Bytes, Reconnect};
///
/// let mut policy = Reconnect::new().with_seed(7);
///
/// // The first connection: the server sets `retry` and ids, then the connection drops.
/// let mut parser = policy.parser();
/// parser.feed(Bytes::from("retry: 200\nid: 5\ndata: a\n\ndata: cut of"));
/// while parser.next_frame()?.is_some() {}
/// policy.observe(&parser);
///
/// assert_eq!(policy.last_event_id_header(), Some("5")); // send as `Last-Event-ID`
/// let delay = policy.next_delay(); // the server's 200 ms, jittered
/// assert!(delay >= Duration::from_millis(100) && delay <= Duration::from_millis(200));
/// let delay = policy.next_delay(); // a second failure in a row: doubled
/// assert!(delay >= Duration::from_millis(200) && delay <= Duration::from_millis(400));
///
/// // The next connection's parser starts from the last event ID.
/// assert_eq!(policy.parser().last_event_id(), "5");
/// # Ok::<(), ssekit::FrameError>(())
/// ```
#[derive(Debug, Clone)]
pub struct Reconnect {
    initial: Duration,
    max: Duration,
    retry: Option<Duration>,
    attempts: u32,
    last_event_id: String,
    rng: u64,
}

impl Default for Reconnect {
    fn default() -> Self {
        Self::new()
    }
}

impl Reconnect {
    /// A policy with a 1 s initial delay, a 30 s cap, no last event ID, and
    /// the generator seeded with 0 (see [`with_seed`](Self::with_seed)).
    pub fn new() -> Self {
        Self {
            initial: Duration::from_secs(1),
            max: Duration::from_secs(30),
            retry: None,
            attempts: 0,
            last_event_id: String::new(),
            rng: 0,
        }
    }

    /// The delay before the first attempt when the server sent no `retry`.
    #[must_use]
    pub fn with_initial_delay(mut self, delay: Duration) -> Self {
        self.initial = delay;
        self
    }

    /// The longest delay, however many attempts failed (and whatever
    /// `retry` the server asks for).
    #[must_use]
    pub fn with_max_delay(mut self, delay: Duration) -> Self {
        self.max = delay;
        self
    }

    /// Seeds the generator of [`next_delay`](Self::next_delay): the same
    /// seed gives the same delays.
    #[must_use]
    pub fn with_seed(mut self, seed: u64) -> Self {
        self.rng = seed;
        self
    }

    /// Starts from a known last event ID (one kept from an earlier run).
    #[must_use]
    pub fn with_last_event_id(mut self, id: &str) -> Self {
        self.last_event_id = String::from(id);
        self
    }

    /// Takes the last event ID and the `retry` time from the parser of the
    /// connection that ended. If the last event ID changed, the connection
    /// made progress: the count of failed attempts starts again from 0.
    pub fn observe(&mut self, parser: &Parser) {
        if let Some(ms) = parser.reconnection_time() {
            self.retry = Some(Duration::from_millis(ms));
        }
        let id = parser.last_event_id();
        if id != self.last_event_id {
            self.last_event_id.clear();
            self.last_event_id.push_str(id);
            self.attempts = 0;
        }
    }

    /// Says that a connection made progress (it delivered events), for
    /// streams without ids: the count of failed attempts starts again.
    pub fn reset_backoff(&mut self) {
        self.attempts = 0;
    }

    /// The number of attempts that failed in a row: the calls of
    /// [`next_delay`](Self::next_delay) since the last progress.
    pub fn attempts(&self) -> u32 {
        self.attempts
    }

    /// The server's reconnection time, if it sent a `retry` field.
    pub fn retry(&self) -> Option<Duration> {
        self.retry
    }

    /// The last event ID (`""` if none).
    pub fn last_event_id(&self) -> &str {
        &self.last_event_id
    }

    /// The value of the `Last-Event-ID` header to send, or `None` when
    /// there is none to send: no last event ID, or one that a header cannot
    /// carry (control characters other than tab). The HTML standard sends
    /// the header only when the ID is not empty.
    pub fn last_event_id_header(&self) -> Option<&str> {
        let id = self.last_event_id.as_str();
        let ok = !id.is_empty() && id.bytes().all(|b| b == b'\t' || (b >= 0x20 && b != 0x7f));
        ok.then_some(id)
    }

    /// A new parser for the next connection, started from the last event ID.
    pub fn parser(&self) -> Parser {
        Parser::new().with_last_event_id(&self.last_event_id)
    }

    /// The delay before the next attempt, jittered with the policy's own
    /// generator (see [`with_seed`](Self::with_seed)); counts the attempt.
    pub fn next_delay(&mut self) -> Duration {
        let random = splitmix64(&mut self.rng);
        self.next_delay_with(random)
    }

    /// The delay before the next attempt, jittered with `random` (any `u64`
    /// from the caller's source of randomness); counts the attempt.
    ///
    /// The delay is `d/2 + random % (d/2 + 1)` in milliseconds, where `d`
    /// is the base delay (`retry`, else the initial delay; at least 1 ms)
    /// doubled once for each earlier attempt of this run, capped at the
    /// maximum delay.
    pub fn next_delay_with(&mut self, random: u64) -> Duration {
        let base = self.retry.unwrap_or(self.initial).min(self.max);
        let cap = u64::try_from(self.max.as_millis()).unwrap_or(u64::MAX);
        // At least 1 ms, so that `retry: 0` still backs off when attempts fail.
        let base = u64::try_from(base.as_millis()).unwrap_or(u64::MAX).max(1);
        let doubled = base
            .checked_shl(self.attempts.min(63))
            .filter(|d| d >> self.attempts.min(63) == base)
            .unwrap_or(u64::MAX);
        let d = doubled.min(cap);
        self.attempts = self.attempts.saturating_add(1);
        let half = d / 2;
        Duration::from_millis(half + random % (d - half + 1))
    }
}

/// One step of splitmix64: a small, fast generator, good enough for jitter.
fn splitmix64(state: &mut u64) -> u64 {
    *state = state.wrapping_add(0x9E37_79B9_7F4A_7C15);
    let mut z = *state;
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

#[cfg(test)]
mod tests {
    use super::*;
    use bytes::Bytes;

    fn ms(n: u64) -> Duration {
        Duration::from_millis(n)
    }

    #[test]
    fn delays_double_to_the_cap_within_their_jitter() {
        let mut p = Reconnect::new()
            .with_initial_delay(ms(100))
            .with_max_delay(ms(1000));
        // `random` 0 gives the low end of each range: half the delay.
        let lows: alloc::vec::Vec<_> = (0..6).map(|_| p.next_delay_with(0)).collect();
        assert_eq!(lows, [ms(50), ms(100), ms(200), ms(400), ms(500), ms(500)]);
        assert_eq!(p.attempts(), 6);
        p.reset_backoff();
        // The top of the range: d/2 + (d - d/2) = d.
        assert_eq!(p.next_delay_with(50), ms(100));
        assert_eq!(p.next_delay_with(100), ms(200));
    }

    #[test]
    fn no_overflow_after_many_attempts_or_with_huge_delays() {
        let mut p = Reconnect::new().with_max_delay(Duration::MAX);
        for _ in 0..200 {
            let _ = p.next_delay_with(u64::MAX);
        }
        assert_eq!(p.attempts(), 200);
        let d = p.next_delay_with(0);
        assert_eq!(d, ms(u64::MAX / 2));
    }

    #[test]
    fn the_servers_retry_is_the_base_and_progress_resets_the_count() {
        let mut p = Reconnect::new().with_seed(1);
        let mut parser = p.parser();
        parser.feed(Bytes::from("retry: 40\nid: a\ndata: x\n\n"));
        while parser.next_frame().unwrap().is_some() {}
        let _ = p.next_delay();
        let _ = p.next_delay();
        assert_eq!(p.attempts(), 2);
        p.observe(&parser);
        assert_eq!((p.retry(), p.attempts()), (Some(ms(40)), 0));
        assert_eq!(p.last_event_id_header(), Some("a"));
        let d = p.next_delay();
        assert!(d >= ms(20) && d <= ms(40), "{d:?}");
        // The same id again is no progress.
        p.observe(&parser);
        assert_eq!(p.attempts(), 1);
    }

    #[test]
    fn retry_zero_still_backs_off() {
        let mut p = Reconnect::new();
        let mut parser = Parser::new();
        parser.feed(Bytes::from("retry: 0\n\n"));
        while parser.next_frame().unwrap().is_some() {}
        p.observe(&parser);
        // The low ends of 1, 2, 4 and 8 ms.
        let lows: alloc::vec::Vec<_> = (0..4).map(|_| p.next_delay_with(0)).collect();
        assert_eq!(lows, [ms(0), ms(1), ms(2), ms(4)]);
    }

    #[test]
    fn the_same_seed_gives_the_same_delays() {
        let run = |seed| {
            let mut p = Reconnect::new().with_seed(seed);
            (0..5)
                .map(|_| p.next_delay())
                .collect::<alloc::vec::Vec<_>>()
        };
        assert_eq!(run(9), run(9));
        assert_ne!(run(9), run(10));
    }

    #[test]
    fn header_values_are_sent_only_when_a_header_can_carry_them() {
        assert_eq!(Reconnect::new().last_event_id_header(), None);
        let p = Reconnect::new().with_last_event_id("7\t8 é");
        assert_eq!(p.last_event_id_header(), Some("7\t8 é"));
        assert_eq!(p.parser().last_event_id(), "7\t8 é");
        for bad in ["a\nb", "a\rb", "a\0b", "a\u{7f}"] {
            assert_eq!(
                Reconnect::new()
                    .with_last_event_id(bad)
                    .last_event_id_header(),
                None
            );
        }
    }

    #[test]
    fn a_seeded_parser_stamps_frames_until_the_stream_sets_an_id() {
        let mut parser = Parser::new().with_last_event_id("9");
        parser.feed(Bytes::from("data: a\n\nid\ndata: b\n\n"));
        assert_eq!(parser.next_frame().unwrap().unwrap().id(), "9");
        assert_eq!(parser.next_frame().unwrap().unwrap().id(), "");
        assert_eq!(parser.last_event_id(), "");
        parser.reset();
        assert_eq!(parser.last_event_id(), "");
    }
}
