//! Measuring tools for hooke, kept out of the crate's examples: `throughput` (spring-updates per
//! second of the benchmark lattice, collisions and populations on both backends), `cpu_rate` and
//! `cpu_scenes` (the CPU reference alone). Run them with
//! `cargo run --release -p hooke-tools --bin NAME -- ARGS`; each documents its arguments at the
//! top of its file and prints how to run bigger.

mod cpu_time;

pub use cpu_time::cpu_seconds;
