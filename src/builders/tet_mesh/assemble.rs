//! A [`TetMesh`]'s masses, springs and damping from a [`Material`], tetrahedron by tetrahedron
//! (the assembly [`TetMeshBody`](super::TetMeshBody) documents).

use super::check::TETRAHEDRON_EDGES;
use std::path::Path;

use super::{tet_error, TetMesh};
use crate::builders::material::bond_damping;
use crate::builders::Material;
use crate::error::Result;
use crate::model::{Mass, Part, Spring};
use crate::validate::buildable;

impl TetMesh {
    /// The edges of the tetrahedra, each once as `(low node, high node)`, sorted, with the sum
    /// of the volumes (m^3) of the tetrahedra that hold it (summed in tetrahedron order).
    #[must_use]
    pub fn edges(&self) -> Vec<([u32; 2], f64)> {
        let mut all: Vec<([u32; 2], u32)> = Vec::with_capacity(6 * self.tetrahedra.len());
        for (t, tet) in self.tetrahedra.iter().enumerate() {
            for [i, j] in TETRAHEDRON_EDGES {
                let (a, b) = (tet[i], tet[j]);
                all.push(([a.min(b), a.max(b)], t as u32));
            }
        }
        all.sort_unstable();
        all.chunk_by(|x, y| x.0 == y.0)
            .map(|run| {
                let volume = run.iter().map(|&(_, t)| self.volume(t as usize)).sum();
                (run[0].0, volume)
            })
            .collect()
    }

    /// The part of this mesh made of `material` (already validated): each node a mass of
    /// `rho sum V / 4` over its tetrahedra, each edge a spring of `E sum V / L^2` over its
    /// tetrahedra, damped by [`Material::bond_damping`]. `path` names the mesh in errors: a
    /// stiffness that is not finite and > 0 (`E V / L^2` out of `f64`'s range).
    pub(super) fn part_of(&self, material: &Material, path: &Path) -> Result<Part> {
        let (nodes, tets) = (self.nodes.len() as f64, self.tetrahedra.len() as f64);
        buildable("tet_mesh.tetrahedra", tets, nodes + 6.0 * tets)?;
        let mut mass = vec![0.0; self.nodes.len()];
        for (t, tet) in self.tetrahedra.iter().enumerate() {
            let share = material.density * self.volume(t) / 4.0;
            for &i in tet {
                mass[i as usize] += share;
            }
        }
        let mut part = Part::new();
        for (&m, &p) in mass.iter().zip(&self.nodes) {
            part.add_mass(Mass::new(m, p));
        }
        for ([a, b], volume) in self.edges() {
            let length = self.nodes[a as usize].distance(self.nodes[b as usize]);
            let k = material.young_modulus * volume / (length * length);
            if !(k.is_finite() && k > 0.0) {
                return Err(tet_error(
                    path,
                    format!("the edge between nodes {a} and {b} ({length:e} m long) gives the stiffness {k:e} N/m: its length is out of range"),
                ));
            }
            let c = bond_damping(
                material.damping_ratio,
                k,
                mass[a as usize],
                mass[b as usize],
            );
            part.add_spring(Spring::hooke(a, b, k, length).with_damping(c));
        }
        Ok(part)
    }
}
