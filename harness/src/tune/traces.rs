//! Every position's evaluation trace, extracted once at load and stored compactly, so that a
//! tuning pass is a sparse dot product per position and never calls the evaluation.
//!
//! Storage: one flat vector of `(feature: u16, coef: i16)` terms for all positions, plus per
//! position the offset of its first term, its phase and its result (and, until the targets are
//! blended, its search score).

use std::path::PathBuf;

use anyhow::bail;
use engine::eval::{self, EvalTrace, TraceTerm};
use engine::params::{Params, TOTAL_FEATURES};
use engine::search::Searcher;
use rand::SeedableRng;
use rand::seq::SliceRandom;
use rand_chacha::ChaCha8Rng;
use rayon::prelude::*;
use shakmaty::Position;

use super::dataset::{self, Format, ReadOptions, Sample};

/// The traces of many positions.
#[derive(Clone, Debug, Default)]
pub struct TraceSet {
    terms: Vec<TraceTerm>,
    /// `offsets[i]..offsets[i + 1]` are position `i`'s terms.
    offsets: Vec<u32>,
    phases: Vec<u8>,
    /// Endgame scale classes `[if Black is ahead, if White is ahead]`, as their discriminants.
    scales: Vec<[u8; 2]>,
    results: Vec<f32>,
    /// Search scores in centipawns (NaN: none), kept only until [`TraceSet::blend_scores`];
    /// empty while no position has one, so score-less data costs nothing.
    scores: Vec<f32>,
}

/// One position of a [`TraceSet`].
#[derive(Clone, Copy, Debug)]
pub struct PositionTrace<'a> {
    pub phase: u8,
    /// [`engine::eval::EvalTrace::scale`], as discriminants.
    pub scale: [u8; 2],
    pub result: f32,
    pub terms: &'a [TraceTerm],
}

impl TraceSet {
    pub fn new() -> Self {
        TraceSet {
            offsets: vec![0],
            ..Default::default()
        }
    }

    /// Number of positions.
    pub fn len(&self) -> usize {
        self.phases.len()
    }

    pub fn is_empty(&self) -> bool {
        self.phases.is_empty()
    }

    /// Total number of stored terms.
    pub fn term_count(&self) -> usize {
        self.terms.len()
    }

    /// Memory held by the stored data, in bytes.
    pub fn bytes(&self) -> usize {
        self.terms.len() * size_of::<TraceTerm>()
            + self.offsets.len() * size_of::<u32>()
            + self.phases.len()
            + self.scales.len() * size_of::<[u8; 2]>()
            + self.results.len() * size_of::<f32>()
            + self.scores.len() * size_of::<f32>()
    }

