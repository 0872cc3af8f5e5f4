//! The two worlds implement [`Simulation`] through their own methods (`delegate_simulation!`,
//! defined beside the trait): the backends sit above the trait, so the trait's file names
//! neither.

use glam::DVec3;

use super::{BodyState, Simulation};
use crate::cpu::CpuWorld;
use crate::energy::Energy;
use crate::error::Result;
use crate::gpu::World;
use crate::model::{Actuator, Body, DragSpring};
use crate::sensors::{Readings, SensorSpec};
use crate::snapshot::Snapshot;

delegate_simulation!(CpuWorld);
delegate_simulation!(World);

/// The model a [`CpuWorld`] was built from (what [`crate::render::record_cpu`] draws).
impl AsRef<crate::model::Model> for CpuWorld {
    fn as_ref(&self) -> &crate::model::Model {
        self.model()
    }
}
