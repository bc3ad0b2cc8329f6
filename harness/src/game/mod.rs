//! One game between two players: players (in-process and UCI), clocks, adjudication and
//! how a game ends.