    /// Position `i`.
    #[inline]
    pub fn position(&self, i: usize) -> PositionTrace<'_> {
        let (start, end) = (self.offsets[i] as usize, self.offsets[i + 1] as usize);
        PositionTrace {
            phase: self.phases[i],
            scale: self.scales[i],
            result: self.results[i],
            terms: &self.terms[start..end],
        }
    }

    /// The results of all positions, in order.
    pub fn results(&self) -> &[f32] {
        &self.results
    }

    /// The search scores and results of the positions that carry a score.
    pub fn scored_pairs(&self) -> (Vec<f64>, Vec<f64>) {
        self.scores
            .iter()
            .zip(&self.results)
            .filter(|(s, _)| !s.is_nan())
            .map(|(&s, &r)| (f64::from(s), f64::from(r)))
            .unzip()
    }

    /// How many positions carry a search score.
    pub fn scored(&self) -> usize {
        self.scores.iter().filter(|s| !s.is_nan()).count()
    }

    /// Replaces each scored position's target by `(1 - weight) · result + weight ·
    /// sigmoid(k · score / 400)` and drops the scores. The search score is a far less noisy
    /// label than the one game result it shares with every other position of its game.
    /// With `weight` 0 the targets stay the results and only the scores are dropped.
    pub fn blend_scores(&mut self, k: f64, weight: f64) {
        for (result, &score) in self.results.iter_mut().zip(&self.scores) {
            if !score.is_nan() && weight > 0.0 {
                let expected = super::model::sigmoid(k * f64::from(score) / super::model::CP_SCALE);
                *result = ((1.0 - weight) * f64::from(*result) + weight * expected) as f32;
            }
        }
        self.scores = Vec::new();
    }

    /// Appends a position.
    pub fn push(
        &mut self,
        phase: i32,
        scale: [u8; 2],
        result: f32,
        score: Option<f32>,
        terms: &[TraceTerm],
    ) -> anyhow::Result<()> {
        if self.offsets.is_empty() {
            self.offsets.push(0);
        }
        if let Some(bad) = terms
            .iter()
            .find(|t| usize::from(t.feature) >= TOTAL_FEATURES)
        {
            bail!("trace names feature {} of {TOTAL_FEATURES}", bad.feature);
        }
        let end = u32::try_from(self.terms.len() + terms.len())
            .map_err(|_| anyhow::anyhow!("too many trace terms for one data set (over 4 G)"))?;
        self.terms.extend_from_slice(terms);
        self.offsets.push(end);
        self.phases.push(phase.clamp(0, eval::PHASE_MAX) as u8);
        self.scales.push(scale);
        if score.is_some() || !self.scores.is_empty() {
            self.scores.resize(self.results.len(), f32::NAN);
            self.scores.push(score.unwrap_or(f32::NAN));
        }
        self.results.push(result);
        Ok(())
    }

    fn score(&self, i: usize) -> Option<f32> {
        self.scores.get(i).copied().filter(|s| !s.is_nan())
    }

    /// Appends every position of `other`.
    pub fn append(&mut self, other: &TraceSet) -> anyhow::Result<()> {
        for i in 0..other.len() {
            let p = other.position(i);
            self.push(
                i32::from(p.phase),
                p.scale,
                p.result,
                other.score(i),
                p.terms,
            )?;
        }
        Ok(())
    }

    /// The positions at `indices`, in that order.
    pub fn subset(&self, indices: &[usize]) -> anyhow::Result<TraceSet> {
        let mut out = TraceSet::new();
        for &i in indices {
            let p = self.position(i);
            out.push(
                i32::from(p.phase),
                p.scale,
                p.result,
                self.score(i),
                p.terms,
            )?;
        }
        Ok(out)
    }

    /// A split into `(train, validation)` with about `validation_fraction` of the positions in
    /// the second: a seeded random choice, or with [`Split::Tail`] the last positions in file
    /// order.
    pub fn split(
        &self,
        validation_fraction: f64,
        how: Split,
        seed: u64,
    ) -> anyhow::Result<(TraceSet, TraceSet)> {
        let mut indices: Vec<usize> = (0..self.len()).collect();
        let validation = ((self.len() as f64) * validation_fraction.clamp(0.0, 1.0)).round();
        let (validation, train) = match how {
            Split::Random => {
                indices.shuffle(&mut ChaCha8Rng::seed_from_u64(seed));
                indices.split_at(validation as usize)
            }
            Split::Tail => {
                let (train, validation) = indices.split_at(self.len() - validation as usize);
                (validation, train)
            }
        };
        Ok((self.subset(train)?, self.subset(validation)?))
    }

    /// `count` positions made by repeating these in order (for benchmarks).
    pub fn repeated_to(&self, count: usize) -> anyhow::Result<TraceSet> {
        if self.is_empty() {
            bail!("no positions to repeat");
        }
        let indices: Vec<usize> = (0..count).map(|i| i % self.len()).collect();
        self.subset(&indices)
    }
}

/// Which positions are held out for validation.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum Split {
    /// A seeded random choice of positions.
    Random,
    /// The last positions of the data, in file order. `harness datagen` writes each game's
    /// positions together, so this holds out whole games: positions of one game share its
    /// result, and a random split would let validation see the games it is trained on.
    Tail,
}

/// How to turn data-set files into traces.
#[derive(Clone, Debug)]
pub struct LoadOptions {
    pub format: Format,
    pub skip_bad: bool,
    /// Replace each position by the leaf of its quiescence search with these parameters, and
    /// drop positions in check.
    pub resolve: Option<Params>,
}

/// What loading found.
#[derive(Clone, Debug, Default)]
pub struct LoadReport {
    pub positions: usize,
    pub skipped_bad: usize,
    pub first_skipped: Option<String>,
    pub dropped_in_check: usize,
}

