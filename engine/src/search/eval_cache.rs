//! A cache of static evaluations by position key. The search evaluates the same positions
//! again and again (re-searches after a reduction or a null window, the next iteration), and
//! the evaluation is the most expensive thing a node does. Entries are exact: the whole key is
//! checked, so a hit returns what the evaluation would have returned.

use super::score::MATE_BOUND;

/// Entries (a power of two): 512 KiB.
const ENTRIES: usize = 1 << 16;
const INDEX_BITS: u32 = ENTRIES.trailing_zeros();
/// The index takes the key's high bits and a slot keeps its low 48: with an index of at
/// least 16 bits, together they are the whole key.
const _: () = assert!(INDEX_BITS >= 16);
const CHECK_MASK: u64 = (1 << 48) - 1;

/// The bit pattern of an empty slot's evaluation field: -32768 after decoding, which no
/// evaluation (kept within ±`MATE_BOUND`) takes.
const EMPTY: u16 = 0x8000;
const _: () = assert!(MATE_BOUND < 0x8000);

/// One slot is one `u64`: the key's low 48 bits in its high 48 bits and the evaluation (as an
/// `i16`, offset so that an all-zero slot is empty) in the low 16.
pub(crate) struct EvalCache {
    slots: Box<[u64]>,
}

impl EvalCache {
    pub(crate) fn new() -> Self {
        EvalCache {
            slots: vec![0; ENTRIES].into_boxed_slice(),
        }
    }

    /// Forgets every entry (the evaluation weights changed).
    pub(crate) fn clear(&mut self) {
        self.slots.fill(0);
    }

    #[inline]
    fn slot(key: u64) -> usize {
        (key >> (64 - INDEX_BITS)) as usize
    }

    /// Asks the CPU to start loading the slot of `key`: the cache is larger than L2, and a
    /// child's evaluation is looked up soon after its key is known.
    #[inline]
    pub(crate) fn prefetch(&self, key: u64) {
        super::prefetch::prefetch(&self.slots[Self::slot(key)]);
    }

    /// The evaluation stored for `key`, if any.
    #[inline]
    pub(crate) fn get(&self, key: u64) -> Option<i32> {
        let slot = self.slots[Self::slot(key)];
        let field = slot as u16 ^ EMPTY;
        (slot >> 16 == key & CHECK_MASK && field != EMPTY).then_some(i32::from(field as i16))
    }

    /// Stores `eval` (within ±`MATE_BOUND`) for `key`, replacing whatever the slot held.
    #[inline]
    pub(crate) fn set(&mut self, key: u64, eval: i32) {
        debug_assert!(eval.abs() < MATE_BOUND);
        let field = (eval as i16 as u16) ^ EMPTY;
        self.slots[Self::slot(key)] = key << 16 | u64::from(field);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn stores_and_checks_the_whole_key() {
        let mut cache = EvalCache::new();
        assert_eq!(cache.get(0), None);
        assert_eq!(cache.get(12345), None);
        cache.set(0, 0);
        assert_eq!(cache.get(0), Some(0));
        let key = 0xdead_beef_0123_4567;
        cache.set(key, -31_000);
        assert_eq!(cache.get(key), Some(-31_000));
        // Same slot (same high bits), other low bits: a miss, not the other key's value.
        assert_eq!(cache.get(key ^ 1 << 40), None);
        cache.set(key ^ 1 << 40, 17);
        assert_eq!(cache.get(key ^ 1 << 40), Some(17));
        assert_eq!(cache.get(key), None);
        // Keys that differ in the top bit alone (only the index tells them apart).
        cache.set(key ^ 1 << 63, 5);
        assert_eq!(cache.get(key ^ 1 << 63), Some(5));
        assert_eq!(cache.get(key ^ 1 << 40), Some(17));
        cache.clear();
        assert_eq!(cache.get(0), None);
    }
}
