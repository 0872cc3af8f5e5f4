//! Breeding one generation of an [`Evolution`](super::Evolution) from the last: ranking,
//! elitism, tournament selection, crossover and mutation.

use std::cmp::Ordering;

use rand::Rng;

use super::VoxelGenome;
use crate::error::Result;

/// The settings of an [`Evolution`](super::Evolution) that breeding reads (see its fields).
#[derive(Clone, Copy, Debug)]
pub(super) struct Breeding {
    /// Genomes per generation.
    pub(super) population: usize,
    /// The best genomes copied unchanged.
    pub(super) elites: usize,
    /// Genomes drawn per tournament.
    pub(super) tournament: usize,
    /// Probability that a child is a crossover of two parents.
    pub(super) crossover_rate: f64,
    /// Probability that a child's cell is redrawn.
    pub(super) mutation_rate: f64,
    /// Muscle phases a redrawn cell may take.
    pub(super) phases: u8,
}

/// `a` against `b` as fitness: larger is better, no fitness (failed or empty) worst of all.
fn compare(a: Option<f64>, b: Option<f64>) -> Ordering {
    match (a, b) {
        (Some(x), Some(y)) => x.total_cmp(&y),
        (Some(_), None) => Ordering::Greater,
        (None, Some(_)) => Ordering::Less,
        (None, None) => Ordering::Equal,
    }
}

/// Genome indices from fittest to least fit; robots without fitness last; equals in index
/// order.
pub(super) fn ranking(fitness: &[Option<f64>]) -> Vec<usize> {
    let mut order: Vec<usize> = (0..fitness.len()).collect();
    order.sort_by(|&a, &b| compare(fitness[b], fitness[a])); // stable: equals keep index order
    order
}

/// The fittest of `k` genomes drawn uniformly with replacement (the first drawn of equals).
fn tournament(rng: &mut impl Rng, fitness: &[Option<f64>], k: usize) -> usize {
    let n = fitness.len() as u32;
    let mut best = rng.random_range(0..n) as usize;
    for _ in 1..k {
        let c = rng.random_range(0..n) as usize;
        if compare(fitness[c], fitness[best]) == Ordering::Greater {
            best = c;
        }
    }
    best
}

/// The next generation: the `elites` first of `order` unchanged, then children of tournament
/// winners, each a crossover of two (probability `crossover_rate`) or a copy of one, mutated.
pub(super) fn breed(
    e: &Breeding,
    genomes: &[VoxelGenome],
    fitness: &[Option<f64>],
    order: &[usize],
    rng: &mut impl Rng,
) -> Result<Vec<VoxelGenome>> {
    let mut next: Vec<VoxelGenome> = order[..e.elites]
        .iter()
        .map(|&i| genomes[i].clone())
        .collect();
    while next.len() < e.population {
        let a = tournament(rng, fitness, e.tournament);
        let mut child = if rng.random::<f64>() < e.crossover_rate {
            let b = tournament(rng, fitness, e.tournament);
            VoxelGenome::crossover(&genomes[a], &genomes[b], rng)?
        } else {
            genomes[a].clone()
        };
        child.mutate(rng, e.mutation_rate, e.phases)?;
        next.push(child);
    }
    Ok(next)
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::SeedableRng;
    use rand_chacha::ChaCha8Rng;

    #[test]
    fn failed_robots_rank_last() {
        let fitness = [None, Some(0.1), Some(-0.2), None, Some(0.3), Some(0.1)];
        assert_eq!(ranking(&fitness), vec![4, 1, 5, 2, 0, 3]);
    }

    #[test]
    fn a_tournament_never_picks_a_failed_robot_over_a_scored_one() {
        // Robot 0 failed, robot 1 has a (negative) fitness. A tournament of 8 draws misses
        // robot 1 only when all 8 draws are robot 0 (probability 2^-8), so over 200 tournaments
        // robot 1 should win about 199.2 times (at least 190 fails with probability < 1e-9);
        // a tournament that ignored fitness would give it about 100.
        let fitness = [None, Some(-5.0)];
        let mut rng = ChaCha8Rng::seed_from_u64(3);
        let wins = (0..200)
            .filter(|_| tournament(&mut rng, &fitness, 8) == 1)
            .count();
        assert!(wins >= 190, "robot 1 won {wins} of 200");
    }
}
