//! The `$Nodes` and `$Elements` sections of MSH format 4.1 (ASCII): entity blocks, each a
//! header line then its nodes' tags and coordinates, or its elements.

use super::cursor::{truncate, Cursor};
use super::listed::{other_volume, parse_all, Listed, TETRAHEDRON};
use crate::error::Result;

/// `$Nodes`: `blocks nodes min-tag max-tag`, then per block `dim entity parametric count`,
/// `count` lines of one tag, `count` lines of `x y z` (and `u v w` when parametric).
pub(super) fn nodes(at: &mut Cursor<'_>, listed: &mut Listed) -> Result<()> {
    let head = at.numbers::<u64>(
        "the $Nodes header (blocks, nodes, min tag, max tag)",
        4,
        false,
    )?;
    let blocks = at.check_count("node blocks", head[0], 1)?;
    let total = at.check_count("nodes", head[1], 2)?;
    listed.nodes.reserve(total);
    let mut seen = 0usize;
    for _ in 0..blocks {
        let block = at.numbers::<u64>(
            "a node block header (dimension, entity, parametric, count)",
            4,
            false,
        )?;
        let parametric = block[2] != 0;
        let count = at.check_count("nodes in the block", block[3], 2)?;
        seen = seen.saturating_add(count);
        if seen > total {
            return Err(at.error(format!(
                "the node blocks hold more nodes than the header's {total}"
            )));
        }
        let mut tags = Vec::with_capacity(count);
        for _ in 0..count {
            let [tag] = at.numbers::<u64>("a node tag", 1, false)?[..] else {
                unreachable!("one number")
            };
            tags.push(tag);
        }
        for tag in tags {
            let p = at.numbers::<f64>("a node's coordinates (x y z)", 3, parametric)?;
            listed.node(tag, [p[0], p[1], p[2]], at)?;
        }
    }
    if seen != total {
        return Err(at.error(format!(
            "the node blocks hold {seen} nodes, the header says {total}"
        )));
    }
    at.expect("$EndNodes")
}

/// `$Elements`: `blocks elements min-tag max-tag`, then per block `dim entity type count` and
/// `count` lines of `tag node...`; only blocks of type 4 are kept, and a block of other volume
/// elements (dimension 3) is refused.
pub(super) fn elements(at: &mut Cursor<'_>, listed: &mut Listed) -> Result<()> {
    let head = at.numbers::<u64>(
        "the $Elements header (blocks, elements, min tag, max tag)",
        4,
        false,
    )?;
    let blocks = at.check_count("element blocks", head[0], 1)?;
    let total = at.check_count("elements", head[1], 1)?;
    let mut seen = 0usize;
    for _ in 0..blocks {
        let block = at.numbers::<u64>(
            "an element block header (dimension, entity, type, count)",
            4,
            false,
        )?;
        let count = at.check_count("elements in the block", block[3], 1)?;
        seen = seen.saturating_add(count);
        if seen > total {
            return Err(at.error(format!(
                "the element blocks hold more elements than the header's {total}"
            )));
        }
        let keep = block[2] == u64::from(TETRAHEDRON);
        if block[0] == 3 && !keep && count > 0 {
            return Err(other_volume(block[2], at));
        }
        if keep {
            listed.tetrahedra.reserve(count);
        }
        for _ in 0..count {
            let line = at.expect_line("an element (tag, then its nodes)")?;
            if !keep {
                continue;
            }
            let t: Vec<&str> = line.split_ascii_whitespace().collect();
            let bad = || {
                at.error(format!(
                    "a tetrahedron should be \"tag node node node node\", found {:?}",
                    truncate(line)
                ))
            };
            let [tag] = parse_all(t.get(..1).unwrap_or_default(), bad)?;
            let nodes = parse_all(t.get(1..).unwrap_or_default(), bad)?;
            listed.tetrahedra.push((tag, nodes, at.line()));
        }
    }
    if seen != total {
        return Err(at.error(format!(
            "the element blocks hold {seen} elements, the header says {total}"
        )));
    }
    at.expect("$EndElements")
}
