//! [`Trace`]: a body's centre of mass and the energy sampled over a run, and its CSV.

use std::fmt::Write as _;
use std::path::Path;

use glam::DVec3;

use crate::cpu::CpuWorld;
use crate::energy::Energy;
use crate::error::{Error, Result};
use crate::validate::{non_negative, positive};

/// Time, centre of mass of one body and the world's energy, sampled along a simulation.
///
/// # Examples
///
/// ```
/// use hooke::creatures::{DroppedStructure, Trace};
///
/// let mut world = DroppedStructure::hinge().build()?.world()?;
/// // 0.1 s of body 0, sampled every 0.05 s: at t = 0, 0.05 and 0.1 s.
/// let trace = Trace::record(&mut world, 0, 0.1, 0.05, |_world, _sample| Ok(()))?;
/// assert_eq!(trace.time.len(), 3);
/// assert!(trace.centre_of_mass[2].z < trace.centre_of_mass[0].z); // falling
/// assert!(trace.to_csv().starts_with("t_s,com_x_m,com_y_m,com_z_m,"));
/// # Ok::<(), hooke::Error>(())
/// ```
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Trace {
    /// Simulation times in s, increasing.
    pub time: Vec<f64>,
    /// Centre of mass of the body at each time, in m.
    pub centre_of_mass: Vec<DVec3>,
    /// Energy terms of the whole world at each time, in J.
    pub energy: Vec<Energy>,
}

impl Trace {
    /// Steps `world` for `duration` s, sampling body `body`'s centre of mass every `interval` s
    /// (first at the current time, last at the end). `each` is called after every sample with the
    /// world and the sample index (to write frames, energies, ...).
    ///
    /// # Errors
    /// [`Error::InvalidParameter`] if `duration` is negative or non-finite or `interval` is not
    /// finite and > 0; [`Error::IndexOutOfRange`] for a missing body; [`Error::BlowUp`] or
    /// [`Error::NonFinite`] if the simulation blows up; whatever `each` returns.
    pub fn record(
        world: &mut CpuWorld,
        body: usize,
        duration: f64,
        interval: f64,
        mut each: impl FnMut(&CpuWorld, usize) -> Result<()>,
    ) -> Result<Self> {
        non_negative("duration", duration, "must be finite and >= 0 s")?;
        positive("interval", interval, "must be finite and > 0 s")?;
        let dt = world.params().dt;
        let total = crate::model::steps_for(duration, dt)?;
        let every = ((interval / dt).round() as u64).max(1);
        let mut trace = Self::default();
        let mut taken = 0;
        loop {
            trace.time.push(world.time());
            trace.centre_of_mass.push(world.body_centre_of_mass(body)?);
            trace.energy.push(world.energy()?);
            each(world, trace.time.len() - 1)?;
            if taken == total {
                break;
            }
            let n = every.min(total - taken);
            world.step(n)?;
            taken += n;
        }
        Ok(trace)
    }

    /// Displacement of the centre of mass along +x from the first to the last sample, in m.
    #[must_use]
    pub fn forward_distance(&self) -> f64 {
        match (self.centre_of_mass.first(), self.centre_of_mass.last()) {
            (Some(a), Some(b)) => b.x - a.x,
            _ => 0.0,
        }
    }

    /// Sideways drift of the centre of mass (|displacement along y|) from the first to the last
    /// sample, in m.
    #[must_use]
    pub fn sideways_drift(&self) -> f64 {
        match (self.centre_of_mass.first(), self.centre_of_mass.last()) {
            (Some(a), Some(b)) => (b.y - a.y).abs(),
            _ => 0.0,
        }
    }

    /// `(time, energy)` pairs, in s and J.
    #[must_use]
    pub fn energy_samples(&self) -> Vec<(f64, Energy)> {
        self.time
            .iter()
            .copied()
            .zip(self.energy.iter().copied())
            .collect()
    }

    /// The trace as CSV text: a header line
    /// `t_s,com_x_m,com_y_m,com_z_m,kinetic_j,gravity_j,elastic_j,ground_j,dissipated_j,injected_j`
    /// and one line per sample.
    #[must_use]
    pub fn to_csv(&self) -> String {
        let mut s = String::from(
            "t_s,com_x_m,com_y_m,com_z_m,kinetic_j,gravity_j,elastic_j,ground_j,dissipated_j,injected_j\n",
        );
        for ((t, c), e) in self.time.iter().zip(&self.centre_of_mass).zip(&self.energy) {
            let _ = writeln!(
                s,
                "{t:.6},{:.9},{:.9},{:.9},{:.9},{:.9},{:.9},{:.9},{:.9},{:.9}",
                c.x, c.y, c.z, e.kinetic, e.gravity, e.elastic, e.ground, e.dissipated, e.injected
            );
        }
        s
    }

    /// Writes [`Trace::to_csv`] to `path`, creating its folder if needed.
    ///
    /// # Errors
    /// [`Error::SceneIo`] naming the path if the folder or file cannot be written.
    pub fn write_csv(&self, path: impl AsRef<Path>) -> Result<()> {
        let path = path.as_ref();
        let io = |source| Error::SceneIo {
            path: path.to_path_buf(),
            source,
        };
        if let Some(dir) = path.parent().filter(|d| !d.as_os_str().is_empty()) {
            std::fs::create_dir_all(dir).map_err(io)?;
        }
        std::fs::write(path, self.to_csv()).map_err(io)
    }
}
