//! Ctrl-C and SIGTERM: the first asks the run to stop cleanly (the stop flag every runner
//! takes), the second exits at once (every finished game is already on disk).

use std::sync::Once;
use std::sync::atomic::{AtomicBool, Ordering};

static INTERRUPT: AtomicBool = AtomicBool::new(false);
static HANDLER: Once = Once::new();

/// Installs the handler (once) and returns the flag it sets, cleared.
pub fn stop_flag() -> &'static AtomicBool {
    HANDLER.call_once(|| {
        let result = ctrlc::set_handler(|| {
            if INTERRUPT.swap(true, Ordering::SeqCst) {
                eprintln!("\nsecond interrupt: exiting now");
                std::process::exit(130);
            }
            eprintln!(
                "\ninterrupt: stopping after writing the finished games (Ctrl-C again to exit now)"
            );
        });
        if let Err(e) = result {
            eprintln!("warning: cannot catch Ctrl-C: {e}");
        }
    });
    INTERRUPT.store(false, Ordering::SeqCst);
    &INTERRUPT
}
