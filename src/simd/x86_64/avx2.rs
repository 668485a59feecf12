//! AVX2 kernels: the clean-byte scans. AVX2 is not part of every x86_64
//! CPU: an [`Avx2`] token, made only where it is there, is what lets a
//! caller reach them.
//!
//! A byte is clean when it is in 0x0e..=0x7f. The kernels find that with one
//! signed compare per 32 bytes: bytes 0x80..=0xff are negative, and
//! 0x00..=0x0d are not above 0x0d, so a lane compares greater than 0x0d
//! exactly when its byte is clean.
#![cfg_attr(not(any(feature = "std", target_feature = "avx2")), allow(dead_code))]

use crate::simd::scalar;
use bytes::BytesMut;
use core::arch::x86_64::{
    __m256i, _mm256_and_si256, _mm256_cmpgt_epi8, _mm256_loadu_si256, _mm256_movemask_epi8,
    _mm256_set1_epi8, _mm256_storeu_si256,
};

/// Proof that the CPU has AVX2: only [`get`](Self::get) makes one.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Avx2(());

impl Avx2 {
    /// The token where the CPU has AVX2: always when the build enables
    /// AVX2; else, with `std`, as detected at run time, once (the answer is
    /// kept in a static); else never.
    #[inline(always)]
    pub(crate) fn get() -> Option<Self> {
        #[cfg(target_feature = "avx2")]
        return Some(Self(()));
        #[cfg(all(not(target_feature = "avx2"), feature = "std"))]
        return detected::get();
        #[cfg(all(not(target_feature = "avx2"), not(feature = "std")))]
        return None;
    }

    /// [`scalar::first_unclean`], 32 bytes at a time.
    #[inline(always)]
    pub(crate) fn first_unclean(self, b: &[u8]) -> usize {
        // SAFETY: `self` exists only where the CPU has AVX2 (see `get`),
        // which is all `first_unclean` asks.
        unsafe { first_unclean(b) }
    }

    /// [`crate::simd::CleanScan::copy_clean`].
    #[inline(always)]
    pub(crate) fn copy_clean(self, src: &[u8], dst: &mut BytesMut) -> usize {
        // SAFETY: `self` exists only where the CPU has AVX2 (see `get`),
        // which is all `copy_clean` asks.
        unsafe { copy_clean(src, dst) }
    }
}

/// Run-time detection, done once.
#[cfg(all(not(target_feature = "avx2"), feature = "std"))]
mod detected {
    use super::Avx2;
    use core::sync::atomic::{AtomicU8, Ordering::Relaxed};

    const UNKNOWN: u8 = 0;
    const YES: u8 = 1;
    const NO: u8 = 2;

    /// What detection found (`UNKNOWN` before the first call). Any thread
    /// that finds it unknown detects and stores the same answer.
    static AVX2: AtomicU8 = AtomicU8::new(UNKNOWN);

    #[inline(always)]
    pub(super) fn get() -> Option<Avx2> {
        match AVX2.load(Relaxed) {
            YES => Some(Avx2(())),
            NO => None,
            _ => detect(),
        }
    }

    #[cold]
    fn detect() -> Option<Avx2> {
        let yes = std::arch::is_x86_feature_detected!("avx2");
        AVX2.store(if yes { YES } else { NO }, Relaxed);
        yes.then_some(Avx2(()))
    }
}

/// The 32 bytes of `b` at `at`, if `b` has them.
#[inline(always)]
fn block(b: &[u8], at: usize) -> Option<&[u8; 32]> {
    b.get(at..)?.first_chunk()
}

/// Loads 32 bytes.
///
/// # Safety
///
/// The CPU must support AVX2.
#[target_feature(enable = "avx2")]
#[inline]
unsafe fn load(block: &[u8; 32]) -> __m256i {
    // SAFETY: reads the 32 bytes of `block`, an unaligned load.
    unsafe { _mm256_loadu_si256(block.as_ptr().cast::<__m256i>()) }
}

/// The clean lanes of `v`, as bits.
///
/// # Safety
///
/// The CPU must support AVX2.
#[target_feature(enable = "avx2")]
#[inline]
unsafe fn clean_bits(v: __m256i) -> u32 {
    _mm256_movemask_epi8(_mm256_cmpgt_epi8(v, _mm256_set1_epi8(0x0d))) as u32
}

/// Whether all 64 lanes of `a` and `b` are clean.
///
/// # Safety
///
/// The CPU must support AVX2.
#[target_feature(enable = "avx2")]
#[inline]
unsafe fn both_clean(a: __m256i, b: __m256i) -> bool {
    let low = _mm256_set1_epi8(0x0d);
    _mm256_movemask_epi8(_mm256_and_si256(
        _mm256_cmpgt_epi8(a, low),
        _mm256_cmpgt_epi8(b, low),
    )) == -1
}

/// [`scalar::first_unclean`], 32 bytes at a time, the last bytes as one
/// block that overlaps the ones before (below 32 bytes, the scalar one).
///
/// # Safety
///
/// The CPU must support AVX2.
#[target_feature(enable = "avx2")]
unsafe fn first_unclean(b: &[u8]) -> usize {
    let n = b.len();
    let Some(last) = b.last_chunk::<32>() else {
        return scalar::first_unclean(b);
    };
    let mut i = 0;
    while let Some(x) = block(b, i) {
        // SAFETY: AVX2 is enabled here.
        let v = unsafe { load(x) };
        // SAFETY: AVX2 is enabled here.
        let m = !unsafe { clean_bits(v) };
        if m != 0 {
            return i + m.trailing_zeros() as usize;
        }
        i += 32;
    }
    if i < n {
        // The bytes before `i` are clean, so the first unclean byte of the
        // last block, if any, is at `i` or after.
        // SAFETY: AVX2 is enabled here.
        let v = unsafe { load(last) };
        // SAFETY: AVX2 is enabled here.
        let m = !unsafe { clean_bits(v) };
        if m != 0 {
            return n - 32 + m.trailing_zeros() as usize;
        }
    }
    n
}

