//! Networks read from files at run time (UCI's `EvalFile`), beside the built-in one.

use std::hash::{DefaultHasher, Hash, Hasher};
use std::path::Path;
use std::sync::Mutex;

use super::Network;

/// Every network read so far, by a hash of its file's bytes. The search holds networks as
/// `&'static`, so each distinct network stays for the process's life (about 200 KB); the
/// same bytes read again share the first copy, so a GUI that sends the same `EvalFile`
/// every game does not grow the process.
static LOADED: Mutex<Vec<(u64, &'static Network)>> = Mutex::new(Vec::new());

/// Reads the network file at `path`; the error names the file and what is wrong with it.
pub fn load(path: &Path) -> Result<&'static Network, String> {
    let bytes = std::fs::read(path).map_err(|e| format!("{}: {e}", path.display()))?;
    let mut hasher = DefaultHasher::new();
    bytes.hash(&mut hasher);
    let key = hasher.finish();
    let mut loaded = LOADED
        .lock()
        .unwrap_or_else(|poisoned| poisoned.into_inner());
    if let Some(&(_, network)) = loaded.iter().find(|(k, _)| *k == key) {
        return Ok(network);
    }
    let network = Network::from_bytes(&bytes).map_err(|e| format!("{}: {e}", path.display()))?;
    let network: &'static Network = Box::leak(Box::new(network));
    loaded.push((key, network));
    Ok(network)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_file_is_read_once_and_bad_files_are_named() {
        let dir = std::env::temp_dir().join(format!("nnue-file-test-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let good = dir.join("default.nnue");
        std::fs::write(&good, include_bytes!("../../../nets/default.nnue")).unwrap();
        let first = load(&good).unwrap();
        let again = load(&good).unwrap();
        assert!(std::ptr::eq(first, again));
        assert!(first.is_residual());

        let bad = dir.join("bad.nnue");
        std::fs::write(&bad, b"not a network").unwrap();
        let err = load(&bad).unwrap_err();
        assert!(err.starts_with(&format!("{}: ", bad.display())), "{err}");
        let err = load(&dir.join("missing.nnue")).unwrap_err();
        assert!(err.contains("missing.nnue"), "{err}");
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
