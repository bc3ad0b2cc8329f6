//! Match statistics: Elo, pentanomial counts and the SPRT. Knows nothing of chess.
