//! `summarize` and its two outputs (fastchess text, JSON) on ordinary and edge-case results.

use harness::stats::{EloModel, Pentanomial, SprtConfig, SprtState, Summary, Trinomial, summarize};

const KEYS: [&str; 12] = [
    "games",
    "elo",
    "elo_err95",
    "los",
    "draw_ratio",
    "nelo",
    "nelo_err95",
    "llr",
    "llr_lower",
    "llr_upper",
    "state",
    "model",
];

fn json(summary: &Summary) -> serde_json::Map<String, serde_json::Value> {
    let value: serde_json::Value = serde_json::from_str(&summary.to_json()).expect("valid JSON");
    let map = value.as_object().expect("an object").clone();
    let mut keys: Vec<&str> = map.keys().map(String::as_str).collect();
    keys.sort_unstable();
    let mut want = KEYS.to_vec();
    want.sort_unstable();
    assert_eq!(keys, want);
    map
}

fn no_nan_or_inf(text: &str) {
    let lower = text.to_ascii_lowercase();
    assert!(!lower.contains("nan") && !lower.contains("inf"), "{text}");
}

#[test]
fn worked_example_text_and_json() {
    let logistic = SprtConfig {
        model: EloModel::Logistic,
        ..SprtConfig::default()
    };
    let s = summarize(&Trinomial::new(880, 1863, 759), None, Some(&logistic));
    assert_eq!(
        s.fastchess_text(),
        "Elo: 12.01 +/- 7.87, nElo: 17.57 +/- 11.52\n\
         LOS: 99.86 %, DrawRatio: 53.20 %\n\
         Games: 3502, Wins: 880, Losses: 759, Draws: 1863, Points: 1811.5 (51.73 %)\n\
         LLR: 2.95 (100.1%) (-2.94, 2.94) [0.00, 5.00]\n\
         SPRT ([0.00, 5.00]) completed - H1 was accepted\n"
    );
    assert_eq!(s.state(), SprtState::AcceptH1);
    let j = json(&s);
    assert_eq!(j["state"], "accepted");
    assert_eq!(j["model"], "logistic");
    assert_eq!(j["games"], 3502);
    assert!((j["llr"].as_f64().unwrap() - 2.947224113731151).abs() < 1e-9);
}

#[test]
fn pentanomial_example() {
    // sprt-math.md example 2 (fastchess PR 783).
    let p = Pentanomial::new([379, 10170, 21828, 10640, 343]);
    let cfg = SprtConfig {
        elo1: 2.0,
        ..SprtConfig::default()
    };
    let s = summarize(&p.trinomial_if_middle_drawn(), Some(&p), Some(&cfg));
    let text = s.fastchess_text();
    assert!(
        text.starts_with("Elo: 1.59 +/- 1.21, nElo: 3.05 +/- 2.31\n"),
        "{text}"
    );
    assert!(
        text.contains("Ptnml(0-2): [379, 10170, 21828, 10640, 343]\n"),
        "{text}"
    );
    assert!(
        text.contains("LLR: 2.95 (100.0%) (-2.94, 2.94) [0.00, 2.00]\n"),
        "{text}"
    );
    assert_eq!(s.state(), SprtState::AcceptH1);
    assert_eq!(s.games, 86720);
    assert!((s.draw_ratio.unwrap() - 21828.0 / 43360.0).abs() < 1e-15);
}

#[test]
fn no_games_is_null_not_nan() {
    for ptnml in [None, Some(Pentanomial::default())] {
        let s = summarize(
            &Trinomial::default(),
            ptnml.as_ref(),
            Some(&SprtConfig::default()),
        );
        let j = json(&s);
        for key in [
            "elo",
            "elo_err95",
            "los",
            "draw_ratio",
            "nelo",
            "nelo_err95",
        ] {
            assert!(j[key].is_null(), "{key}");
        }
        assert_eq!(j["llr"], 0.0);
        assert_eq!(j["state"], "continue");
        let text = s.fastchess_text();
        no_nan_or_inf(&text);
        assert!(text.contains("Elo: n/a"), "{text}");
        assert!(text.contains("Note: no "), "{text}");
    }
}

