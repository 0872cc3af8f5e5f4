//! TEMPORARY stand-in for `hooke::population`'s genome types until branch population is merged.

use hooke::Part;
use serde::Deserialize;

/// Stand-in.
#[derive(Clone, Debug, Default, Deserialize)]
pub(crate) struct GenomeSettings(serde_json::Value);

/// Stand-in.
#[derive(Clone, Debug, Deserialize)]
pub(crate) struct VoxelGenome(serde_json::Value);

impl VoxelGenome {
    /// Stand-in.
    pub(crate) fn part(&self, _: &GenomeSettings) -> hooke::Result<Part> {
        Err(hooke::Error::InvalidParameter {
            name: "genome",
            value: 0.0,
            expected: "not yet",
        })
    }
}
