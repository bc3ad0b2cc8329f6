//! The transposition table: one 16-byte entry per slot, sized in MiB, replaced by depth and age.

use shakmaty::{Move, Role, Square};

use super::score::{MATE_BOUND, MAX_PLY};

/// What the stored score says about the true value.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Bound {
    /// The true value is exactly the score (a PV node).
    Exact,
    /// The true value is at least the score (a fail high).
    Lower,
    /// The true value is at most the score (a fail low).
    Upper,
}

impl Bound {
    /// Whether `score`, bounded so, settles a search in the window (`alpha`, `beta`): exact,
    /// or a lower bound at or above beta, or an upper bound at or below alpha.
    #[inline]
    pub(crate) fn settles(self, score: i32, alpha: i32, beta: i32) -> bool {
        match self {
            Bound::Exact => true,
            Bound::Lower => score >= beta,
            Bound::Upper => score <= alpha,
        }
    }

    /// Whether `score`, bounded so, says the true value lies beyond `estimate` on its side
    /// (an exact score always does): then `score` is the better guess of the two.
    #[inline]
    pub(crate) fn beyond(self, score: i32, estimate: i32) -> bool {
        match self {
            Bound::Exact => true,
            Bound::Lower => score > estimate,
            Bound::Upper => score < estimate,
        }
    }
}

/// A move packed as `from | to << 6 | promotion role << 12` (0 = none): enough to find it
/// again among the legal moves.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) struct PackedMove(u16);

impl PackedMove {
    pub(crate) const NONE: PackedMove = PackedMove(0);

    pub(crate) fn new(m: Move) -> PackedMove {
        let from = m.from().map_or(0, |sq| sq as u16);
        let promotion = m.promotion().map_or(0, |r| r as u16);
        PackedMove(from | (m.to() as u16) << 6 | promotion << 12)
    }

    /// From, to and promotion (`None` for [`PackedMove::NONE`]).
    pub(crate) fn squares(self) -> Option<(Square, Square, Option<Role>)> {
        if self == PackedMove::NONE {
            return None;
        }
        let from = Square::new(u32::from(self.0 & 63));
        let to = Square::new(u32::from(self.0 >> 6 & 63));
        let promotion = match self.0 >> 12 {
            0 => None,
            r => Role::try_from(u32::from(r)).ok(),
        };
        Some((from, to, promotion))
    }

    pub(crate) fn matches(self, m: Move) -> bool {
        self != PackedMove::NONE && PackedMove::new(m) == self
    }
}

#[derive(Clone, Copy, Default)]
#[repr(C)]
struct Entry {
    key: u64,
    best: PackedMove,
    score: i16,
    /// Depth + [`QS_DEPTH_OFFSET`]: below the offset quiescence results (by the plies of
    /// quiet checks they searched), from it up the main search's depths.
    depth: u8,
    /// Generation in the high 6 bits, bound in the low 2 (0 = empty slot).
    age_bound: u8,
    /// Whether the node was on a principal variation when stored (or its earlier entry
    /// said so): 1 or 0, in what was padding.
    was_pv: u8,
}

/// How far below depth 0 quiescence results are stored: a result that searched quiet checks
/// for `r` more plies (0 ..= 16, `qsearch_check_plies`' range) has depth `r -`
/// [`QS_DEPTH_OFFSET`], so that only a result at least as thorough cuts a quiescence node off
/// and none ever cuts off a main-search node (depth 1 and up).
pub(crate) const QS_DEPTH_OFFSET: i32 = 17;

/// The table depth of a quiescence result with `check_plies` plies of quiet checks left.
pub(crate) fn quiescence_depth(check_plies: usize) -> i32 {
    check_plies.min(16) as i32 - QS_DEPTH_OFFSET
}

/// A probe hit: the entry's data with the score already converted to the probing ply.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Hit {
    pub best: PackedMove,
    pub score: i32,
    pub depth: i32,
    pub bound: Bound,
    /// The node was searched as a PV node, now or when an earlier entry was stored.
    pub was_pv: bool,
}

pub(crate) struct TranspositionTable {
    entries: Slots,
    generation: u8,
    /// Whether anything was stored since the table was last zeroed: clearing a clean table
    /// (a new game right after start-up or after the previous clear) costs nothing.
    dirty: bool,
}

impl TranspositionTable {
    pub(crate) fn new(mb: usize) -> Self {
        let count = (mb.max(1) << 20) / std::mem::size_of::<Entry>();
        TranspositionTable {
            entries: Slots::new(count),
            generation: 0,
            dirty: false,
        }
    }

    /// The table's size in MiB as [`TranspositionTable::new`] was given it.
    pub(crate) fn megabytes(&self) -> usize {
        (self.entries.len() * std::mem::size_of::<Entry>()) >> 20
    }

    pub(crate) fn clear(&mut self) {
        if self.dirty {
            self.entries.zero();
            self.dirty = false;
        }
        self.generation = 0;
    }

