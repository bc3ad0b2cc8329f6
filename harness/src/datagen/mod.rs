//! Self-play generation of labelled positions for the tuner.
