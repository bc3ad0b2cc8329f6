//! The match runner as a library: a typed match specification ([`MatchConfig`]), a runner
//! that plays any set of game pairs on N threads ([`play_pairs`]) and reports typed
//! [`Event`]s to [`Listener`]s, and a match in a results folder with resume and the SPRT
//! stop ([`run_match`]). No terminal and no command line here: commands build the
//! configuration and choose the listeners.
//!
//! ```no_run
//! use std::sync::atomic::AtomicBool;
//! use harness::runner::{Control, EngineConfig, MatchConfig, play_pairs};
//! use harness::scoreboard::Scoreboard;
//!
//! let config = MatchConfig::new(
//!     EngineConfig::builtin("dev", &[("delta_margin", 150)]).unwrap(),
//!     EngineConfig::builtin("base", &[]).unwrap(),
//!     20,
//! );
//! let mut board = Scoreboard::new("dev", "base", None);
//! let stop = AtomicBool::new(false);
//! let pairs: Vec<u64> = (0..10).collect();
//! let mut quiet = |_: &harness::runner::Event<'_>, _: &Scoreboard| Ok(Control::Continue);
//! play_pairs(&config, None, &pairs, &mut board, &stop, &mut quiet).unwrap();
//! println!("{:?}", board.summary(None).elo);
//! ```

pub mod config;
pub mod event;
pub mod external;
pub mod play;
pub mod session;

pub use config::{EngineConfig, ExternalEngine, GitBuild, MatchConfig, SprtSettings};
pub use event::{Control, Event, Listener, Listeners};
pub use play::{
    RunOutcome, first_engine_points_x2, game_row, make_players, opening_for_pair, play_pairs,
};
pub use session::{MatchOutcome, Start, count_folder, run_match};
