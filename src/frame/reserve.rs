//! The growth policy of the parser's buffers: grow, but never past a limit.

use alloc::vec::Vec;
use bytes::{Bytes, BytesMut};

/// Makes room for `additional` more bytes in `buf` without letting its
/// capacity grow past `limit` (callers have checked that the content fits).
/// The content stays as it was (only its place in memory may change).
///
/// `BytesMut::reserve` doubles, which could leave a buffer holding nearly
/// twice its limit. Reclaiming the space of frames already dropped comes
/// first: it never allocates, and keeps the steady state allocation-free.
pub(crate) fn reserve_within(buf: &mut BytesMut, additional: usize, limit: usize) {
    if buf.try_reclaim(additional) {
        return;
    }
    let needed = buf.len() + additional;
    if needed <= limit / 4 {
        // Far below the limit, `reserve` grows the buffer in place (a realloc
        // that keeps its shared header, so no allocation follows). When it
        // must grow, the allocation it doubles is smaller than twice `needed`
        // (the view's capacity is under `needed`, and space before the view is
        // reused unless it is shorter than the content), so the result stays
        // under `4 * needed <= limit`.
        buf.reserve(additional);
        return;
    }
    let target = buf
        .capacity()
        .saturating_mul(2)
        .max(needed)
        .max(64)
        .min(limit.max(needed));
    let mut bytes = Vec::from(core::mem::take(buf));
    // Grows in place where the allocator can (a realloc, not a second buffer).
    bytes.reserve_exact(target - bytes.len());
    *buf = BytesMut::from(Bytes::from(bytes));
}
