//! Reading a triangle mesh from an OBJ file (tobj) or an STL file, binary or ASCII (stl_io),
//! within the input size limit (`read_input`).

use std::io::Cursor;
use std::path::Path;

use glam::DVec3;

use super::{mesh_error, TriangleMesh};
use crate::error::Result;
use crate::input_file::read_input;

/// The bytes of a binary STL file: an 80-byte header, a 32-bit triangle count, then 50 bytes
/// per triangle.
const STL_HEADER: usize = 84;
const STL_TRIANGLE: u64 = 50;

impl TriangleMesh {
    /// Reads the mesh in file `path`: Wavefront OBJ (`.obj`; faces of more than three corners
    /// are cut into triangles, points, lines and material files are ignored, every object of
    /// the file is part of the mesh) or STL (`.stl`, binary or ASCII), by its extension; equal
    /// vertices are merged ([`TriangleMesh::new`]). The file is read within the input size limit
    /// ([`read_input`](crate::input_file::read_input), `HOOKE_MAX_INPUT_BYTES`). The mesh is not
    /// checked to be closed here ([`TriangleMesh::check_closed`] does that).
    ///
    /// # Errors
    /// [`Error::InputTooLarge`](crate::Error::InputTooLarge) and
    /// [`Error::SceneIo`](crate::Error::SceneIo) from reading; [`Error::Mesh`](crate::Error::Mesh)
    /// naming `path` for another extension, a file that does not parse (a truncated binary STL
    /// says how many bytes its triangle count needs), a non-finite coordinate or a face naming a
    /// vertex that does not exist.
    pub fn read(path: impl AsRef<Path>) -> Result<Self> {
        let path = path.as_ref();
        let extension = path
            .extension()
            .and_then(|e| e.to_str())
            .map(str::to_ascii_lowercase);
        let read =
            match extension.as_deref() {
                Some("obj") => Self::from_obj,
                Some("stl") => Self::from_stl,
                _ => return Err(mesh_error(
                    path,
                    "is neither .obj nor .stl: hooke reads triangle meshes from OBJ and STL files"
                        .into(),
                )),
            };
        read(&read_input(path)?, path)
    }

    /// The mesh in the text of an OBJ file, `path` naming it in errors.
    ///
    /// # Errors
    /// As [`TriangleMesh::read`].
    pub fn from_obj(bytes: &[u8], path: &Path) -> Result<Self> {
        let options = tobj::LoadOptions {
            triangulate: true,
            single_index: false,
            ignore_points: true,
            ignore_lines: true,
        };
        // Material files are never opened: a mesh body takes its material from the scene.
        let (models, _) = tobj::load_obj_buf(&mut Cursor::new(bytes), &options, |_| {
            Err(tobj::LoadError::OpenFileFailed)
        })
        .map_err(|e| mesh_error(path, format!("is not a valid OBJ file: {e}")))?;
        let mut vertices = Vec::new();
        let mut triangles = Vec::new();
        for model in &models {
            let base = vertices.len() as u32;
            let mesh = &model.mesh;
            vertices.extend(
                mesh.positions
                    .chunks_exact(3)
                    .map(|p| DVec3::new(p[0], p[1], p[2])),
            );
            triangles.extend(
                mesh.indices
                    .chunks_exact(3)
                    .map(|t| [t[0], t[1], t[2]].map(|i| base.saturating_add(i))),
            );
        }
        Self::welded(&vertices, &triangles, path)
    }

    /// The mesh in the bytes of an STL file (binary or ASCII), `path` naming it in errors.
    ///
    /// A file is read as binary when its length is exactly what its triangle count says (84 +
    /// 50 n bytes), whatever its first bytes (binary headers often begin with `solid` too);
    /// otherwise as ASCII when it begins with `solid` and a space or a line's end, else as a
    /// binary file with the wrong length, which is refused before anything is allocated for its
    /// triangles.
    ///
    /// # Errors
    /// As [`TriangleMesh::read`].
    pub fn from_stl(bytes: &[u8], path: &Path) -> Result<Self> {
        let binary_count = (bytes.len() >= STL_HEADER).then(|| {
            u64::from(u32::from_le_bytes([
                bytes[80], bytes[81], bytes[82], bytes[83],
            ]))
        });
        let fits = |n: u64| STL_HEADER as u64 + STL_TRIANGLE * n == bytes.len() as u64;
        // "solid" then a name, or then the line's end when the solid has no name.
        let solid =
            bytes.starts_with(b"solid") && bytes.get(5).is_some_and(u8::is_ascii_whitespace);
        let ascii = solid && !binary_count.is_some_and(fits);
        if !ascii {
            check_binary_length(bytes, binary_count, path)?;
        }
        // stl_io tells the kinds apart by the leading "solid ": a binary header that starts so
        // is read from a copy whose header does not, and an ASCII file of a nameless solid
        // from a copy whose first line has the space.
        let mut copy;
        let source = if !ascii && solid {
            copy = bytes.to_vec();
            copy[0] = b'S';
            &copy[..]
        } else if ascii && bytes[5] != b' ' {
            copy = [&b"solid "[..], &bytes[5..]].concat();
            &copy[..]
        } else {
            bytes
        };
        let kind = if ascii { "ASCII" } else { "binary" };
        let mut reader = Cursor::new(source);
        let broken = |n: usize, e: std::io::Error| {
            mesh_error(
                path,
                format!("is not a valid {kind} STL file (at triangle {n}): {e}"),
            )
        };
        let triangles = stl_io::create_stl_reader(&mut reader).map_err(|e| broken(0, e))?;
        let mut vertices = Vec::new();
        for (n, t) in triangles.enumerate() {
            let t = t.map_err(|e| broken(n, e))?;
            vertices.extend(
                t.vertices
                    .map(|v| DVec3::new(v[0].into(), v[1].into(), v[2].into())),
            );
        }
        let count = vertices.len() as u32 / 3;
        let triangles: Vec<[u32; 3]> = (0..count).map(|t| [3 * t, 3 * t + 1, 3 * t + 2]).collect();
        Self::welded(&vertices, &triangles, path)
    }
}

/// Refuses a binary STL file whose length is not what its triangle count says.
fn check_binary_length(bytes: &[u8], count: Option<u64>, path: &Path) -> Result<()> {
    let Some(n) = count else {
        return Err(mesh_error(
            path,
            format!(
                "is not a valid STL file: {} bytes, shorter than a binary STL header (84 bytes), and not ASCII STL (which begins with \"solid \")",
                bytes.len()
            ),
        ));
    };
    let needs = STL_HEADER as u64 + STL_TRIANGLE * n;
    if needs == bytes.len() as u64 {
        return Ok(());
    }
    let what = if needs > bytes.len() as u64 {
        "truncated"
    } else {
        "longer than its triangles"
    };
    Err(mesh_error(
        path,
        format!(
            "is not a valid binary STL file ({what}): its header counts {n} triangles, which take {needs} bytes, but the file has {}",
            bytes.len()
        ),
    ))
}
