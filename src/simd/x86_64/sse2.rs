//! SSE2 (and SSE) kernels. SSE2 is part of every x86_64 CPU and enabled for
//! every x86_64 build, so these are chosen by `cfg` at build time, with no
//! detection; the callers in the parent module check
//! `target_feature = "sse2"` (or `"sse"`) all the same.

use crate::simd::ByteMasks;
use core::arch::x86_64::{
    __m128i, _mm_cmpeq_epi8, _mm_loadu_si128, _mm_movemask_epi8, _mm_or_si128, _mm_set1_epi8,
};

/// [`super::super::byte_masks_16_to_32`]: the first and the last 16 bytes
/// of `b`, three compares each; the two overlap below 32 bytes, where they
/// agree.
#[inline(always)]
pub(crate) fn byte_masks_16_to_32(b: &[u8]) -> Option<ByteMasks> {
    let n = b.len();
    let (Some(head), Some(tail)) = (b.first_chunk::<16>(), b.last_chunk::<16>()) else {
        return None;
    };
    if n > 32 {
        return None;
    }
    // SAFETY: SSE2 is enabled for the build (this module's `cfg`), which is
    // all `masks` asks of its caller.
    Some(unsafe { masks(head, tail, n) })
}

/// [`super::super::has_line_end_16_to_32`]: two compares of the first and
/// of the last 16 bytes of `b`.
#[inline(always)]
pub(crate) fn has_line_end_16_to_32(b: &[u8]) -> Option<bool> {
    let (Some(head), Some(tail)) = (b.first_chunk::<16>(), b.last_chunk::<16>()) else {
        return None;
    };
    if b.len() > 32 {
        return None;
    }
    // SAFETY: SSE2 is enabled for the build, which is all `line_ends` asks.
    Some(unsafe { line_ends(head, tail) } != 0)
}

/// Loads 16 bytes.
///
/// # Safety
///
/// The CPU must support SSE2.
#[target_feature(enable = "sse2")]
#[inline]
unsafe fn load(block: &[u8; 16]) -> __m128i {
    // SAFETY: reads the 16 bytes of `block`, an unaligned load.
    unsafe { _mm_loadu_si128(block.as_ptr().cast::<__m128i>()) }
}

/// The masks of LF, CR and `r` in `head` (bits 0..16) and `tail` (bits
/// `n - 16..n`).
///
/// # Safety
///
/// The CPU must support SSE2.
#[target_feature(enable = "sse2")]
#[inline]
unsafe fn masks(head: &[u8; 16], tail: &[u8; 16], n: usize) -> ByteMasks {
    // SAFETY: SSE2 is enabled here.
    let head = unsafe { load(head) };
    // SAFETY: SSE2 is enabled here.
    let tail = unsafe { load(tail) };
    let mask = |byte: u8| {
        let c = _mm_set1_epi8(byte as i8);
        let bits = |v: __m128i| _mm_movemask_epi8(_mm_cmpeq_epi8(v, c)) as u32;
        bits(head) | (bits(tail) << (n - 16))
    };
    ByteMasks {
        lf: mask(b'\n'),
        cr: mask(b'\r'),
        r: mask(b'r'),
    }
}

/// The mask of CR and LF bytes in `head` or `tail` (bit `i`: byte `i` of
/// either).
///
/// # Safety
///
/// The CPU must support SSE2.
#[target_feature(enable = "sse2")]
#[inline]
unsafe fn line_ends(head: &[u8; 16], tail: &[u8; 16]) -> i32 {
    let (lf, cr) = (_mm_set1_epi8(b'\n' as i8), _mm_set1_epi8(b'\r' as i8));
    let ends = |v: __m128i| _mm_or_si128(_mm_cmpeq_epi8(v, lf), _mm_cmpeq_epi8(v, cr));
    // SAFETY: SSE2 is enabled here.
    let head = unsafe { load(head) };
    // SAFETY: SSE2 is enabled here.
    let tail = unsafe { load(tail) };
    _mm_movemask_epi8(_mm_or_si128(ends(head), ends(tail)))
}

/// [`super::super::prefetch`]: one `_mm_prefetch` per 64-byte line of `b`
/// (at most 4 KiB).
#[cfg(target_feature = "sse")]
#[inline(always)]
pub(crate) fn prefetch(b: &[u8]) {
    let p = b.as_ptr();
    let mut at = 0;
    while at < b.len().min(4096) {
        // SAFETY: SSE is enabled for the build (the `cfg` above), which is
        // all `_mm_prefetch` needs; a prefetch reads nothing the program
        // sees and never faults, whatever the address (here one inside
        // `b`, formed with `wrapping_add`).
        unsafe {
            core::arch::x86_64::_mm_prefetch::<{ core::arch::x86_64::_MM_HINT_T0 }>(
                p.wrapping_add(at).cast::<i8>(),
            )
        };
        at += 64;
    }
}
