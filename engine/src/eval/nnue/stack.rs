//! The accumulators of the positions along the search's current line, one per ply, brought
//! up to date only when a position is evaluated. Most children the search makes are never
//! evaluated (table cut-offs, pruned moves, evaluations found in the cache), so a child
//! records only the move that made it; the first evaluation below it applies the moves
//! from the nearest accumulator already computed. A king move into another king bucket
//! (king-bucketed networks) records the board it makes too, from which that side's half is
//! recomputed.

use shakmaty::{Board, Color, Move};

use super::accumulator::board_after_king_move;
use super::{Accumulator, Network, OutputBucket};

/// How the accumulator at a ply relates to the one before it.
#[derive(Clone, Copy, Debug)]
enum Link {
    /// Computed for the position now at this ply.
    Ready,
    /// Not yet computed: the position is the previous ply's after `Color` played `Move`.
    After(Color, Move),
    /// Not yet computed: the position is the previous ply's after a null move.
    Null,
    /// Not yet computed: the position, `boards[ply]`, is the previous ply's after `Color`
    /// played `Move`, a king move into another king bucket.
    Refresh(Color, Move),
}

/// `accumulators[ply]`, valid where `links[ply]` is [`Link::Ready`]; ply 0 always is.
pub struct AccumulatorStack {
    accumulators: Vec<Accumulator>,
    links: Vec<Link>,
    /// `[ply]`: the board, where `links[ply]` is [`Link::Refresh`].
    boards: Vec<Board>,
}

impl AccumulatorStack {
    /// A stack for lines of up to `plies` positions after the root.
    pub fn new(plies: usize) -> Self {
        AccumulatorStack {
            accumulators: vec![Accumulator::default(); plies + 1],
            links: vec![Link::Ready; plies + 1],
            boards: vec![Board::empty(); plies + 1],
        }
    }

    /// Sets the root (ply 0) to `board`, computed from scratch.
    pub fn set_root(&mut self, net: &Network, board: &Board) {
        self.accumulators[0] = Accumulator::new(net, board);
        self.links[0] = Link::Ready;
    }

    /// Records that the position at `ply + 1` is the one at `ply`, `board`, after `us` played
    /// `m`.
    #[inline(always)]
    pub fn set_child(&mut self, net: &Network, ply: usize, board: &Board, us: Color, m: Move) {
        self.links[ply + 1] = if Accumulator::needs_refresh(net, board, us, m) {
            self.boards[ply + 1] = board_after_king_move(board, us, m);
            Link::Refresh(us, m)
        } else {
            Link::After(us, m)
        };
    }

    /// Records that the position at `ply + 1` is the one at `ply` after a null move.
    #[inline(always)]
    pub fn set_null_child(&mut self, ply: usize) {
        self.links[ply + 1] = Link::Null;
    }

    /// The accumulator of the position at `ply`, computing it (and those of the plies
    /// before it that are still missing) from the last computed one.
    #[inline]
    pub fn get(&mut self, net: &Network, ply: usize) -> &Accumulator {
        let ready = self.last_ready(ply);
        if ready < ply {
            self.apply(net, ready, ply);
        }
        &self.accumulators[ply]
    }

    /// The network's output for the position at `ply` with `stm` to move, from the output
    /// layer of `bucket` ([`Accumulator::evaluate`] of [`AccumulatorStack::get`]), in one
    /// call compiled for the CPU.
    #[inline]
    pub fn evaluate(&mut self, net: &Network, ply: usize, stm: Color, bucket: OutputBucket) -> i32 {
        #[cfg(target_arch = "x86_64")]
        if crate::cpu::has_avx2() {
            // SAFETY: the CPU has AVX2.
            return unsafe { self.evaluate_avx2(net, ply, stm, bucket) };
        }
        self.get(net, ply).evaluate(net, stm, bucket)
    }

    /// [`AccumulatorStack::evaluate`] compiled for AVX2: the walk, its updates and the
    /// output in one call.
    #[cfg(target_arch = "x86_64")]
    #[target_feature(enable = "avx2")]
    fn evaluate_avx2(
        &mut self,
        net: &Network,
        ply: usize,
        stm: Color,
        bucket: OutputBucket,
    ) -> i32 {
        let ready = self.last_ready(ply);
        if ready < ply {
            self.apply_portable(net, ready, ply);
        }
        self.accumulators[ply].evaluate_avx2(net, stm, bucket)
    }

    /// The last ply at or before `ply` whose accumulator is computed.
    #[inline(always)]
    fn last_ready(&self, ply: usize) -> usize {
        let mut ready = ply;
        while !matches!(self.links[ready], Link::Ready) {
            ready -= 1;
        }
        ready
    }

