//! Which end of each spring walks it in the link variant of the spring pass: the orientation
//! that evens out the masses' runs.
//!
//! The link variant's invocations walk mass by mass, each mass's run of links, and the lanes of
//! a SIMD group (`LANE_GROUP` neighbouring masses on lavapipe, a warp on a GPU) go round the loop
//! together until the longest run of the group ends. Listed as the model gives them (from `a`),
//! the springs of irregular bodies make uneven runs: `Population::benchmark`'s voxel robots have
//! runs of 0 to 19 links, and the lanes of a group of 8 do useful work 58 % of the time (44 % in
//! groups of 32). A spring gives exactly the same force computed from either end (`-d` has the
//! same length, the direction and relative velocity change sign exactly, and so does the
//! rounded fixed-point force), so the walk may take any spring from either end without changing
//! a bit of the force sums. [`balance`] hands springs from the longer run to the shorter until
//! no spring is walked by a mass whose run is longer than its other end's by more than one link
//! (so no single hand-over shortens the longest of the two any more): the
//! robots' groups of 8 then work 92 % of the time (88 % for 32). Only energy booking, summed per
//! invocation, may round differently.
//!
//! The orientation is a function of the spring list alone (a fixed sweep order, no hashing), so
//! it is the same on every machine and run.

use super::layout::GpuSpring;

/// Sweeps over the springs at most: each flip lowers the sum of squared run lengths by at least
/// two, so the sweeps end on their own; the cap bounds the work on adversarial lists (the
/// voxel robots settle in 5 sweeps, a lattice listed from its lower masses in 1).
const MAX_SWEEPS: usize = 32;

/// For each spring, whether its second mass `b` walks it (rather than `a`), so that no spring
/// is walked by a mass whose run (the springs it walks) is longer than its other end's by more
/// than one (once the sweeps settle, within [`MAX_SWEEPS`]), or `None` when the model's own
/// orientation is already so. Springs `held` in a stencil's slots are not in the link walk: they
/// keep their ends and count in no run.
#[must_use]
pub(crate) fn balance(
    springs: &[GpuSpring],
    masses: usize,
    held: Option<&[bool]>,
) -> Option<Vec<bool>> {
    let walked = |i: usize| !held.is_some_and(|h| h[i]);
    let mut run = vec![0u32; masses];
    for (i, sp) in springs.iter().enumerate() {
        if walked(i) {
            run[sp.a as usize] += 1;
        }
    }
    let mut from_b = vec![false; springs.len()];
    let mut any = false;
    for _ in 0..MAX_SWEEPS {
        let mut flips = 0usize;
        for (i, sp) in springs.iter().enumerate().filter(|&(i, _)| walked(i)) {
            let (walker, other) = if from_b[i] {
                (sp.b, sp.a)
            } else {
                (sp.a, sp.b)
            };
            let (w, o) = (walker as usize, other as usize);
            if run[w] > run[o] + 1 {
                run[w] -= 1;
                run[o] += 1;
                from_b[i] = !from_b[i];
                flips += 1;
            }
        }
        any |= flips > 0;
        if flips == 0 {
            break;
        }
    }
    any.then_some(from_b)
}

#[cfg(test)]
mod tests {
    use super::balance;
    use crate::gpu::layout::tests::spring;
    use crate::gpu::layout::GpuSpring;

    /// Runs per mass under an orientation.
    fn runs(springs: &[GpuSpring], masses: usize, from_b: Option<&[bool]>) -> Vec<u32> {
        let mut run = vec![0u32; masses];
        for (i, sp) in springs.iter().enumerate() {
            let b = from_b.is_some_and(|f| f[i]);
            run[if b { sp.b } else { sp.a } as usize] += 1;
        }
        run
    }

    /// A star listed from its centre (one run of 6, six of 0) is balanced to runs of 1 and 0.
    #[test]
    fn a_star_listed_from_its_centre_is_walked_from_its_leaves() {
        let springs: Vec<_> = (1..7).map(|b| spring(0, b)).collect();
        let from_b = balance(&springs, 7, None).expect("the star is uneven");
        let run = runs(&springs, 7, Some(&from_b));
        assert_eq!(run.iter().sum::<u32>(), 6);
        assert!(run.iter().all(|&r| r <= 1), "{run:?}");
    }

    /// A chain listed from its lower masses (runs of 1, the last 0) is already even: `None`.
    #[test]
    fn an_even_chain_keeps_the_models_orientation() {
        let springs: Vec<_> = (0..9).map(|a| spring(a, a + 1)).collect();
        assert_eq!(balance(&springs, 10, None), None);
    }

    /// Random graphs with loops (a spring from a mass to itself) and duplicates: every spring
    /// is walked by one of its own ends, never by one whose run is longer than the other end's
    /// by more than one, and the same way on a second call.
    #[test]
    fn random_graphs_are_balanced_the_same_way_twice() {
        use rand::{Rng, SeedableRng};
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(7);
        for _ in 0..20 {
            let masses = rng.random_range(1..40u32);
            let count = rng.random_range(0..200);
            let springs: Vec<_> = (0..count)
                .map(|_| spring(rng.random_range(0..masses), rng.random_range(0..masses)))
                .collect();
            let from_b = balance(&springs, masses as usize, None);
            assert_eq!(from_b, balance(&springs, masses as usize, None));
            let run = runs(&springs, masses as usize, from_b.as_deref());
            assert_eq!(run.iter().sum::<u32>() as usize, springs.len());
            for (i, sp) in springs.iter().enumerate() {
                let b = from_b.as_ref().is_some_and(|f| f[i]);
                let (w, o) = if b { (sp.b, sp.a) } else { (sp.a, sp.b) };
                assert!(
                    run[w as usize] <= run[o as usize] + 1,
                    "spring {i}: {run:?}"
                );
            }
        }
    }
}