/// [`crate::simd::CleanScan::copy_clean`]: reads `src` and writes `dst`'s
/// spare capacity 64 and then 32 bytes at a time (after a first block, from
/// the copy's first 32-byte boundary in memory on, so that no store but the
/// first and the last straddles two cache lines: such stores cost more), and
/// the last bytes as one more 32-byte block that overlaps the copied ones.
///
/// # Safety
///
/// The CPU must support AVX2.
#[target_feature(enable = "avx2")]
unsafe fn copy_clean(src: &[u8], dst: &mut BytesMut) -> usize {
    let spare = dst.spare_capacity_mut();
    let n = src.len().min(spare.len());
    let from = src.as_ptr();
    let to = spare.as_mut_ptr().cast::<u8>();
    let mut i = 0;
    // Every block below is read from `src[at..at + 32]` and written to
    // `spare[at..at + 32]` for the same `at`, with `at + 32 <= n`, and `n`
    // is at most both lengths: every load and store is in bounds, and
    // `spare[..i]` is written exactly when `i` passes it. Pointers are
    // formed with `wrapping_add` (safe) and used only in bounds.
    if n >= 64 {
        // The first block, then on from the first 32-byte boundary of
        // `to`, so that no later store straddles two cache lines.
        // SAFETY: AVX2 is enabled here; reads `src[0..32]`, `32 <= n`.
        let a = unsafe { load_at(from) };
        // SAFETY: AVX2 is enabled here.
        if unsafe { clean_bits(a) } == u32::MAX {
            // SAFETY: AVX2 is enabled here; writes `spare[0..32]`.
            unsafe { store_at(to, a) };
            // Written `[0, 32)`: go on from within it (1..=32).
            i = 32 - (to.addr() & 31);
        }
    }
    while i + 64 <= n {
        // SAFETY: AVX2 is enabled here; reads `src[i..i + 32]`.
        let a = unsafe { load_at(from.wrapping_add(i)) };
        // SAFETY: AVX2 is enabled here; reads `src[i + 32..i + 64]`.
        let b = unsafe { load_at(from.wrapping_add(i + 32)) };
        // SAFETY: AVX2 is enabled here.
        if !unsafe { both_clean(a, b) } {
            break;
        }
        // SAFETY: AVX2 is enabled here; writes `spare[i..i + 32]`.
        unsafe { store_at(to.wrapping_add(i), a) };
        // SAFETY: AVX2 is enabled here; writes `spare[i + 32..i + 64]`.
        unsafe { store_at(to.wrapping_add(i + 32), b) };
        i += 64;
    }
    while i + 32 <= n {
        // SAFETY: AVX2 is enabled here; reads `src[i..i + 32]`.
        let a = unsafe { load_at(from.wrapping_add(i)) };
        // SAFETY: AVX2 is enabled here.
        if unsafe { clean_bits(a) } != u32::MAX {
            break;
        }
        // SAFETY: AVX2 is enabled here; writes `spare[i..i + 32]`.
        unsafe { store_at(to.wrapping_add(i), a) };
        i += 32;
    }
    // Fewer than 32 bytes left after clean blocks: the last 32 bytes as one
    // block, overlapping copied ones (written again, unchanged).
    if i < n && i + 32 > n && n >= 32 {
        // SAFETY: AVX2 is enabled here; reads `src[n - 32..n]`.
        let a = unsafe { load_at(from.wrapping_add(n - 32)) };
        // SAFETY: AVX2 is enabled here.
        if unsafe { clean_bits(a) } == u32::MAX {
            // SAFETY: AVX2 is enabled here; writes `spare[n - 32..n]`.
            unsafe { store_at(to.wrapping_add(n - 32), a) };
            i = n;
        }
    }
    let len = dst.len();
    // SAFETY: the stores above wrote `spare[..i]`, the `i` bytes right
    // after the content (the blocks from 0, or from the first boundary,
    // which the first block covers, to `i` leave no gap), with `i <= n <=
    // spare.len()`: initialized, and within the capacity.
    unsafe { dst.set_len(len + i) };
    i
}

/// Loads the 32 bytes at `p`.
///
/// # Safety
///
/// The CPU must support AVX2, and `p..p + 32` must be readable.
#[target_feature(enable = "avx2")]
#[inline]
unsafe fn load_at(p: *const u8) -> __m256i {
    // SAFETY: the caller's promise: 32 readable bytes (an unaligned load).
    unsafe { _mm256_loadu_si256(p.cast::<__m256i>()) }
}

/// Stores 32 bytes at `p`.
///
/// # Safety
///
/// The CPU must support AVX2, and `p..p + 32` must be writable (they may
/// be uninitialized).
#[target_feature(enable = "avx2")]
#[inline]
unsafe fn store_at(p: *mut u8, v: __m256i) {
    // SAFETY: the caller's promise: 32 writable bytes (an unaligned store).
    unsafe { _mm256_storeu_si256(p.cast::<__m256i>(), v) }
}
