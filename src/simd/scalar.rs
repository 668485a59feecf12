//! The reference version of each kernel, one byte at a time and written
//! for clarity: what the vector kernels must compute. The engine runs
//! these where no vector kernel exists (see the module docs above), and
//! the tests compare every kernel with its twin here.

use super::ByteMasks;
use bytes::BytesMut;

/// Whether `c` is clean: in 0x0e..=0x7f (ASCII, and neither CR, LF nor any
/// other control below them).
#[inline]
#[cfg_attr(not(test), allow(dead_code))]
pub(crate) fn is_clean(c: u8) -> bool {
    (0x0e..=0x7f).contains(&c)
}

/// The index of the first byte of `b` that is not clean (`b.len()` if none).
#[cfg_attr(not(test), allow(dead_code))]
pub(crate) fn first_unclean(b: &[u8]) -> usize {
    b.iter().position(|&c| !is_clean(c)).unwrap_or(b.len())
}

/// Appends to `dst` the longest prefix of `src` that is clean and fits the
/// spare capacity, and returns its length.
#[cfg_attr(not(test), allow(dead_code))]
pub(crate) fn copy_clean(src: &[u8], dst: &mut BytesMut) -> usize {
    let room = dst.capacity() - dst.len();
    let n = first_unclean(src).min(room);
    dst.extend_from_slice(&src[..n]);
    n
}

/// The masks of LF, CR and `r` in `b` when it has 16 to 32 bytes.
#[cfg_attr(
    all(
        target_arch = "x86_64",
        target_feature = "sse2",
        not(ssekit_disable_simd),
        not(test)
    ),
    allow(dead_code)
)]
pub(crate) fn byte_masks_16_to_32(b: &[u8]) -> Option<ByteMasks> {
    if !(16..=32).contains(&b.len()) {
        return None;
    }
    let mask = |want: u8| {
        b.iter()
            .enumerate()
            .filter(|&(_, &c)| c == want)
            .fold(0u32, |m, (i, _)| m | 1 << i)
    };
    Some(ByteMasks {
        lf: mask(b'\n'),
        cr: mask(b'\r'),
        r: mask(b'r'),
    })
}

/// Whether `b` has a CR or LF, when it has 16 to 32 bytes.
#[cfg_attr(
    all(
        target_arch = "x86_64",
        target_feature = "sse2",
        not(ssekit_disable_simd),
        not(test)
    ),
    allow(dead_code)
)]
pub(crate) fn has_line_end_16_to_32(b: &[u8]) -> Option<bool> {
    (16..=32)
        .contains(&b.len())
        .then(|| b.iter().any(|&c| c == b'\n' || c == b'\r'))
}

/// A prefetch hint: nothing to do without one.
#[inline(always)]
#[cfg_attr(
    all(
        target_arch = "x86_64",
        target_feature = "sse",
        not(miri),
        not(ssekit_disable_simd)
    ),
    allow(dead_code)
)]
pub(crate) fn prefetch(b: &[u8]) {
    let _ = b;
}
