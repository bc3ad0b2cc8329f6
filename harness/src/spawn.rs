//! Starting child processes robustly.

use std::io;
use std::process::{Child, Command};
use std::thread;
use std::time::Duration;

/// How often a spawn refused with "text file busy" is tried again.
const BUSY_RETRIES: u32 = 50;

/// [`Command::spawn`], retried while the kernel answers ETXTBSY.
///
/// An executable that was just written (a freshly built or copied engine, a test's script) can
/// still be open for writing in a child that another thread forked before the file was closed;
/// `exec` then fails with "text file busy" until that child has exec'd. The window is short, so
/// a few retries make the spawn reliable.
pub fn spawn(command: &mut Command) -> io::Result<Child> {
    let mut attempt = 0;
    loop {
        match command.spawn() {
            Err(err)
                if err.kind() == io::ErrorKind::ExecutableFileBusy && attempt < BUSY_RETRIES =>
            {
                attempt += 1;
                thread::sleep(Duration::from_millis(10));
            }
            result => return result,
        }
    }
}
