//! Reading a [`TetMesh`] from a Gmsh MSH file, ASCII format 4.1 (`msh4.rs`) or 2.2 (here): the
//! `$MeshFormat`, `$Nodes` and `$Elements` sections; other sections are skipped, and of the
//! elements only the 4-node tetrahedra (type 4) are kept.

use std::path::Path;

use super::cursor::{truncate, Cursor};
use super::listed::{other_volume, parse_all, Listed, OTHER_VOLUMES, TETRAHEDRON};
use super::{tet_error, TetMesh};
use crate::error::Result;
use crate::input_file::read_input;

impl TetMesh {
    /// Reads the tetrahedral mesh in the Gmsh file `path` (`.msh`, ASCII, format 4.1 or 2.2)
    /// within the input size limit ([`read_input`](crate::input_file::read_input),
    /// `HOOKE_MAX_INPUT_BYTES`): its 4-node tetrahedra (element type 4) and the nodes they name;
    /// other elements (points, lines, triangles, ...) and nodes that no tetrahedron names are
    /// left out. The mesh is checked as [`TetMesh::new`] checks it.
    ///
    /// # Errors
    /// [`Error::InputTooLarge`](crate::Error::InputTooLarge) and
    /// [`Error::SceneIo`](crate::Error::SceneIo) from reading; [`Error::Mesh`](crate::Error::Mesh)
    /// naming `path` for another extension and as [`TetMesh::from_msh`].
    pub fn read(path: impl AsRef<Path>) -> Result<Self> {
        let path = path.as_ref();
        let msh = path
            .extension()
            .and_then(|e| e.to_str())
            .is_some_and(|e| e.eq_ignore_ascii_case("msh"));
        if !msh {
            return Err(tet_error(
                path,
                "is not a .msh file: hooke reads tetrahedral meshes from Gmsh MSH files (ASCII, format 4.1 or 2.2)".into(),
            ));
        }
        Self::from_msh(&read_input(path)?, path)
    }

    /// The tetrahedral mesh in the bytes of a Gmsh MSH file (ASCII, format 4.1 or 2.2), `path`
    /// naming it in errors.
    ///
    /// # Errors
    /// [`Error::Mesh`](crate::Error::Mesh) naming `path` and the line: a file that is not ASCII
    /// MSH 4.1 or 2.2 (a binary one is refused), a section missing or cut short, a line that
    /// does not hold what the format says, a count larger than the lines left, a node listed
    /// twice or not finite, a volume element other than the 4-node tetrahedron (a hexahedron,
    /// a second-order tetrahedron: leaving it out would leave a hole), a tetrahedron naming a
    /// node that is not listed; then
    /// [`TetMesh::new`]'s checks, each naming the tetrahedron's element tag and line.
    pub fn from_msh(bytes: &[u8], path: &Path) -> Result<Self> {
        let mut at = Cursor::new(bytes, path);
        let v4 = mesh_format(&mut at)?;
        let mut listed = Listed::default();
        let (mut nodes, mut elements) = (false, false);
        while let Some(line) = at.next_line()? {
            match line {
                "" => {}
                "$Nodes" if !nodes => {
                    nodes = true;
                    if v4 {
                        super::msh4::nodes(&mut at, &mut listed)?;
                    } else {
                        nodes2(&mut at, &mut listed)?;
                    }
                }
                "$Elements" if !elements => {
                    elements = true;
                    if v4 {
                        super::msh4::elements(&mut at, &mut listed)?;
                    } else {
                        elements2(&mut at, &mut listed)?;
                    }
                }
                "$Nodes" | "$Elements" => {
                    return Err(at.error(format!("a second {line} section")));
                }
                _ => match line.strip_prefix('$') {
                    Some(name) if !name.starts_with("End") && !name.is_empty() => {
                        at.skip_section(name)?;
                    }
                    _ => {
                        return Err(at.error(format!(
                            "expected a section ($Name ... $EndName), found {:?}",
                            truncate(line)
                        )))
                    }
                },
            }
        }
        for (present, name) in [(nodes, "$Nodes"), (elements, "$Elements")] {
            if !present {
                return Err(at.file_error(format!("has no {name} section")));
            }
        }
        resolve(listed, path)
    }
}

/// Reads the `$MeshFormat` section; true for format 4.1, false for 2.x.
fn mesh_format(at: &mut Cursor<'_>) -> Result<bool> {
    let first = loop {
        match at.next_line()? {
            Some("") => continue,
            Some(line) => break line,
            None => return Err(at.file_error("is empty: not a Gmsh MSH file")),
        }
    };
    if first != "$MeshFormat" {
        return Err(at.error(format!(
            "a Gmsh MSH file begins with $MeshFormat, found {:?}",
            truncate(first)
        )));
    }
    let line = at.expect_line("the format line (version, file type, data size)")?;
    let fields: Vec<&str> = line.split_ascii_whitespace().collect();
    let [version, file_type, ..] = fields[..] else {
        return Err(at.error(format!(
            "the format line should be \"version file-type data-size\", found {:?}",
            truncate(line)
        )));
    };
    if file_type != "0" {
        return Err(at.error(format!(
            "file type {file_type:?}: this is a binary MSH file; hooke reads ASCII MSH (in Gmsh, save with Mesh.Binary = 0)"
        )));
    }
    let v4 = match version {
        "4.1" => true,
        v if v.starts_with("2.") && v[2..].parse::<u32>().is_ok() => false,
        _ => {
            return Err(at.error(format!(
                "MSH format version {:?} is not read: hooke reads versions 4.1 and 2.2 (in Gmsh, save as either)",
                truncate(version)
            )))
        }
    };
    at.expect("$EndMeshFormat")?;
    Ok(v4)
}