    /// Starts a new search: older entries become preferred victims.
    pub(crate) fn new_search(&mut self) {
        self.generation = (self.generation + 1) & 0x3f;
    }

    #[inline]
    fn index(&self, key: u64) -> usize {
        // Multiply-shift maps the key onto any table length without a modulo.
        ((u128::from(key) * self.entries.len() as u128) >> 64) as usize
    }

    /// Asks the CPU to start loading the slot of `key`, so that a probe soon after does not
    /// wait for memory (the probe is the search's main cache miss).
    #[inline]
    pub(crate) fn prefetch(&self, key: u64) {
        super::prefetch::prefetch(&self.entries[self.index(key)]);
    }

    #[inline]
    pub(crate) fn probe(&self, key: u64, ply: usize) -> Option<Hit> {
        let e = &self.entries[self.index(key)];
        if e.age_bound == 0 || e.key != key {
            return None;
        }
        let bound = match e.age_bound & 3 {
            1 => Bound::Exact,
            2 => Bound::Lower,
            _ => Bound::Upper,
        };
        Some(Hit {
            best: e.best,
            score: score_from_tt(i32::from(e.score), ply),
            depth: i32::from(e.depth) - QS_DEPTH_OFFSET,
            bound,
            was_pv: e.was_pv != 0,
        })
    }

    /// Stores a quiescence result only where it evicts nothing of the main search: an empty
    /// or stale slot, or this position's own quiescence entry. `depth` is a
    /// [`quiescence_depth`].
    #[inline]
    pub(crate) fn store_shallow(
        &mut self,
        key: u64,
        ply: usize,
        depth: i32,
        score: i32,
        bound: Bound,
        best: PackedMove,
    ) {
        debug_assert!(depth < 0);
        let e = &self.entries[self.index(key)];
        let free = e.age_bound == 0 || e.age_bound >> 2 != self.generation;
        if free || (e.key == key && i32::from(e.depth) < QS_DEPTH_OFFSET) {
            self.store(key, ply, depth, score, bound, best, false);
        }
    }

    // An entry's fields, each its own argument, as the search has them at hand.
    #[allow(clippy::too_many_arguments)]
    pub(crate) fn store(
        &mut self,
        key: u64,
        ply: usize,
        depth: i32,
        score: i32,
        bound: Bound,
        best: PackedMove,
        was_pv: bool,
    ) {
        let index = self.index(key);
        self.dirty = true;
        let generation = self.generation;
        let e = &mut self.entries[index];
        let same = e.key == key;
        let stale = e.age_bound >> 2 != generation;
        if !(same
            || stale
            || e.age_bound == 0
            || depth + 3 >= i32::from(e.depth) - QS_DEPTH_OFFSET
            || bound == Bound::Exact)
        {
            return;
        }
        // Keep the old move when the new search of this position found none.
        let best = if best == PackedMove::NONE && same {
            e.best
        } else {
            best
        };
        let bound_bits = match bound {
            Bound::Exact => 1,
            Bound::Lower => 2,
            Bound::Upper => 3,
        };
        *e = Entry {
            key,
            best,
            score: score_to_tt(score, ply) as i16,
            depth: (depth + QS_DEPTH_OFFSET).clamp(0, 255) as u8,
            age_bound: generation << 2 | bound_bits,
            was_pv: u8::from(was_pv),
        };
    }

    /// Permille of a sample of slots filled in the current search.
    pub(crate) fn hashfull(&self) -> u32 {
        let sample = self.entries.len().min(1000);
        let used = self.entries[..sample]
            .iter()
            .filter(|e| e.age_bound != 0 && e.age_bound >> 2 == self.generation)
            .count();
        (used * 1000 / sample.max(1)) as u32
    }
}

/// The table's memory: aligned to 2 MiB and, on Linux, marked for transparent huge pages, so
/// that a probe at a random slot does not also miss the TLB (with 4 KiB pages every probe of a
/// large table walks the page tables, which a prefetch cannot hide).
struct Slots {
    ptr: std::ptr::NonNull<Entry>,
    len: usize,
    layout: std::alloc::Layout,
}

const HUGE_PAGE: usize = 2 << 20;

impl Slots {
    fn new(len: usize) -> Slots {
        let len = len.max(1);
        let size = len * std::mem::size_of::<Entry>();
        let layout = std::alloc::Layout::from_size_align(size, HUGE_PAGE)
            .unwrap_or_else(|_| panic!("transposition table of {size} bytes"));
        // SAFETY: the layout has a non-zero size.
        let raw = unsafe { std::alloc::alloc(layout) };
        let Some(ptr) = std::ptr::NonNull::new(raw.cast::<Entry>()) else {
            std::alloc::handle_alloc_error(layout)
        };
        #[cfg(target_os = "linux")]
        // SAFETY: advice on memory we own; it changes no contents, and a failure only means
        // ordinary pages.
        unsafe {
            libc::madvise(raw.cast(), size, libc::MADV_HUGEPAGE);
        }
        let mut slots = Slots { ptr, len, layout };
        // Pages are touched (and so backed) only here, after the advice.
        slots.zero();
        slots
    }

