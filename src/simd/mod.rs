//! The byte kernels of the framing engine, as safe functions.
//!
//! Every function here answers one question about a slice of bytes (where
//! its line ends are, whether its bytes are clean ASCII) or copies bytes, and
//! has one reference version in [`scalar`], written for clarity. Where the
//! CPU has vector instructions that pay, a kernel in the file of its
//! architecture and instruction set computes the same answer faster:
//!
//! | kernel | x86_64 | elsewhere |
//! | --- | --- | --- |
//! | [`byte_masks_16_to_32`], [`has_line_end_16_to_32`] | `x86_64/sse2.rs` (SSE2 is part of every x86_64 CPU: chosen at build time) | scalar |
//! | [`CleanScan::first_unclean`], [`CleanScan::copy_clean`] | `x86_64/avx2.rs` (chosen once at run time: [`CleanScan::get`]) | none (see below) |
//! | [`prefetch`] | `x86_64/sse2.rs` (`_mm_prefetch`) | nothing (a hint) |
//! | [`append_small`], [`is_ascii`] | `portable.rs`, the same on every target | |
//!
//! The clean-byte scans ([`CleanScan`]) are an optimisation the engine
//! takes only where a vector kernel runs them: a byte-at-a-time scan would
//! cost more than the `memchr2` search and the UTF-8 check it replaces.
//! [`CleanScan::get`] is the token that proves the CPU runs them; without
//! one, the engine searches and checks apart (and so it does under
//! `ssekit_disable_simd`). Their scalar versions are the reference the
//! vector kernels are tested against.
//!
//! # Forcing the scalar versions
//!
//! Built with `RUSTFLAGS="--cfg ssekit_disable_simd"`, no vector kernel of
//! this module is compiled in: the masks are the scalar ones, [`prefetch`]
//! does nothing and [`CleanScan::get`] is always `None`. CI runs the whole
//! test suite that way, so the portable paths (what a machine without AVX2,
//! or another architecture, runs) are tested on every change.
//!
//! # `unsafe`
//!
//! The vector kernels are `unsafe` for their intrinsics, their loads and
//! stores, and (the copies) for counting written bytes into a `BytesMut`.
//! Each kernel is reached only through a safe function here that proves
//! what it asks: SSE2 by the build's target features (a `cfg`), AVX2 by a
//! [`CleanScan`] token, which only run-time detection (or a build with
//! AVX2 enabled) makes. Every `unsafe` block states why its accesses stay
//! in bounds. The tests of this module compare each kernel with its scalar
//! twin on every length and every place of the bytes that matter near the
//! block edges, and run under Miri in CI (a second run with AVX2 enabled
//! reaches the AVX2 kernels).

#![allow(unsafe_code)]

mod portable;
pub(crate) mod scalar;
#[cfg(all(target_arch = "x86_64", not(ssekit_disable_simd)))]
mod x86_64;

use bytes::BytesMut;

pub(crate) use portable::{append_small, is_ascii};

/// Where the bytes of a tiny read that matter to line splitting are: bit
/// `i` of each mask is set when byte `i` is an LF, a CR, or `r` (the first
/// letter of `retry`, a field that must be parsed at once).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct ByteMasks {
    pub(crate) lf: u32,
    pub(crate) cr: u32,
    pub(crate) r: u32,
}

/// The [`ByteMasks`] of `b` when it has 16 to 32 bytes (a tiny read, a
/// short line); `None` for any other length. The common question, whether
/// there is any line end at all, costs less as [`has_line_end_16_to_32`].
#[inline(always)]
pub(crate) fn byte_masks_16_to_32(b: &[u8]) -> Option<ByteMasks> {
    #[cfg(all(
        target_arch = "x86_64",
        target_feature = "sse2",
        not(ssekit_disable_simd)
    ))]
    return x86_64::sse2::byte_masks_16_to_32(b);
    #[cfg(not(all(
        target_arch = "x86_64",
        target_feature = "sse2",
        not(ssekit_disable_simd)
    )))]
    return scalar::byte_masks_16_to_32(b);
}

