//! The scene format version this hooke reads ([`FORMAT_VERSION`]) and what a file of another
//! version is told ([`version_message`]): a leaf that the errors (`Error::SceneVersion`) and the
//! scene, population and settings files all read. `hooke::scene` re-exports both.

/// The scene format version this hooke reads and writes: the `"version"` of every scene file and
/// of population and evolution settings files.
pub const FORMAT_VERSION: u32 = 1;

/// What [`Error::SceneVersion`](crate::Error::SceneVersion) says for a file whose `"version"` is `found` (as written; `None`
/// when there is none): the versions this hooke reads and how to update the file.
#[must_use]
pub fn version_message(found: Option<&str>) -> String {
    let reads = format!("this hooke reads format version {FORMAT_VERSION}");
    match found {
        None => format!(
            "no \"version\" field; {reads}. A file written before format 1 needs four changes: \
             add \"version\": 1 at the top; write enum values in snake_case (\"Penalty\" -> \
             \"penalty\", \"Restitution\" -> \"restitution\", \"None\" -> \"none\", \
             \"SemiImplicitEuler\" -> \"semi_implicit_euler\", \"ExplicitEuler\" -> \
             \"explicit_euler\", \"Coulomb\" -> \"coulomb\", \"Naive\" -> \"naive\", \"Hooke\" \
             -> \"hooke\", \"Material\" -> \"material\", \"ZeroLength\" -> \"zero_length\"); \
             rename the obstacle shapes' \"center\" to \"centre\"; a population file's terrain \
             list becomes one \"terrain\" object (see scenes/README.md)"
        ),
        Some(v) => format!(
            "\"version\": {v} is not a scene format version this hooke reads ({reads}; a newer \
             hooke may read a newer version)"
        ),
    }
}
