//! One run at a time in a results folder: an OS lock on `DIR/.harness.lock`, held while the
//! run writes and released on any exit (a crash or SIGKILL included).

use std::fs::{File, OpenOptions, TryLockError};
use std::io::Write;
use std::path::Path;

use anyhow::Context;

use crate::UsageError;

/// The held lock; dropping it releases the folder.
#[derive(Debug)]
pub struct FolderLock {
    _file: File,
}

/// Locks `dir` for this process, or says who holds it.
pub fn lock_folder(dir: &Path) -> anyhow::Result<FolderLock> {
    let path = dir.join(".harness.lock");
    let mut file = OpenOptions::new()
        .create(true)
        .truncate(false)
        .read(true)
        .write(true)
        .open(&path)
        .with_context(|| format!("cannot open {}", path.display()))?;
    match file.try_lock() {
        Ok(()) => {
            let holder = format!(
                "pid {}: {}",
                std::process::id(),
                std::env::args().collect::<Vec<_>>().join(" ")
            );
            file.set_len(0)
                .and_then(|()| file.write_all(holder.as_bytes()))
                .with_context(|| format!("cannot write {}", path.display()))?;
            Ok(FolderLock { _file: file })
        }
        Err(TryLockError::WouldBlock) => {
            let holder = std::fs::read_to_string(&path).unwrap_or_default();
            Err(UsageError(format!(
                "{} is in use by another harness run ({}); wait for it to end or stop it",
                dir.display(),
                if holder.is_empty() {
                    "unknown process"
                } else {
                    holder.trim()
                }
            ))
            .into())
        }
        Err(TryLockError::Error(e)) => {
            Err(anyhow::Error::new(e).context(format!("cannot lock {}", path.display())))
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_second_lock_names_the_holder_and_the_first_release_frees_it() {
        let tmp = tempfile::tempdir().unwrap();
        let first = lock_folder(tmp.path()).unwrap();
        let err = lock_folder(tmp.path()).unwrap_err().to_string();
        assert!(err.contains("in use by another harness run (pid "), "{err}");
        assert!(err.contains(&std::process::id().to_string()), "{err}");
        drop(first);
        lock_folder(tmp.path()).unwrap();
    }
}
