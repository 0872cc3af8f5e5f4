//! Models made through the public builders and `Params`, each with at most one value broken
//! (NaN, an infinity, a negative, zero, a huge number) in a builder, a placement or the
//! parameters: the error names the field, and a model that builds steps finite or reports its
//! blow-up. A few of them go through the GPU World as well.

use hooke::{
    Builder, Cloth, CpuWorld, Cube, DVec3, Friction, Lattice, Model, Params, Placement, Rope,
};
use proptest::prelude::*;

use super::mutate::Step;
use super::verdict::{check_named, failure_reported, step_checked};

/// Values that break a field (or, for some fields, are allowed edge cases).
const BAD: &[f64] = &[
    f64::NAN,
    f64::INFINITY,
    f64::NEG_INFINITY,
    -1.0,
    0.0,
    1e300,
    -1e-300,
    5e-324,
];

/// The fields a case may break, as they are named in errors.
const FIELDS: &[&str] = &[
    "dt",
    "gravity",
    "velocity_damping",
    "air_drag",
    "static_coefficient",
    "kinetic_coefficient",
    "cube.size",
    "cube.corner_mass",
    "cube.stiffness",
    "cube.damping",
    "rope.length",
    "rope.mass",
    "rope.stiffness",
    "cloth.spacing",
    "cloth.mass",
    "lattice.spacing",
    "lattice.stiffness",
    "placement.position",
    "placement.velocity",
];

/// One model: which body, its size knob, the field broken (if any) and the bad value.
#[derive(Clone, Debug)]
struct Case {
    body: u8,
    count: u32,
    broken: Option<(&'static str, f64)>,
    stiffness: f64,
    dt: f64,
}

fn case() -> impl Strategy<Value = Case> {
    (
        0..4u8,
        2..8u32,
        prop::option::weighted(
            0.8,
            (prop::sample::select(FIELDS), prop::sample::select(BAD)),
        ),
        1.0..1e5f64,
        1e-5..2e-3f64,
    )
        .prop_map(|(body, count, broken, stiffness, dt)| Case {
            body,
            count,
            broken,
            stiffness,
            dt,
        })
}

impl Case {
    /// The value of `field`: the broken one when this case breaks it, else `good`.
    fn value(&self, field: &str, good: f64) -> f64 {
        match self.broken {
            Some((f, v)) if f == field => v,
            _ => good,
        }
    }

    fn params(&self) -> Params {
        Params {
            dt: self.value("dt", self.dt),
            gravity: DVec3::new(0.0, 0.0, self.value("gravity", -9.81)),
            velocity_damping: self.value("velocity_damping", 0.5),
            air_drag: self.value("air_drag", 0.0),
            friction: Friction::coulomb(
                self.value("static_coefficient", 1.0),
                self.value("kinetic_coefficient", 0.8),
            ),
            ..Params::default()
        }
    }

    fn model(&self) -> hooke::Result<Model> {
        let k = self.stiffness;
        let part = match self.body {
            0 => Cube {
                size: self.value("cube.size", 0.1),
                corner_mass: self.value("cube.corner_mass", 0.1),
                stiffness: self.value("cube.stiffness", k),
                damping: self.value("cube.damping", 1.0),
                material: None,
            }
            .build()?,
            1 => Rope {
                segments: self.count,
                length: self.value("rope.length", 0.5),
                mass: self.value("rope.mass", 0.05),
                stiffness: self.value("rope.stiffness", k),
                ..Rope::default()
            }
            .build()?,
            2 => Cloth {
                nx: self.count,
                ny: self.count,
                spacing: self.value("cloth.spacing", 0.05),
                mass: self.value("cloth.mass", 0.01),
                ..Cloth::default()
            }
            .build()?,
            _ => Lattice {
                n: self.count.min(5),
                spacing: self.value("lattice.spacing", 0.01),
                stiffness: self.value("lattice.stiffness", k),
                ..Lattice::default()
            }
            .build()?,
        };
        let mut part = part;
        Placement {
            position: DVec3::new(0.0, 0.0, self.value("placement.position", 0.2)),
            velocity: DVec3::new(self.value("placement.velocity", 0.0), 0.0, 0.0),
            ..Placement::IDENTITY
        }
        .apply(&mut part)?;
        let mut model = Model::new(self.params());
        model.add("body", part);
        model.validate()?;
        Ok(model)
    }

    /// The path an error must name: the field broken, as its last dotted name.
    fn path(&self) -> Vec<Step> {
        self.broken
            .iter()
            .flat_map(|(f, _)| f.split('.').map(|k| Step::Key(k.to_owned())))
            .collect()
    }
}

/// The case through the model checks and the CPU reference.
fn cpu_case_holds(case: &Case) -> Result<(), String> {
    let model = match case.model() {
        Ok(model) => model,
        Err(e) => return check_named(&e, &case.path(), "model"),
    };
    match CpuWorld::new(&model) {
        Ok(mut world) => step_checked(&mut world, 30),
        Err(e) => check_named(&e, &case.path(), "CpuWorld::new"),
    }
}

proptest! {
    #![proptest_config(super::config(64))]

    #[test]
    fn built_models_with_a_broken_value_are_refused_by_name(case in case()) {
        cpu_case_holds(&case).map_err(|e| TestCaseError::fail(format!("{case:?}: {e}")))?;
    }
}

proptest! {
    #![proptest_config(super::config(4))]

    /// The GPU World on the same cases: a broken value is refused by name (f32 range included),
    /// a model that builds steps finite or reports its blow-up.
    #[test]
    #[cfg_attr(skip_gpu_tests, ignore = "HOOKE_SKIP_GPU_TESTS=1")]
    fn built_models_with_a_broken_value_on_the_gpu(case in case()) {
        let Ok(model) = case.model() else { return Ok(()) };
        let (device, queue) = crate::common::gpu();
        match hooke::World::with_device(device.clone(), queue.clone(), &model, Default::default()) {
            Ok(mut world) => match world.step(30) {
                Ok(()) => {
                    let p = world.positions().unwrap();
                    prop_assert!(p.iter().all(|p| p.is_finite()), "{case:?}: non-finite positions returned as Ok");
                }
                Err(e) => failure_reported(&e).map_err(TestCaseError::fail)?,
            },
            Err(e) => check_named(&e, &case.path(), "World::with_device").map_err(TestCaseError::fail)?,
        }
    }
}