/// The `$Nodes` section of format 2.2: a count, then `tag x y z` per line.
fn nodes2(at: &mut Cursor<'_>, listed: &mut Listed) -> Result<()> {
    let [count] = at.numbers::<u64>("the node count", 1, false)?[..] else {
        unreachable!("one number")
    };
    let count = at.check_count("nodes", count, 1)?;
    listed.nodes.reserve(count);
    for _ in 0..count {
        let line = at.expect_line("a node (tag x y z)")?;
        let (tag, p) = node_line(line, at)?;
        listed.node(tag, p, at)?;
    }
    at.expect("$EndNodes")
}

/// A line `tag x y z` of format 2.2.
fn node_line(line: &str, at: &Cursor<'_>) -> Result<(u64, [f64; 3])> {
    let t: Vec<&str> = line.split_ascii_whitespace().collect();
    let bad = || {
        at.error(format!(
            "a node should be \"tag x y z\", found {:?}",
            truncate(line)
        ))
    };
    let [tag] = parse_all(t.get(..1).unwrap_or_default(), bad)?;
    let p = parse_all(t.get(1..).unwrap_or_default(), bad)?;
    Ok((tag, p))
}

/// The `$Elements` section of format 2.2: a count, then per line `tag type tag-count tags...
/// nodes...`; only type 4 is kept.
fn elements2(at: &mut Cursor<'_>, listed: &mut Listed) -> Result<()> {
    let [count] = at.numbers::<u64>("the element count", 1, false)?[..] else {
        unreachable!("one number")
    };
    let count = at.check_count("elements", count, 1)?;
    for _ in 0..count {
        let line = at.expect_line("an element")?;
        let t: Vec<&str> = line.split_ascii_whitespace().collect();
        let bad = |what: &str| at.error(format!("{what}, found {:?}", truncate(line)));
        let head: Vec<u64> = t
            .iter()
            .take(3)
            .map(|s| s.parse::<u64>())
            .collect::<std::result::Result<_, _>>()
            .map_err(|_| bad("an element should begin \"tag type tag-count\""))?;
        let [tag, kind, tags] = head[..] else {
            return Err(bad("an element should begin \"tag type tag-count\""));
        };
        if OTHER_VOLUMES.contains(&kind) {
            return Err(other_volume(kind, at));
        }
        if kind != u64::from(TETRAHEDRON) {
            continue;
        }
        let first = 3usize.saturating_add(tags as usize);
        let nodes = parse_all(t.get(first..).unwrap_or_default(), || {
            bad("a tetrahedron (type 4) should list its tags then 4 node tags")
        })?;
        listed.tetrahedra.push((tag, nodes, at.line()));
    }
    at.expect("$EndElements")
}

/// The mesh of the tetrahedra listed: their node tags resolved, the nodes no tetrahedron names
/// left out (the others kept in file order), checked.
fn resolve(listed: Listed, path: &Path) -> Result<TetMesh> {
    if listed.tetrahedra.is_empty() {
        return Err(tet_error(
            path,
            "has no tetrahedra (element type 4): a body needs a volume mesh (in Gmsh, mesh in 3D)"
                .into(),
        ));
    }
    let mut index = vec![u32::MAX; listed.nodes.len()];
    let mut used = vec![false; listed.nodes.len()];
    let mut tetrahedra = Vec::with_capacity(listed.tetrahedra.len());
    for &(tag, nodes, line) in &listed.tetrahedra {
        let mut corners = [0u32; 4];
        for (c, n) in corners.iter_mut().zip(nodes) {
            let Some(&i) = listed.tags.get(&n) else {
                return Err(tet_error(
                    path,
                    format!(
                        "line {line}: tetrahedron {tag} names node {n}, which $Nodes does not list"
                    ),
                ));
            };
            used[i as usize] = true;
            *c = i;
        }
        tetrahedra.push(corners);
    }
    let mut nodes = Vec::new();
    for (i, p) in listed.nodes.iter().enumerate() {
        if used[i] {
            index[i] = nodes.len() as u32;
            nodes.push(*p);
        }
    }
    for t in &mut tetrahedra {
        *t = t.map(|i| index[i as usize]);
    }
    let name = |t: usize| {
        let (tag, _, line) = listed.tetrahedra[t];
        format!("line {line}: tetrahedron {tag}")
    };
    TetMesh::checked(nodes, tetrahedra, path, &name)
}
