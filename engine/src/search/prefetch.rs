//! A hint to the CPU to start loading a table entry that the search reads soon: the tables
//! (transposition, evaluation cache, correction history) are larger than the caches nearest
//! the core, and a child's entries are known before its node reads them.

/// Starts loading the cache line of `entry`.
#[inline(always)]
pub(crate) fn prefetch<T>(entry: &T) {
    #[cfg(target_arch = "x86_64")]
    {
        use std::arch::x86_64::{_MM_HINT_T0, _mm_prefetch};
        let line: *const T = entry;
        // SAFETY: a prefetch is only a hint: it never faults and changes no memory, and SSE,
        // which it needs, is part of every x86_64 target.
        unsafe { _mm_prefetch::<_MM_HINT_T0>(line.cast()) };
    }
    #[cfg(not(target_arch = "x86_64"))]
    let _ = entry;
}
