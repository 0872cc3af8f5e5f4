//! The CSV trace of `hooke run`: one row per sample, the same columns on either backend.

use std::io::Write;

use hooke::{Energy, Simulation};

/// Column names of the energy terms, in the order [`energy_values`] gives them.
const ENERGY_COLUMNS: [&str; 8] = [
    "kinetic",
    "gravity",
    "elastic",
    "ground",
    "dissipated",
    "injected",
    "total",
    "balance",
];

/// The header: `t` (s); `<body>_x`, `<body>_y`, `<body>_z` (m) for each body's centre of mass
/// (the body's name, or `body<i>` when it has none; `#<i>` is appended to repeated names);
/// then every energy term (J).
pub(crate) fn header(body_names: &[String]) -> Vec<String> {
    let mut columns = vec!["t".to_owned()];
    for name in unique_names(body_names) {
        columns.extend(["x", "y", "z"].map(|axis| format!("{name}_{axis}")));
    }
    columns.extend(ENERGY_COLUMNS.map(str::to_owned));
    columns
}

/// Body names made unique and non-empty, so each CSV column name appears once.
fn unique_names(names: &[String]) -> Vec<String> {
    let mut seen = std::collections::HashSet::new();
    names
        .iter()
        .enumerate()
        .map(|(i, name)| {
            let base = if name.is_empty() {
                format!("body{i}")
            } else {
                name.clone()
            };
            if seen.insert(base.clone()) {
                base
            } else {
                format!("{base}#{i}")
            }
        })
        .collect()
}

/// The energy terms in [`ENERGY_COLUMNS`] order, in J.
fn energy_values(e: &Energy) -> [f64; 8] {
    [
        e.kinetic,
        e.gravity,
        e.elastic,
        e.ground,
        e.dissipated,
        e.injected,
        e.total(),
        e.balance(),
    ]
}

/// The trace row of `sim`'s current state. Time is `steps * dt` so rows land on round times.
pub(crate) fn values<S: Simulation>(sim: &S) -> hooke::Result<Vec<f64>> {
    let t = sim.steps() as f64 * sim.dt();
    let mut values = vec![t];
    for body in sim.bodies()? {
        values.extend(body.centre_of_mass.to_array());
    }
    values.extend(energy_values(&sim.energy()?));
    Ok(values)
}

/// Writes CSV rows of a simulation as it runs.
pub(crate) struct TraceWriter<W: Write> {
    csv: csv::Writer<W>,
}

impl<W: Write> TraceWriter<W> {
    /// A writer that has written the header for `sim`'s bodies.
    pub(crate) fn new<S: Simulation>(sim: &S, out: W) -> csv::Result<Self> {
        let names: Vec<String> = sim
            .bodies_of_model()
            .iter()
            .map(|b| b.name.clone())
            .collect();
        let mut csv = csv::Writer::from_writer(out);
        csv.write_record(header(&names))?;
        Ok(Self { csv })
    }

    /// Writes the row of `sim`'s current state (see [`values`]).
    pub(crate) fn row<S: Simulation>(&mut self, sim: &S) -> Result<(), Box<dyn std::error::Error>> {
        let values = values(sim)?;
        self.write(&values)?;
        Ok(())
    }

    /// Writes one row; numbers are written in Rust's shortest round-trip form (no digits lost).
    pub(crate) fn write(&mut self, values: &[f64]) -> csv::Result<()> {
        self.csv.write_record(values.iter().map(|v| v.to_string()))
    }

    /// Flushes what is buffered.
    pub(crate) fn finish(mut self) -> std::io::Result<()> {
        self.csv.flush()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn repeated_and_empty_body_names_get_distinct_columns() {
        let names = ["cube".to_owned(), "cube".to_owned(), String::new()];
        let h = header(&names);
        assert_eq!(&h[..4], ["t", "cube_x", "cube_y", "cube_z"]);
        assert_eq!(&h[4..7], ["cube#1_x", "cube#1_y", "cube#1_z"]);
        assert_eq!(&h[7..10], ["body2_x", "body2_y", "body2_z"]);
        assert_eq!(h.len(), 1 + 9 + 8);
    }
}