    /// Empties every slot (an all-zero entry is an empty slot), as one `memset`.
    fn zero(&mut self) {
        // SAFETY: `ptr` is valid for `len` entries, and all-zero bytes are a valid `Entry`.
        unsafe { std::ptr::write_bytes(self.ptr.as_ptr(), 0, self.len) };
    }
}

impl std::ops::Deref for Slots {
    type Target = [Entry];
    fn deref(&self) -> &[Entry] {
        // SAFETY: `ptr` holds `len` initialised entries for as long as `self` lives.
        unsafe { std::slice::from_raw_parts(self.ptr.as_ptr(), self.len) }
    }
}

impl std::ops::DerefMut for Slots {
    fn deref_mut(&mut self) -> &mut [Entry] {
        // SAFETY: as in `deref`, and `&mut self` makes the borrow unique.
        unsafe { std::slice::from_raw_parts_mut(self.ptr.as_ptr(), self.len) }
    }
}

impl Drop for Slots {
    fn drop(&mut self) {
        // SAFETY: allocated in `Slots::new` with this layout.
        unsafe { std::alloc::dealloc(self.ptr.as_ptr().cast(), self.layout) }
    }
}

// SAFETY: `Slots` owns its entries (plain data) exactly as a `Box<[Entry]>` would.
unsafe impl Send for Slots {}
// SAFETY: shared access only reads, as for `Box<[Entry]>`.
unsafe impl Sync for Slots {}

/// Mate scores are stored relative to the node (plies to mate from here), not to the root.
fn score_to_tt(score: i32, ply: usize) -> i32 {
    let ply = ply as i32;
    if score >= MATE_BOUND {
        score + ply
    } else if score <= -MATE_BOUND {
        score - ply
    } else {
        score
    }
}

fn score_from_tt(score: i32, ply: usize) -> i32 {
    let ply = ply as i32;
    if score >= MATE_BOUND {
        score - ply
    } else if score <= -MATE_BOUND {
        score + ply
    } else {
        score
    }
}

const _: () = assert!(std::mem::size_of::<Entry>() == 16);
const _: () = assert!(MAX_PLY < 256);

#[cfg(test)]
mod tests {
    use super::*;
    use crate::search::score::MATE;

    #[test]
    fn bounds_settle_windows_and_beat_estimates_on_their_own_side() {
        // The window (10, 20): a lower bound settles it from beta up, an upper one from
        // alpha down, an exact score always.
        assert!(Bound::Exact.settles(15, 10, 20));
        assert!(Bound::Lower.settles(20, 10, 20) && !Bound::Lower.settles(19, 10, 20));
        assert!(Bound::Upper.settles(10, 10, 20) && !Bound::Upper.settles(11, 10, 20));
        // Against an estimate of 50: a bound beats it only strictly, on its own side.
        assert!(Bound::Exact.beyond(50, 50) && Bound::Exact.beyond(-7, 50));
        assert!(Bound::Lower.beyond(51, 50) && !Bound::Lower.beyond(50, 50));
        assert!(!Bound::Lower.beyond(10, 50));
        assert!(Bound::Upper.beyond(49, 50) && !Bound::Upper.beyond(50, 50));
        assert!(!Bound::Upper.beyond(90, 50));
    }

    #[test]
    fn mate_scores_are_stored_relative_to_the_node() {
        let mut tt = TranspositionTable::new(1);
        // Mate in 3 plies from a node at ply 5 is MATE - 8 at the root...
        tt.store(42, 5, 4, MATE - 8, Bound::Exact, PackedMove::NONE, false);
        // ...and MATE - 5 when the same position is met at ply 2.
        let hit = tt.probe(42, 2).unwrap();
        assert_eq!(hit.score, MATE - 5);
        assert_eq!(hit.bound, Bound::Exact);
        assert!(!hit.was_pv);
        tt.store(43, 3, 4, -(MATE - 6), Bound::Upper, PackedMove::NONE, false);
        assert_eq!(tt.probe(43, 1).unwrap().score, -(MATE - 4));
        assert!(tt.probe(44, 0).is_none());
        // The PV mark is kept with the entry.
        tt.store(45, 0, 2, 7, Bound::Upper, PackedMove::NONE, true);
        assert!(tt.probe(45, 0).unwrap().was_pv);
        tt.clear();
        assert!(tt.probe(42, 2).is_none());
        // A clean table stays clean; a store makes it need zeroing again.
        tt.clear();
        assert!(tt.probe(43, 1).is_none());
        tt.store(42, 0, 1, 5, Bound::Lower, PackedMove::NONE, false);
        tt.clear();
        assert!(tt.probe(42, 0).is_none());
        assert_eq!(tt.megabytes(), 1);
    }
}
