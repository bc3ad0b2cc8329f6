//! King safety from the pawns around the king: shelter and open files, and the shelter and
//! storm tables by file and distance.

use shakmaty::{Bitboard, Board, Color, File, Rank, attacks};

use super::pawns::{file_and_neighbours, ranks_ahead};
use super::{Sink, sign};
use crate::params::feature;

/// The squares an attack on the king counts on: the king's square and its neighbours.
#[inline]
pub(super) fn king_zone(board: &Board, color: Color) -> Bitboard {
    match board.king_of(color) {
        Some(king) => attacks::king_attacks(king) | Bitboard::from_square(king),
        None => Bitboard::EMPTY,
    }
}

/// Own pawns one or two ranks ahead of the king on its and the neighbouring files (shelter),
/// and how many of those three files hold no own pawn at all (open files next to the king).
#[inline(always)]
pub(super) fn king_pawns<S: Sink>(board: &Board, color: Color, sink: &mut S) {
    let Some(king) = board.king_of(color) else {
        return;
    };
    let s = sign(color);
    let ours = board.pawns() & board.by_color(color);
    let files = file_and_neighbours(king.file());
    let rank = u32::from(king.rank());
    let mut near_ranks = Bitboard::EMPTY;
    for step in 1..=2 {
        let r = match color {
            Color::White => rank + step,
            Color::Black => rank.wrapping_sub(step),
        };
        if r < 8 {
            near_ranks |= Bitboard::from_rank(Rank::new(r));
        }
    }
    let shelter = (ours & files & near_ranks).count() as i32;
    sink.add(feature::KING_SHELTER, s * shelter);
    let first = king.file().to_u32().saturating_sub(1);
    let last = (king.file().to_u32() + 1).min(7);
    let open = (first..=last)
        .filter(|&f| (ours & Bitboard::from_file(File::new(f))).is_empty())
        .count() as i32;
    sink.add(feature::KING_OPEN_FILE, s * open);
}

/// The shelter and storm table entries of `color`'s king ([`feature::SHELTER`],
/// [`feature::STORM`]): on each of the three files around it (the king's file clamped to
/// b..g), the closest own and the closest enemy pawn ahead of the king, by distance in ranks.
#[inline(always)]
pub(super) fn shelter_and_storm<S: Sink>(board: &Board, color: Color, sink: &mut S) {
    let Some(king) = board.king_of(color) else {
        return;
    };
    let s = sign(color);
    let ours = board.pawns() & board.by_color(color);
    let theirs = board.pawns() & board.by_color(!color);
    let ahead = ranks_ahead(king, color);
    let king_file = king.file().to_u32();
    let centre = king_file.clamp(1, 6);
    for file in centre - 1..=centre + 1 {
        let on_file = Bitboard::from_file(File::new(file)) & ahead;
        // The closest pawn ahead is the lowest square for White, the highest for Black.
        let distance = |pawns: Bitboard| {
            let pawns = pawns & on_file;
            match color {
                Color::White => pawns.first(),
                Color::Black => pawns.last(),
            }
            .map_or(0, |sq| {
                u32::from(sq.rank()).abs_diff(u32::from(king.rank()))
            })
        };
        let (own, enemy) = (distance(ours), distance(theirs));
        let shelter = 56 * usize::from(file == king_file) + 7 * file as usize + own as usize;
        sink.add(feature::SHELTER + shelter, s);
        let folded = file.min(7 - file) as usize;
        let storm = if own != 0 && enemy == own + 1 {
            28 + 5 * folded + enemy as usize - 2
        } else {
            7 * folded + enemy as usize
        };
        sink.add(feature::STORM + storm, s);
    }
}

#[cfg(test)]
mod tests {
    use crate::params::feature::{self, name};
    use crate::testing::coefficients;

    /// The shelter and storm entries of a position, by name, with their coefficients.
    fn entries(fen: &str) -> Vec<(String, i32)> {
        let mut out: Vec<(String, i32)> = coefficients(fen)
            .into_iter()
            .filter(|&(f, c)| (feature::SHELTER..feature::TAPERED_FEATURES).contains(&f) && c != 0)
            .map(|(f, c)| (name(f), c))
            .collect();
        out.sort();
        out
    }

    #[test]
    fn castled_king_behind_its_pawns_against_a_storm() {
        // White Kg1, pawns f2 g3 h2; Black pawns g4 (blocked by g3) and h5; Black Kb8 behind
        // a7 b7 c7, no White pawn on a..c.
        let fen = "1k6/ppp5/8/7p/6p1/6P1/5P1P/6K1 w - - 0 1";
        let want = [
            // White's king on g1: files f, g, h.
            ("shelter_f_1", 1),
            ("shelter_king_file_g_2", 1),
            ("shelter_h_1", 1),
            ("storm_cf_none", 1),
            ("storm_blocked_bg_3", 1),
            ("storm_ah_4", 1),
            // Black's king on b8: files a, b, c, each with its pawn one rank ahead, no storm.
            ("shelter_a_1", -1),
            ("shelter_king_file_b_1", -1),
            ("shelter_c_1", -1),
            ("storm_ah_none", -1),
            ("storm_bg_none", -1),
            ("storm_cf_none", -1),
        ];
        let mut want: Vec<(String, i32)> = want.iter().map(|&(n, c)| (n.to_string(), c)).collect();
        // storm_cf_none appears for both sides and cancels.
        want.retain(|(n, _)| n != "storm_cf_none");
        want.sort();
        assert_eq!(entries(fen), want);
    }

    #[test]
    fn mirrored_position_gives_opposite_entries() {
        let white = entries("1k6/ppp5/8/7p/6p1/6P1/5P1P/6K1 w - - 0 1");
        let black = entries("6k1/5p1p/6p1/6P1/7P/8/PPP5/1K6 b - - 0 1");
        let negated: Vec<(String, i32)> = white.into_iter().map(|(n, c)| (n, -c)).collect();
        assert_eq!(black, negated);
    }

    #[test]
    fn every_entry_has_its_own_name() {
        let names: std::collections::HashSet<String> = (feature::SHELTER
            ..feature::TAPERED_FEATURES)
            .map(name)
            .collect();
        assert_eq!(names.len(), feature::SHELTER_SIZE + feature::STORM_SIZE);
        assert!(names.contains("storm_blocked_de_6"));
        assert!(names.contains("shelter_king_file_h_none"));
    }
}
