//! The engine's `spsa-input` lines are read back by the SPSA core as the same parameters.

use engine::params::{self, Params};
use harness::spsa::{ValueKind, input};

#[test]
fn registry_input_parses_to_the_registry_values() {
    let ids = params::select("search,king_distance_factor,mate_edge_*").unwrap();
    let text = params::spsa_input(&ids, &Params::default());
    let defs = input::parse(&text, "spsa-input").unwrap();
    assert_eq!(defs.len(), ids.len());
    for (def, &id) in defs.iter().zip(&ids) {
        let spec = &params::specs()[id];
        assert_eq!(def.name, spec.name);
        assert_eq!(def.kind, ValueKind::Int);
        assert_eq!(def.start, f64::from(spec.default));
        assert_eq!(
            (def.min, def.max),
            (f64::from(spec.min), f64::from(spec.max))
        );
        assert_eq!((def.c_end, def.r_end), (spec.spsa.c_end, spec.spsa.r_end));
    }
    assert_eq!(input::write(&defs), text);
}
