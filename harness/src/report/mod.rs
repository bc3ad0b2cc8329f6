//! Match reports: report.md and a self-contained report.html with plots.
