//! Kernels with one version for every target: plain Rust that the compiler
//! turns into vector code where it can ([`is_ascii`]), or that copies by
//! fixed-size words ([`append_small`]). Their references are the standard
//! library's `<[u8]>::is_ascii` and `BytesMut::extend_from_slice`.

use bytes::BytesMut;
use core::mem::MaybeUninit;

/// Appends `piece` to `buf`, as `extend_from_slice` does; a piece of 8 to
/// 32 bytes that fits the spare capacity is copied as two fixed-size,
/// overlapping words, inline (a tiny read, the common case in small reads,
/// otherwise costs a call to `memcpy` and its size dispatch).
#[inline(always)]
pub(crate) fn append_small(buf: &mut BytesMut, piece: &[u8]) {
    let n = piece.len();
    let spare = buf.spare_capacity_mut();
    if !(8..=32).contains(&n) || spare.len() < n {
        return buf.extend_from_slice(piece);
    }
    fn put<const W: usize>(to: &mut [MaybeUninit<u8>], from: &[u8]) {
        let word: [u8; W] = from.try_into().unwrap_or([0; W]);
        to.copy_from_slice(&word.map(MaybeUninit::new));
    }
    // The first and the last `w` bytes, `w <= n <= 2w`: together all `n`.
    if n <= 16 {
        put::<8>(&mut spare[..8], &piece[..8]);
        put::<8>(&mut spare[n - 8..n], &piece[n - 8..]);
    } else {
        put::<16>(&mut spare[..16], &piece[..16]);
        put::<16>(&mut spare[n - 16..n], &piece[n - 16..]);
    }
    let len = buf.len();
    // SAFETY: `spare[..n]`, the `n` bytes right after the content, were all
    // written just above (the two words cover `[0, n)`), and `n <=
    // spare.len()`: initialized, within the capacity.
    unsafe { buf.set_len(len + n) };
}

/// Whether `b` is ASCII: the OR of all its bytes, taken 32 at a time into
/// a 32-byte accumulator (which the compiler turns into a few vector ORs per
/// block, with no early exit), the last 32 bytes as one more block. For
/// short texts `<[u8]>::is_ascii`'s head and tail cost more than the check.
#[inline]
pub(crate) fn is_ascii(b: &[u8]) -> bool {
    let mut acc = [0u8; 32];
    let mut blocks = b.chunks_exact(32);
    for block in &mut blocks {
        for (a, &c) in acc.iter_mut().zip(block) {
            *a |= c;
        }
    }
    match b.len().checked_sub(32) {
        Some(last) => {
            for (a, &c) in acc.iter_mut().zip(&b[last..]) {
                *a |= c;
            }
        }
        None => {
            for &c in blocks.remainder() {
                acc[0] |= c;
            }
        }
    }
    acc.iter().fold(0u8, |x, &c| x | c) < 0x80
}

#[cfg(test)]
mod tests {
    use super::*;
    use alloc::vec::Vec;

    #[test]
    fn the_ascii_check_sees_every_byte() {
        let max = if cfg!(miri) { 70 } else { 100 };
        for len in 0..max {
            let mut b = alloc::vec![b'a'; len];
            assert!(is_ascii(&b), "{len}");
            for at in 0..len {
                for high in [0x80, 0xc3, 0xff] {
                    b[at] = high;
                    assert_eq!(is_ascii(&b), b.is_ascii(), "{len} {at}");
                    assert!(!is_ascii(&b), "{len} {at}");
                }
                b[at] = 0x7f;
                assert!(is_ascii(&b), "{len} {at}");
                b[at] = b'a';
            }
        }
    }

    #[test]
    fn small_appends_copy_every_byte() {
        for room in [0, 8, 20, 64] {
            for n in 0..40 {
                let mut buf = BytesMut::with_capacity(room);
                buf.extend_from_slice(b"ab");
                let piece: Vec<u8> = (0..n as u8).map(|i| i.wrapping_mul(37)).collect();
                append_small(&mut buf, &piece);
                assert_eq!(&buf[..2], b"ab");
                assert_eq!(&buf[2..], &piece[..], "{room} {n}");
            }
        }
    }
}