/// Whether `b`, when it has 16 to 32 bytes, has a CR or LF; `None` for any
/// other length.
#[inline(always)]
pub(crate) fn has_line_end_16_to_32(b: &[u8]) -> Option<bool> {
    #[cfg(all(
        target_arch = "x86_64",
        target_feature = "sse2",
        not(ssekit_disable_simd)
    ))]
    return x86_64::sse2::has_line_end_16_to_32(b);
    #[cfg(not(all(
        target_arch = "x86_64",
        target_feature = "sse2",
        not(ssekit_disable_simd)
    )))]
    return scalar::has_line_end_16_to_32(b);
}

/// Asks the CPU to bring the cache lines of `b` (at most its first 4 KiB)
/// closer, without waiting for them: a hint, with no effect on what the
/// program computes (x86_64 only; nothing elsewhere, nor under Miri, which
/// has nothing to check in it).
#[inline(always)]
pub(crate) fn prefetch(b: &[u8]) {
    #[cfg(all(
        target_arch = "x86_64",
        target_feature = "sse",
        not(miri),
        not(ssekit_disable_simd)
    ))]
    x86_64::sse2::prefetch(b);
    #[cfg(not(all(
        target_arch = "x86_64",
        target_feature = "sse",
        not(miri),
        not(ssekit_disable_simd)
    )))]
    scalar::prefetch(b);
}

/// Proof that this CPU runs the clean-byte scans as vector code, and the
/// way to call them. A byte is clean when it is in 0x0e..=0x7f: ASCII, and
/// neither CR nor LF (nor any control below them).
#[derive(Debug, Clone, Copy)]
pub(crate) struct CleanScan(Imp);

#[cfg(all(target_arch = "x86_64", not(ssekit_disable_simd)))]
type Imp = x86_64::avx2::Avx2;

/// No vector kernel for the clean-byte scans: no value.
#[cfg(not(all(target_arch = "x86_64", not(ssekit_disable_simd))))]
#[derive(Debug, Clone, Copy)]
enum Imp {}

impl CleanScan {
    /// The token, when the CPU has the vector instructions the scans need
    /// (decided once: the first call detects them, later calls read the
    /// answer); `None` otherwise, and always under `ssekit_disable_simd`.
    #[inline(always)]
    pub(crate) fn get() -> Option<Self> {
        #[cfg(all(target_arch = "x86_64", not(ssekit_disable_simd)))]
        return x86_64::avx2::Avx2::get().map(Self);
        #[cfg(not(all(target_arch = "x86_64", not(ssekit_disable_simd))))]
        return None;
    }

    /// The index of the first byte of `b` that is not clean (`b.len()` if
    /// none): [`scalar::first_unclean`], faster.
    #[inline(always)]
    pub(crate) fn first_unclean(self, b: &[u8]) -> usize {
        #[cfg(all(target_arch = "x86_64", not(ssekit_disable_simd)))]
        return self.0.first_unclean(b);
        #[cfg(not(all(target_arch = "x86_64", not(ssekit_disable_simd))))]
        {
            let _ = b;
            match self.0 {}
        }
    }

    /// Copies a prefix of `src` whose bytes are all clean into `dst`'s
    /// spare capacity (no more than that), and returns its length: at most
    /// [`scalar::copy_clean`]'s and less than 32 bytes short of it (the
    /// copy goes by 32-byte blocks, and stops at the block that holds the
    /// first byte that is not clean); all of it when that is all the bytes
    /// that fit and there are at least 32 of them.
    #[inline(always)]
    pub(crate) fn copy_clean(self, src: &[u8], dst: &mut BytesMut) -> usize {
        #[cfg(all(target_arch = "x86_64", not(ssekit_disable_simd)))]
        return self.0.copy_clean(src, dst);
        #[cfg(not(all(target_arch = "x86_64", not(ssekit_disable_simd))))]
        {
            let _ = (src, dst);
            match self.0 {}
        }
    }
}

#[cfg(test)]
mod tests {
    //! Each kernel against its scalar twin (the reference), on every
    //! length around the block sizes, with every byte value at every place
    //! near a block edge (under Miri, which is slow, a sample of both).

