//! The match runner as a library: a typed match specification ([`MatchConfig`]), a runner
//! that plays any set of game pairs on N threads ([`play_pairs`]) and reports typed
//! [`Event`]s to [`Listener`]s, and a match in a results folder with resume and the SPRT
//! stop ([`run_match`]). No terminal and no command line here: commands build the
//! configuration and choose the listeners.
//!
//! Ten pairs of our engine against itself with a wider delta margin, 500 nodes a move:
//!
//! ```
//! use std::sync::atomic::AtomicBool;
//! use harness::runner::{Control, EngineConfig, Event, MatchConfig, play_pairs};
//! use harness::scoreboard::Scoreboard;
//!
//! let mut dev = EngineConfig::builtin("dev", &[("delta_margin", 400)])?;
//! let mut base = EngineConfig::builtin("base", &[])?;
//! dev.limits.nodes = Some(500);
//! base.limits.nodes = Some(500);
//! let config = MatchConfig::new(dev, base, 20);
//!
//! let mut board = Scoreboard::new("dev", "base", None);
//! let mut on_event = |event: &Event<'_>, _: &Scoreboard| {
//!     if let Event::GameFinished { row, reason, .. } = event {
//!         println!("game {}: {} {{{reason}}}", row.game, row.result);
//!     }
//!     Ok(Control::Continue)
//! };
//! play_pairs(&config, None, 0..10, &mut board, &AtomicBool::new(false), &mut on_event)?;
//! let summary = board.summary(None);
//! assert_eq!(summary.games, 20);
//! println!("Elo {:+.1} +/- {:.1}", summary.elo.unwrap_or(0.0), summary.elo_err95.unwrap_or(0.0));
//! # anyhow::Ok(())
//! ```

pub mod config;
pub mod event;
pub mod external;
pub mod folder_lock;
pub mod play;
pub mod session;

pub use config::{EngineConfig, ExternalEngine, GitBuild, MatchConfig, SprtSettings};
pub use event::{Control, Event, Listener, Listeners};
pub use play::{
    RunOutcome, first_engine_points_x2, game_row, make_players, opening_for_pair, play_pairs,
};
pub use session::{MatchOutcome, Start, count_folder, run_match};