#[test]
fn all_won_or_lost_has_no_elo() {
    for (tri, what) in [
        (Trinomial::new(25, 0, 0), "won"),
        (Trinomial::new(0, 0, 25), "lost"),
    ] {
        let s = summarize(&tri, None, Some(&SprtConfig::default()));
        let j = json(&s);
        assert!(j["elo"].is_null() && j["nelo"].is_null() && j["elo_err95"].is_null());
        assert!(j["llr"].as_f64().unwrap().is_finite());
        let text = s.fastchess_text();
        no_nan_or_inf(&text);
        assert!(text.contains(&format!("all games {what}")), "{text}");
    }
}

#[test]
fn all_draws_and_zero_cells_are_finite() {
    for tri in [
        Trinomial::new(0, 40, 0),
        Trinomial::new(3, 0, 5),
        Trinomial::new(0, 20, 10),
        Trinomial::new(1, 0, 0),
    ] {
        for model in [EloModel::Normalized, EloModel::Logistic, EloModel::BayesElo] {
            let cfg = SprtConfig {
                model,
                ..SprtConfig::default()
            };
            let s = summarize(&tri, None, Some(&cfg));
            let j = json(&s);
            assert!(j["llr"].as_f64().is_some(), "{tri:?} {model}");
            no_nan_or_inf(&s.fastchess_text());
        }
    }
    let s = summarize(&Trinomial::new(0, 40, 0), None, None);
    assert_eq!(s.elo.map(f64::abs).map(|e| e < 1e-9), Some(true));
    assert!(
        s.fastchess_text().contains("Elo: 0.00 +/- "),
        "{}",
        s.fastchess_text()
    );
}

#[test]
fn huge_samples_stay_finite() {
    let tri = Trinomial::new(300_000_001, 500_000_000, 299_999_999);
    let p = Pentanomial::new([20_000_000, 90_000_000, 280_000_000, 90_000_001, 20_000_000]);
    for (t, pt) in [(tri, None), (p.trinomial_if_middle_drawn(), Some(p))] {
        for model in [EloModel::Normalized, EloModel::Logistic] {
            let cfg = SprtConfig {
                model,
                ..SprtConfig::default()
            };
            let s = summarize(&t, pt.as_ref(), Some(&cfg));
            let j = json(&s);
            for key in ["elo", "elo_err95", "los", "nelo", "nelo_err95", "llr"] {
                assert!(
                    j[key].as_f64().is_some_and(f64::is_finite),
                    "{key}: {}",
                    j[key]
                );
            }
            assert_eq!(
                s.state(),
                SprtState::AcceptH0,
                "{model}: a tiny edge is far below 5 Elo"
            );
            no_nan_or_inf(&s.fastchess_text());
        }
    }
}

#[test]
fn unsolvable_normalized_llr_is_null() {
    let p = Pentanomial::new([144, 3, 1, 0, 0]);
    let cfg = SprtConfig {
        elo0: -1500.0,
        elo1: -500.0,
        ..SprtConfig::default()
    };
    let s = summarize(&p.trinomial_if_middle_drawn(), Some(&p), Some(&cfg));
    let j = json(&s);
    assert!(j["llr"].is_null());
    assert_eq!(j["state"], "continue");
    let text = s.fastchess_text();
    assert!(text.contains("LLR: n/a"), "{text}");
    assert!(text.contains("Note: LLR cannot be computed"), "{text}");
}

#[test]
fn without_sprt_state_and_model_are_null() {
    let s = summarize(&Trinomial::new(10, 10, 10), None, None);
    let j = json(&s);
    assert!(j["state"].is_null() && j["model"].is_null() && j["llr"].is_null());
    assert_eq!(s.state(), SprtState::Continue);
    assert!(!s.fastchess_text().contains("LLR"));
}