/// Reads every file and extracts the traces, in parallel.
pub fn load(paths: &[PathBuf], options: &LoadOptions) -> anyhow::Result<(TraceSet, LoadReport)> {
    let mut set = TraceSet::new();
    let mut report = LoadReport::default();
    let read_options = ReadOptions {
        format: options.format,
        skip_bad: options.skip_bad,
    };
    for path in paths {
        let file_report = dataset::read_chunks(path, read_options, |samples| {
            report.dropped_in_check +=
                append_samples(&mut set, &samples, options.resolve.as_ref())?;
            Ok(())
        })?;
        report.skipped_bad += file_report.skipped;
        if report.first_skipped.is_none() {
            report.first_skipped = file_report.first_skipped;
        }
    }
    report.positions = set.len();
    Ok((set, report))
}

/// Traces `samples` in parallel and appends them; returns how many were dropped (in check,
/// with `resolve`).
pub fn append_samples(
    set: &mut TraceSet,
    samples: &[Sample],
    resolve: Option<&Params>,
) -> anyhow::Result<usize> {
    let traced: Vec<Option<EvalTrace>> = match resolve {
        None => samples
            .par_iter()
            .map(|s| {
                let mut t = EvalTrace::default();
                eval::trace(&s.position, &mut t);
                Some(t)
            })
            .collect(),
        Some(params) => samples
            .par_iter()
            .map_init(
                || Searcher::new(params.clone(), 1),
                |searcher, s| {
                    if s.position.is_check() {
                        return None;
                    }
                    let (_, leaf) = searcher.quiet_leaf(&s.position);
                    if leaf.is_check() {
                        return None;
                    }
                    let mut t = EvalTrace::default();
                    eval::trace(&leaf, &mut t);
                    Some(t)
                },
            )
            .collect(),
    };
    let mut dropped = 0;
    for (sample, trace) in samples.iter().zip(traced) {
        match trace {
            Some(t) => set.push(
                t.phase,
                t.scale.map(|c| c as u8),
                sample.result,
                sample.score,
                &t.terms,
            )?,
            None => dropped += 1,
        }
    }
    Ok(dropped)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn scores_follow_subsets_and_blend_into_the_targets() {
        let mut set = TraceSet::new();
        set.push(24, [0, 0], 1.0, None, &[]).unwrap();
        assert_eq!(
            set.bytes(),
            4 + 4 + 1 + 2 + 4,
            "no score storage without scores"
        );
        set.push(24, [0, 0], 1.0, Some(0.0), &[]).unwrap();
        set.push(24, [0, 0], 0.0, Some(400.0), &[]).unwrap();
        assert_eq!(set.scored(), 2);

        let mut picked = set.subset(&[2, 0, 1]).unwrap();
        assert_eq!(picked.scored(), 2);
        picked.blend_scores(1.0, 0.5);
        assert_eq!(picked.scored(), 0);
        let expected_400 = 0.5 * super::super::model::sigmoid(1.0);
        let targets = picked.results();
        assert!(
            (f64::from(targets[0]) - expected_400).abs() < 1e-6,
            "{targets:?}"
        );
        assert_eq!(targets[1], 1.0, "no score: the result stays");
        assert_eq!(
            targets[2], 0.75,
            "score 0 is an even chance, half of the target"
        );

        set.blend_scores(1.0, 0.0);
        assert_eq!(set.results(), [1.0, 1.0, 0.0], "weight 0 keeps the results");
    }

    #[test]
    fn tail_split_holds_out_the_last_positions_in_order() {
        let mut set = TraceSet::new();
        for i in 0..10u8 {
            set.push(i32::from(i), [0, 0], 0.5, None, &[]).unwrap();
        }
        let phases = |s: &TraceSet| {
            (0..s.len())
                .map(|i| s.position(i).phase)
                .collect::<Vec<_>>()
        };
        let (train, validation) = set.split(0.3, Split::Tail, 1).unwrap();
        assert_eq!(phases(&train), [0, 1, 2, 3, 4, 5, 6]);
        assert_eq!(phases(&validation), [7, 8, 9]);
        let (train, validation) = set.split(0.3, Split::Random, 1).unwrap();
        assert_eq!((train.len(), validation.len()), (7, 3));
        let mut all = [phases(&train), phases(&validation)].concat();
        all.sort_unstable();
        assert_eq!(all, (0..10).collect::<Vec<u8>>());
    }
}
