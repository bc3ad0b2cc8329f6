//! Matchmaking: game pairs from a book, parallel play, SPRT stop and resume.