    use super::*;
    use alloc::vec::Vec;

    /// Clean filler (JSON-like text) of `len` bytes.
    fn filler(len: usize) -> Vec<u8> {
        (0..len)
            .map(|i| b"data: {\"k\": [1, 2.5e3]}"[i % 23])
            .collect()
    }

    /// The places near a block edge (of 16 and 32 bytes) in a slice of
    /// `len` bytes: natively every place within two bytes of a multiple of
    /// 16 or of the end, under Miri a sample.
    fn places(len: usize) -> Vec<usize> {
        if cfg!(miri) {
            let mut p: Vec<usize> = [
                0,
                1,
                15,
                16,
                31,
                32,
                33,
                63,
                64,
                len / 2,
                len.saturating_sub(1),
            ]
            .into_iter()
            .filter(|&i| i < len)
            .collect();
            p.dedup();
            p
        } else {
            let near = |i: usize, edge: usize| i.abs_diff(edge) <= 2;
            (0..len)
                .filter(|&i| near(i % 16, 0) || near(i % 16, 16) || near(i, len - 1))
                .collect()
        }
    }

    /// Every byte value natively; under Miri the ones on the edges of
    /// each class (the line ends, the clean range, `r`, high bytes).
    fn values() -> Vec<u8> {
        if cfg!(miri) {
            alloc::vec![0, b'\n', b'\r', 0x0d, 0x0e, b'r', 0x7f, 0x80, 0xc3, 0xff]
        } else {
            (0..=255).collect()
        }
    }

    #[test]
    fn masks_are_the_scalar_masks() {
        for len in 0..=40 {
            for at in places(len) {
                for v in values() {
                    let mut b = filler(len);
                    b[at] = v;
                    // An LF and a CR at the two ends too (bits in both
                    // halves), unless the byte under test is there.
                    if len > 2 && at > 0 && at + 1 < len {
                        b[0] = b'\n';
                        b[len - 1] = b'\r';
                    }
                    assert_eq!(
                        byte_masks_16_to_32(&b),
                        scalar::byte_masks_16_to_32(&b),
                        "{len} {at} {v}"
                    );
                    assert_eq!(
                        has_line_end_16_to_32(&b),
                        scalar::has_line_end_16_to_32(&b),
                        "{len} {at} {v}"
                    );
                }
            }
        }
    }

    /// The scalar masks against a hand count, so that the reference is
    /// right too.
    #[test]
    fn scalar_masks_mark_every_lf_cr_and_r() {
        let b = b"r\nx\rrr\n..........\n\r.....";
        let m = scalar::byte_masks_16_to_32(b).unwrap();
        assert_eq!(m.lf, 1 << 1 | 1 << 6 | 1 << 17);
        assert_eq!(m.cr, 1 << 3 | 1 << 18);
        assert_eq!(m.r, 1 | 1 << 4 | 1 << 5);
        assert_eq!(scalar::has_line_end_16_to_32(&b[..16]), Some(true));
        assert_eq!(scalar::has_line_end_16_to_32(&[b'a'; 32]), Some(false));
        assert_eq!(scalar::byte_masks_16_to_32(&[b'a'; 15]), None);
        assert_eq!(scalar::has_line_end_16_to_32(&[b'a'; 33]), None);
    }

    #[test]
    fn scalar_clean_scans_by_hand() {
        assert_eq!(scalar::first_unclean(b""), 0);
        assert_eq!(scalar::first_unclean(b"ab\x0ec~\x7f"), 6);
        assert_eq!(scalar::first_unclean(b"ab\x0dc"), 2);
        assert_eq!(scalar::first_unclean("a\u{e9}".as_bytes()), 1);
        let mut dst = BytesMut::with_capacity(4);
        dst.extend_from_slice(b"x");
        assert_eq!(scalar::copy_clean(b"abcdef", &mut dst), 3);
        assert_eq!(&dst[..], b"xabc");
        let mut dst = BytesMut::with_capacity(64);
        assert_eq!(scalar::copy_clean(b"ab\ncd", &mut dst), 2);
        assert_eq!(&dst[..], b"ab");
    }

