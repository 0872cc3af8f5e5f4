//! Model values valid in f64 but not in the GPU's f32 are World build errors naming the
//! element, the field and the f32 range.

use hooke::{Builder, Cube, DVec3, Error, Model, Params, Placement, World, WorldOptions};

/// The Lipson cube with `edit` applied.
fn cube(edit: impl FnOnce(&mut Model)) -> Model {
    let mut model = Model::new(Params::default());
    model.add(
        "cube",
        Cube::lipson()
            .build_at(&Placement::at(DVec3::new(0.0, 0.0, 0.2)))
            .unwrap(),
    );
    edit(&mut model);
    model
}

#[test]
#[cfg_attr(skip_gpu_tests, ignore = "HOOKE_SKIP_GPU_TESTS=1")]
fn values_beyond_f32_are_named_build_errors_not_pipeline_errors() {
    let cases: Vec<(&str, &str, Model)> = vec![
        (
            "mass 3",
            "position",
            cube(|m| m.masses[3].position.x = 1e39),
        ),
        (
            "spring 5",
            "stiffness",
            cube(|m| m.springs[5].stiffness = 1e39),
        ),
        (
            "mass 2",
            "external_force",
            cube(|m| m.masses[2].external_force.z = -1e39),
        ),
        ("mass 4", "mass", cube(|m| m.masses[4].mass = 1e-300)),
        ("params", "dt", cube(|m| m.params.dt = 1e-300)),
    ];
    let (device, queue) = super::common::gpu();
    for (element, field, model) in cases {
        model.validate().unwrap();
        let result = World::with_device(
            device.clone(),
            queue.clone(),
            &model,
            WorldOptions::default(),
        );
        match result {
            Err(e @ Error::OutOfF32Range { .. }) => {
                let Error::OutOfF32Range {
                    element: got,
                    field: f,
                    ..
                } = &e
                else {
                    unreachable!()
                };
                assert_eq!((got.as_str(), *f), (element, field));
                let message = e.to_string();
                assert!(
                    message.contains("3.4028235e38") && message.contains(element),
                    "{message}"
                );
            }
            other => panic!("{element} {field}: expected OutOfF32Range, got {other:?}"),
        }
    }
    // The CPU reference runs such models in f64.
    hooke::CpuWorld::new(&cube(|m| m.masses[4].mass = 1e-300)).unwrap();
}

#[test]
#[cfg_attr(skip_gpu_tests, ignore = "HOOKE_SKIP_GPU_TESTS=1")]
fn external_force_beyond_f32_is_refused_by_the_setter() {
    let mut world = super::common::world(&cube(|_| {}));
    let e = world
        .set_external_force(1, DVec3::new(0.0, 2e39, 0.0))
        .unwrap_err();
    assert!(
        matches!(
            e,
            Error::OutOfF32Range {
                field: "external_force",
                ..
            }
        ),
        "{e}"
    );
    world
        .set_external_force(1, DVec3::new(0.0, 2.0, 0.0))
        .unwrap();
}
