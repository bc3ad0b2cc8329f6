//! The network built into the engine: `engine/nets/default.nnue`.

use std::sync::OnceLock;

use super::Network;

static BYTES: &[u8] = include_bytes!("../../../nets/default.nnue");

/// The built-in network, read once.
pub fn embedded() -> &'static Network {
    static NETWORK: OnceLock<Network> = OnceLock::new();
    NETWORK.get_or_init(|| {
        // A file of the wrong shape fails `the_embedded_network_reads`, never a user's run.
        Network::from_bytes(BYTES).unwrap_or_else(|err| panic!("engine/nets/default.nnue: {err}"))
    })
}

#[cfg(test)]
mod tests {
    #[test]
    fn the_embedded_network_reads() {
        super::Network::from_bytes(super::BYTES).expect("engine/nets/default.nnue");
    }
}
