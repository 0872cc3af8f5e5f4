//! What a Gmsh MSH file lists, as both format readers (`msh.rs` for 2.2, `msh4.rs` for 4.1)
//! fill it: the nodes, the tetrahedra's node tags, and the element types and number parsing
//! they share.

use std::collections::HashMap;

use glam::DVec3;

use super::cursor::Cursor;
use crate::error::Result;

/// Gmsh's element type of the 4-node tetrahedron.
pub(super) const TETRAHEDRON: u32 = 4;

/// Gmsh's other volume element types (hexahedra, prisms, pyramids and the higher-order
/// tetrahedra among them), which a body cannot leave out without losing part of its volume.
pub(super) const OTHER_VOLUMES: [u64; 13] = [5, 6, 7, 11, 12, 13, 14, 17, 18, 19, 29, 30, 31];

/// The error of a volume element of type `kind` other than the 4-node tetrahedron, on the
/// cursor's last line.
pub(super) fn other_volume(kind: u64, at: &Cursor<'_>) -> crate::Error {
    at.error(format!(
        "a volume element of Gmsh type {kind}: hooke builds bodies of 4-node tetrahedra (type 4) only, and leaving it out would leave a hole (in Gmsh, mesh with first-order tetrahedra: Mesh.ElementOrder = 1, no recombination)"
    ))
}

/// What a file lists, before its node tags are resolved: nodes in file order and the
/// tetrahedra's node tags, with where each was read.
#[derive(Default)]
pub(super) struct Listed {
    /// Each node tag's index in `nodes`.
    pub(super) tags: HashMap<u64, u32>,
    /// The nodes in file order, m.
    pub(super) nodes: Vec<DVec3>,
    /// Each tetrahedron's element tag, node tags and line.
    pub(super) tetrahedra: Vec<(u64, [u64; 4], usize)>,
}

impl Listed {
    /// Adds node `tag` at `p`, read on the cursor's last line.
    pub(super) fn node(&mut self, tag: u64, p: [f64; 3], at: &Cursor<'_>) -> Result<()> {
        let p = DVec3::from_array(p);
        if !p.is_finite() {
            return Err(at.error(format!("node {tag} is not finite: {p}")));
        }
        let index = self.nodes.len() as u32;
        if self.tags.insert(tag, index).is_some() {
            return Err(at.error(format!("node {tag} is listed twice")));
        }
        self.nodes.push(p);
        Ok(())
    }
}

/// `tokens` as exactly `N` values of `T` (and `bad()` when they are not).
pub(super) fn parse_all<T: std::str::FromStr + Copy + Default, const N: usize>(
    tokens: &[&str],
    bad: impl Fn() -> crate::Error,
) -> Result<[T; N]> {
    if tokens.len() != N {
        return Err(bad());
    }
    let mut values = [T::default(); N];
    for (v, s) in values.iter_mut().zip(tokens) {
        *v = s.parse().map_err(|_| bad())?;
    }
    Ok(values)
}
