//! Exterior faces of voxel bodies, for the solid look (Lipson, advanced feature 8: "shade all
//! the exterior triangles of the robot").

use std::collections::HashMap;

/// The six faces of a hexahedral cell, as corner numbers in counter-clockwise order seen from
/// outside. Corner `i` of a cell sits at offset `(i & 1, (i >> 1) & 1, (i >> 2) & 1)` of the
/// cell: bit 0 is +x, bit 1 is +y, bit 2 is +z. Faces: -x, +x, -y, +y, -z, +z.
pub const HEXAHEDRON_FACES: [[usize; 4]; 6] = [
    [0, 4, 6, 2],
    [1, 3, 7, 5],
    [0, 1, 5, 4],
    [2, 6, 7, 3],
    [0, 2, 3, 1],
    [4, 5, 7, 6],
];

/// The exterior triangles of a body made of hexahedral cells (voxels), each cell given as the
/// indices of its 8 corner masses in the order of [`HEXAHEDRON_FACES`] (corner `i` at offset
/// `(i & 1, (i >> 1) & 1, (i >> 2) & 1)`).
///
/// A face shared by two cells is interior and left out; every other face becomes two triangles
/// wound counter-clockwise seen from outside the cell. The result is in cell order, so it is the
/// same on every run; pass it to [`crate::render::Drawing::set_triangles`].
#[must_use]
pub fn exterior_triangles(cells: &[[u32; 8]]) -> Vec<[u32; 3]> {
    let key = |face: [u32; 4]| {
        let mut k = face;
        k.sort_unstable();
        k
    };
    let mut count: HashMap<[u32; 4], u32> = HashMap::new();
    for cell in cells {
        for f in HEXAHEDRON_FACES {
            *count.entry(key(f.map(|corner| cell[corner]))).or_default() += 1;
        }
    }
    let mut triangles = Vec::new();
    for cell in cells {
        for f in HEXAHEDRON_FACES {
            let face = f.map(|corner| cell[corner]);
            if count[&key(face)] == 1 {
                triangles.push([face[0], face[1], face[2]]);
                triangles.push([face[0], face[2], face[3]]);
            }
        }
    }
    triangles
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn one_cube_has_twelve_triangles_and_two_cubes_share_a_face() {
        let a: [u32; 8] = [0, 1, 2, 3, 4, 5, 6, 7];
        assert_eq!(exterior_triangles(&[a]).len(), 12);
        // Second cube on the +x side of the first: its -x face is the first's +x face.
        let b: [u32; 8] = [1, 8, 3, 9, 5, 10, 7, 11];
        let t = exterior_triangles(&[a, b]);
        assert_eq!(t.len(), 20);
        // The shared face (masses 1, 3, 5, 7) is gone.
        assert!(!t
            .iter()
            .any(|tri| tri.iter().all(|m| [1, 3, 5, 7].contains(m))));
    }
}
