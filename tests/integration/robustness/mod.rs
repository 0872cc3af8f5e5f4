//! Inputs that cannot crash hooke: property-based tests (proptest) that generate models,
//! parameters, scene files and population files, valid and broken, and run them through the
//! public entry points; files too large to read; many Worlds and many `hooke eval` processes at
//! once. docs/ROBUSTNESS.md says what is generated and what a long campaign
//! (`scripts/fuzz_campaign.sh`) found.
//!
//! Case counts are small by default, so CI stays quick; `HOOKE_FUZZ_CASES` multiplies every
//! count and `HOOKE_FUZZ_SEED` picks another random stream (the default seed is fixed, so a CI
//! failure reproduces).

mod endless_runs;
mod huge_files;
mod mesh_files;
mod models;
mod mutate;
mod population_json;
mod regressions;
mod scene_json;
mod tet_mesh_files;
mod under_load;
mod verdict;

use proptest::test_runner::{Config, RngSeed};

/// The proptest configuration of a property run `cases` times by default: `HOOKE_FUZZ_CASES`
/// times that in a campaign, no failure files written (a failure found becomes a named test in
/// `regressions.rs`), seeded by `HOOKE_FUZZ_SEED` (default fixed).
fn config(cases: u32) -> Config {
    let scale = env_u64("HOOKE_FUZZ_CASES").unwrap_or(1);
    let seed = env_u64("HOOKE_FUZZ_SEED").unwrap_or(0x4f0c_e5ee_d000_0001);
    Config {
        cases: cases.saturating_mul(u32::try_from(scale).unwrap_or(u32::MAX)),
        failure_persistence: None,
        rng_seed: RngSeed::Fixed(seed),
        max_shrink_iters: 256,
        ..Config::default()
    }
}

fn env_u64(name: &str) -> Option<u64> {
    std::env::var(name).ok().map(|v| {
        v.trim()
            .parse()
            .unwrap_or_else(|_| panic!("{name} = {v:?} is not a whole number"))
    })
}
