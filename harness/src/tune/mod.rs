//! Texel tuning: data sets, compact traces, the scaling constant K and the optimisers.
