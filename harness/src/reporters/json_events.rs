//! Every event as one JSON object a line (`--events FILE`, `-` for stdout), for tools. The
//! format is described by `harness/schemas/events.schema.json`, which a test validates the
//! output against.

use std::io::Write;

use crate::runner::{Control, Event, Listener};
use crate::scoreboard::Scoreboard;

/// Writes each event as a JSON line and flushes it.
pub struct JsonEvents<W: Write> {
    out: W,
}

impl<W: Write> JsonEvents<W> {
    pub fn new(out: W) -> Self {
        JsonEvents { out }
    }
}

impl<W: Write> Listener for JsonEvents<W> {
    fn on_event(&mut self, event: &Event<'_>, _: &Scoreboard) -> anyhow::Result<Control> {
        serde_json::to_writer(&mut self.out, event)?;
        self.out.write_all(b"\n")?;
        self.out.flush()?;
        Ok(Control::Continue)
    }
}
