//! The UCI protocol loop.