    /// Computes the accumulators of plies `ready + 1..=ply` from the one at `ready`.
    #[inline]
    fn apply(&mut self, net: &Network, ready: usize, ply: usize) {
        #[cfg(target_arch = "x86_64")]
        if crate::cpu::has_avx2() {
            // SAFETY: the CPU has AVX2.
            return unsafe { self.apply_avx2(net, ready, ply) };
        }
        self.apply_portable(net, ready, ply)
    }

    /// [`AccumulatorStack::apply`] compiled for AVX2, whose registers add 16 values at once:
    /// one call for the walk, the updates inlined in it.
    #[cfg(target_arch = "x86_64")]
    #[target_feature(enable = "avx2")]
    fn apply_avx2(&mut self, net: &Network, ready: usize, ply: usize) {
        self.apply_portable(net, ready, ply)
    }

    #[inline(always)]
    fn apply_portable(&mut self, net: &Network, ready: usize, ply: usize) {
        let (first, children) = self.accumulators[ready..=ply]
            .split_first_mut()
            .expect("the line holds the ready ply");
        let mut parent = &*first;
        let boards = &self.boards[ready + 1..=ply];
        for ((link, child), board) in self.links[ready + 1..=ply]
            .iter_mut()
            .zip(children)
            .zip(boards)
        {
            match *link {
                Link::After(us, m) => parent.after_portable(net, us, m, child),
                Link::Refresh(us, m) => parent.after_refreshing(net, us, m, board, child),
                Link::Null => *child = *parent,
                Link::Ready => unreachable!("the walk stopped at the last ready ply"),
            }
            *link = Link::Ready;
            parent = child;
        }
    }
}

#[cfg(test)]
mod tests {
    use shakmaty::fen::Fen;
    use shakmaty::{CastlingMode, Chess, Position, Role};

    use super::*;
    use crate::eval::nnue::network::{sample, sample_king_bucketed};

    /// Along a line with a null move, positions evaluated out of order and a ply revisited
    /// after a sibling, every accumulator the stack gives is the recomputed one. King moves
    /// are tried first, so that a king-bucketed network's line crosses buckets.
    fn check_line(net: &Network, root: Chess) {
        let mut stack = AccumulatorStack::new(8);
        stack.set_root(net, root.board());
        let mut line = vec![root];
        let mut ply = 0;
        // Make a child for each of several moves of every ply, reading only some of them.
        for step in 0..6 {
            let pos = line[ply].clone();
            let mut moves = pos.legal_moves();
            moves.sort_by_key(|m| m.role() != Role::King);
            for (i, m) in moves.iter().enumerate().take(3) {
                stack.set_child(net, ply, pos.board(), pos.turn(), *m);
                if (i + step) % 2 == 0 {
                    let mut child = pos.clone();
                    child.play_unchecked(*m);
                    let expected = Accumulator::new(net, child.board());
                    if step % 3 == 0 {
                        // The output straight from the stack brings the line up to date too.
                        let bucket = OutputBucket::of(child.board());
                        assert_eq!(
                            stack.evaluate(net, ply + 1, child.turn(), bucket),
                            expected.evaluate(net, child.turn(), bucket)
                        );
                    }
                    assert_eq!(*stack.get(net, ply + 1), expected);
                }
            }
            let m = moves[step % moves.len()];
            stack.set_child(net, ply, pos.board(), pos.turn(), m);
            let mut child = pos.clone();
            child.play_unchecked(m);
            line.truncate(ply + 1);
            line.push(child);
            ply += 1;
            if step == 2 && !line[ply].is_check() {
                // A null move: the same pieces with the other side to move.
                stack.set_null_child(ply);
                let null = line[ply].clone().swap_turn().expect("not in check");
                line.push(null);
                ply += 1;
            }
        }
        // Nothing on the line was read since its moves were made: all of it comes at once.
        assert_eq!(
            *stack.get(net, ply),
            Accumulator::new(net, line[ply].board())
        );
        for (p, pos) in line.iter().enumerate().take(ply + 1) {
            assert_eq!(*stack.get(net, p), Accumulator::new(net, pos.board()));
        }
    }

    #[test]
    fn lazy_accumulators_equal_recomputed_ones() {
        let castles: Chess = "r3k2r/pp3ppp/8/8/8/8/PP3PPP/R3K2R w KQkq - 0 1"
            .parse::<Fen>()
            .unwrap()
            .into_position(CastlingMode::Standard)
            .unwrap();
        for net in [sample(7).quantise(), sample_king_bucketed(7).quantise()] {
            check_line(&net, Chess::default());
            check_line(&net, castles.clone());
        }
    }
}
