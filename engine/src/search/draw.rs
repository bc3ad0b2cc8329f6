//! Draw detection the move generator does not do: repetitions (with the game's history) and
//! the fifty-move rule. Insufficient material comes from shakmaty.

use shakmaty::{Chess, Position};

use super::score::MAX_PLY;

/// Keys of the game's positions followed by those on the current search path.
pub(crate) struct KeyStack {
    keys: Vec<u64>,
    /// Index of the root position in `keys`.
    root: usize,
}

impl KeyStack {
    pub(crate) fn new() -> Self {
        KeyStack {
            keys: Vec::new(),
            root: 0,
        }
    }

    /// Starts a search: the game's earlier positions, then the root. Allocates here, once per
    /// search, so that [`KeyStack::set`] never does.
    pub(crate) fn reset(&mut self, history: &[u64], root_key: u64) {
        self.keys.clear();
        self.keys.extend_from_slice(history);
        self.root = self.keys.len();
        self.keys.push(root_key);
        self.keys.resize(self.root + MAX_PLY + 2, 0);
    }

    /// Records the key of the position at `ply`.
    #[inline]
    pub(crate) fn set(&mut self, ply: usize, key: u64) {
        self.keys[self.root + ply] = key;
    }

    /// The key of the position at `ply` (already [`set`](KeyStack::set)).
    #[inline]
    pub(crate) fn get(&self, ply: usize) -> u64 {
        self.keys[self.root + ply]
    }

    /// Whether the position at `ply` (already [`set`](KeyStack::set)) repeats: once when the
    /// earlier occurrence is on the search path (the root included), since the side that can
    /// repeat can repeat again; twice when both are in the game before the root (threefold).
    /// `halfmoves` bounds the search: no repetition crosses an irreversible move.
    #[inline]
    pub(crate) fn is_repetition(&self, ply: usize, halfmoves: u32) -> bool {
        let current = self.root + ply;
        let key = self.keys[current];
        let oldest = current.saturating_sub(halfmoves as usize);
        let mut earlier_in_game = 0;
        let mut i = current;
        while i >= oldest + 2 {
            i -= 2;
            if self.keys[i] == key {
                if i >= self.root {
                    return true;
                }
                earlier_in_game += 1;
                if earlier_in_game >= 2 {
                    return true;
                }
            }
        }
        false
    }
}

/// Whether neither side has the material to mate (shakmaty's rule). A pawn, rook or queen on
/// the board, as in nearly every node, answers no by a test inlined here, before the call.
#[inline(always)]
pub(crate) fn is_insufficient_material(pos: &Chess) -> bool {
    let board = pos.board();
    (board.pawns() | board.rooks_and_queens()).is_empty() && pos.is_insufficient_material()
}

/// Fifty moves by each side without a capture or pawn move.
#[inline]
pub(crate) fn is_fifty_move_draw(halfmoves: u32) -> bool {
    halfmoves >= 100
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn twofold_in_tree_threefold_in_game() {
        let mut stack = KeyStack::new();
        // Game: A B A B, root A (third occurrence of A).
        stack.reset(&[1, 2, 1, 2], 1);
        assert!(stack.is_repetition(0, 10));
        // A halfmove clock of 2 hides the older occurrences.
        assert!(!stack.is_repetition(0, 2));
        // Game: A C, root B; in the tree B → A → B repeats the root: a draw.
        stack.reset(&[1, 3], 2);
        stack.set(1, 1);
        stack.set(2, 2);
        assert!(stack.is_repetition(2, 10));
        // In the tree, A again: once before the root only, not yet threefold.
        stack.set(1, 5);
        stack.set(2, 1);
        assert!(!stack.is_repetition(2, 10));
    }
}
