//! `engine bench`: a fixed set of positions searched to a fixed depth (OpenBench's signature).
