//! The CPU's spring table: springs in structure-of-arrays form and their deduplicated
//! stiffness and damping (the CPU side of the GPU's link and material tables).

use crate::model::spring_law::{k_eff, walk_law};
use crate::model::{Spring, SpringLaw};

/// Springs in structure-of-arrays form, 20 bytes per spring in the hot loop. Every law folds into
/// `f = k_eff (L - L0)` along the axis (`src/model/spring_law/`). Stiffness, damping and law live
/// in a small deduplicated table, since most models cut many springs from few materials.
#[derive(Clone, Debug, Default)]
pub(super) struct SpringArrays {
    /// The two masses of each spring.
    pub(super) ends: Vec<[u32; 2]>,
    /// Current rest length, m (actuated springs are rewritten every step; 0 for zero-length).
    pub(super) rest: Vec<f64>,
    /// Index into `table`.
    pub(super) param: Vec<u32>,
    /// The distinct stiffness, damping and law triples.
    pub(super) table: Vec<SpringParams>,
}

/// Stiffness and damping shared by many springs.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(super) struct SpringParams {
    /// Stiffness as given: N/m, or N for the material law.
    pub(super) k: f64,
    /// Axial damping, N*s/m.
    pub(super) c: f64,
    /// The law the walks apply (`spring_law::walk_law`: the zero-length law's rest length is
    /// held at 0 when it is stored, and it walks as Hooke's).
    pub(super) law: SpringLaw,
}

impl SpringParams {
    /// Effective stiffness (N/m) at rest length `rest` (m) (`spring_law::k_eff`).
    #[inline(always)]
    pub(super) fn k_eff(&self, rest: f64) -> f64 {
        k_eff(self.law, self.k, rest)
    }
}

impl SpringArrays {
    /// The table of `springs`, every rest length 0 until the world sets it.
    pub(super) fn new(springs: &[Spring]) -> Self {
        let mut table = Vec::new();
        let mut index = std::collections::HashMap::new();
        let param = springs
            .iter()
            .map(|s| {
                let law = walk_law(s.law);
                let key = (s.stiffness.to_bits(), s.damping.to_bits(), law);
                *index.entry(key).or_insert_with(|| {
                    table.push(SpringParams {
                        k: s.stiffness,
                        c: s.damping,
                        law,
                    });
                    (table.len() - 1) as u32
                })
            })
            .collect();
        Self {
            ends: springs.iter().map(|s| [s.a, s.b]).collect(),
            rest: vec![0.0; springs.len()],
            param,
            table,
        }
    }

    /// Number of springs.
    pub(super) fn len(&self) -> usize {
        self.ends.len()
    }

    /// Stiffness and damping of spring `s`.
    pub(super) fn params(&self, s: usize) -> &SpringParams {
        &self.table[self.param[s] as usize]
    }
}