    /// The token: present where the build enables AVX2, never under
    /// `ssekit_disable_simd` or off x86_64.
    #[test]
    fn the_clean_scan_is_there_when_it_must_be() {
        let got = CleanScan::get().is_some();
        if cfg!(any(ssekit_disable_simd, not(target_arch = "x86_64"))) {
            assert!(!got);
        }
        if cfg!(all(target_feature = "avx2", not(ssekit_disable_simd))) {
            assert!(got);
        }
        if !got {
            std::eprintln!("note: no vector clean scan here: its kernels are not tested");
        }
    }

    #[test]
    fn first_unclean_is_the_scalar_one() {
        let Some(scan) = CleanScan::get() else {
            return;
        };
        let lens: Vec<usize> = if cfg!(miri) {
            alloc::vec![0, 31, 32, 33, 63, 64, 65, 100]
        } else {
            (0..=140).collect()
        };
        for len in lens {
            let b = filler(len);
            assert_eq!(scan.first_unclean(&b), len);
            for at in places(len) {
                for v in values() {
                    let mut b = b.clone();
                    b[at] = v;
                    // From each start in the first block, so that the
                    // blocks fall at every offset of the slice.
                    for from in [0, 1, 7, 31].into_iter().filter(|&f| f <= len) {
                        assert_eq!(
                            scan.first_unclean(&b[from..]),
                            scalar::first_unclean(&b[from..]),
                            "{len} {at} {v} {from}"
                        );
                    }
                }
            }
        }
    }

    #[test]
    fn copy_clean_is_the_scalar_copy_or_a_block_short() {
        let Some(scan) = CleanScan::get() else {
            return;
        };
        let lens: Vec<usize> = if cfg!(miri) {
            alloc::vec![31, 32, 64, 65, 97, 130]
        } else {
            (0..=200).collect()
        };
        let heads: Vec<usize> = if cfg!(miri) {
            alloc::vec![0, 1, 31]
        } else {
            alloc::vec![0, 1, 2, 8, 15, 16, 17, 24, 30, 31]
        };
        for len in lens {
            let src = filler(len);
            // Unclean bytes sampled more sparsely than in the scan test:
            // the copy only asks clean or not, which that test covers
            // for every value.
            let mut cases: Vec<Option<(usize, u8)>> = alloc::vec![None];
            for at in places(len) {
                for v in [b'\n', b'\r', 0x00, 0x0d, 0x80, 0xff] {
                    cases.push(Some((at, v)));
                }
            }
            for case in cases {
                let mut src = src.clone();
                if let Some((at, v)) = case {
                    src[at] = v;
                }
                // Content before the copy at skews of a 32-byte block that
                // matter (none, one, the ends of each half), and room for
                // all, for some, or for none.
                for &head in &heads {
                    for room in [len + 64, len / 2 + 33, 40, 0] {
                        let mut dst = BytesMut::with_capacity(head + room);
                        dst.extend_from_slice(&filler(head));
                        let room = dst.capacity() - dst.len();
                        let mut want_dst = dst.clone();
                        want_dst.reserve(len);
                        let want = scalar::copy_clean(&src[..src.len().min(room)], &mut want_dst);
                        let got = scan.copy_clean(&src, &mut dst);
                        let what = alloc::format!("{len} {case:?} {head} {room}");
                        assert!(got <= want && want - got < 32, "{what}: {got} {want}");
                        if want == len.min(room) && want >= 32 {
                            assert_eq!(got, want, "{what}");
                        }
                        assert_eq!(&dst[..head], &filler(head)[..], "{what}");
                        assert_eq!(&dst[head..], &src[..got], "{what}");
                    }
                }
            }
        }
    }

    #[test]
    fn prefetch_reads_nothing() {
        let b = filler(5000);
        for len in [0, 1, 63, 64, 256, 5000] {
            prefetch(&b[..len]);
            prefetch(&b[b.len() - len..]);
        }
        assert_eq!(b, filler(5000));
    }
}
