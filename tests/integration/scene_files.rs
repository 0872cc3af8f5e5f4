//! Scene files: the shipped scenes load and run, scenes round-trip through JSON exactly, and bad
//! files give clear errors.

use std::path::{Path, PathBuf};

use hooke::builders::Muscle;
use hooke::{
    Actuator, BodyKind, BodySpec, Cloth, CpuWorld, Cube, DVec3, Error, ImageBody, ImageSource,
    Joint, Lattice, Mass, MassRef, Params, Part, Placement, RandomStructure, Rope, Scene, Spring,
    SpringLaw, Voxel, VoxelBody,
};

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// A fresh temporary folder for one test.
fn temp_dir(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("hooke-{name}-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

#[test]
fn shipped_scenes_load_and_run() {
    let mut names = Vec::new();
    for entry in std::fs::read_dir(root().join("scenes")).unwrap() {
        let path = entry.unwrap().path();
        if path.extension().is_some_and(|e| e == "json")
            && path.file_name().is_some_and(|n| n != "schema.json")
        {
            names.push(path);
        }
    }
    names.sort();
    assert!(names.len() >= 3, "scenes/ should ship example scenes");
    for path in &names {
        let scene = Scene::load(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        let model = scene
            .to_model()
            .unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        assert!(!model.masses.is_empty());
        let mut world = CpuWorld::new(&model).unwrap();
        world
            .step(200)
            .unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    }
}

#[test]
fn shipped_scenes_build_what_they_say() {
    let load = |name: &str| Scene::load(root().join("scenes").join(name)).unwrap();
    let cube = load("cube.json").to_model().unwrap();
    assert_eq!((cube.masses.len(), cube.springs.len()), (8, 28));
    let lattice = load("lattice.json").to_model().unwrap();
    assert_eq!(lattice.springs.len() as u64, Lattice::spring_count(10));
    assert_eq!(lattice.params, Lattice::benchmark_params());
    assert_eq!(lattice, Lattice::benchmark(10).model().unwrap());
    let m = load("image_m.json").to_model().unwrap();
    assert_eq!(m.masses.len(), 50);
    assert_eq!(m.params, ImageBody::anderson_params());
    let walker = load("walker.json").to_model().unwrap();
    assert_eq!(walker.masses.len(), 20);
    assert_eq!(walker.actuators.len(), 56);
    let mixed = load("mixed.json").to_model().unwrap();
    assert_eq!(mixed.bodies.len(), 4);
    assert!(mixed.masses[mixed.bodies[2].masses.start + 7].fixed);
    // Three cubes 84 - 12, random K4 + 3 per later mass, cube 28, 3 joints.
    assert_eq!(mixed.springs.len(), 72 + 6 + 3 * 26 + 28 + 3);
}

/// A scene using every kind of body, placements, fixed masses, actuators and joints.
fn everything(image: &Path) -> Scene {
    let mut scene = Scene::new(Params {
        velocity_damping: 1.0,
        ..Params::default()
    });
    scene.push(
        BodySpec::new(BodyKind::Cube(Cube {
            damping: 0.3,
            ..Cube::lipson()
        }))
        .named("cube")
        .placed(
            Placement::at(DVec3::new(0.0, 0.0, 0.3))
                .with_rotation(DVec3::new(0.1, 0.2, 0.3))
                .with_velocity(DVec3::new(0.2, 0.0, 0.0)),
        ),
    );
    scene.push(BodySpec::new(BodyKind::Voxels(VoxelBody {
        voxels: vec![
            Voxel::new([0, 0, 0]).with_muscle(Muscle::new(0.05, 8.0, 0.25)),
            Voxel::new([1, 0, 1]),
        ],
        ..VoxelBody::default()
    })));
    scene.push(
        BodySpec::new(BodyKind::Image(ImageSource {
            path: image.to_path_buf(),
            body: ImageBody {
                spacing: 0.02,
                stiffness: 2000.0,
                h0: 0.3,
                ..ImageBody::anderson_table1()
            },
        }))
        .placed(Placement::at(DVec3::new(1.0, 0.0, 0.0))),
    );
    scene.push(BodySpec::new(BodyKind::Rope(Rope {
        segments: 5,
        law: SpringLaw::Material,
        ..Rope::default()
    })));
    scene.push(BodySpec::new(BodyKind::Cloth(
        Cloth {
            nx: 4,
            ny: 3,
            ..Cloth::default()
        }
        .pinned_top(),
    )));
    scene.push(BodySpec::new(BodyKind::Random(RandomStructure {
        seed: 9,
        ..RandomStructure::default()
    })));
    scene.push(BodySpec::new(BodyKind::Lattice(Lattice::benchmark(3))));
    let mut part = Part::new();
    let a = part.add_mass(Mass::new(0.1, DVec3::new(0.0, 2.0, 0.5)));
    let b = part.add_mass(Mass::new(0.1, DVec3::new(0.1, 2.0, 0.5)).with_velocity(DVec3::Z));
    part.add_spring(Spring::hooke(a, b, 100.0, 0.1).with_damping(0.1));
    let mut hand = BodySpec::new(BodyKind::Part(part)).named("by hand");
    hand.fixed = vec![0];
    hand.actuators = vec![Actuator {
        spring: 0,
        amplitude: 0.2,
        omega: 3.0,
        phase: 0.0,
        duty: None,
        commanded: false,
    }];
    scene.push(hand);
    scene.joints.push(Joint {
        a: MassRef { body: 0, mass: 7 },
        b: MassRef { body: 3, mass: 5 },
        stiffness: 50.0,
        damping: 0.1,
        law: SpringLaw::Hooke,
        rest_length: None,
    });
    scene.joints.push(Joint {
        a: MassRef { body: 7, mass: 1 },
        b: MassRef { body: 1, mass: 0 },
        stiffness: 10.0,
        damping: 0.0,
        law: SpringLaw::Hooke,
        rest_length: Some(0.5),
    });
    scene
}

#[test]
fn scene_round_trip_gives_equal_models_and_identical_trajectories() {
    let dir = temp_dir("round-trip");
    std::fs::copy(root().join("assets/m.png"), dir.join("m.png")).unwrap();
    // A relative image path, resolved against the scene file's folder on load.
    let mut scene = everything(Path::new("m.png"));
    scene.base_dir = Some(dir.clone());
    let path = dir.join("scene.json");
    scene.save(&path).unwrap();
    let loaded = Scene::load(&path).unwrap();
    assert_eq!(loaded.bodies, scene.bodies);
    assert_eq!(loaded.joints, scene.joints);
    assert_eq!(loaded.params, scene.params);
    // Text round trip too.
    let again = Scene::from_json_str(&loaded.to_json_string()).unwrap();
    assert_eq!(again.bodies, scene.bodies);

    let m1 = scene.to_model().unwrap();
    let m2 = loaded.to_model().unwrap();
    assert_eq!(m1, m2);
    assert_eq!(m1.bodies.len(), 8);
    assert_eq!(m1.bodies[7].name, "by hand");
    assert_eq!(m1.bodies[3].name, "rope");
    assert_eq!(m1.actuators.len(), 28 + 1);

    let mut w1 = CpuWorld::new(&m1).unwrap();
    let mut w2 = CpuWorld::new(&m2).unwrap();
    w1.step(500).unwrap();
    w2.step(500).unwrap();
    assert_eq!(w1.position_slice(), w2.position_slice());
    assert_eq!(w1.velocity_slice(), w2.velocity_slice());
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn relative_image_paths_resolve_against_the_scene_folder() {
    let json = r#"{ "version": 1, "bodies": [ { "body": { "type": "image", "path": "../assets/square.png" } } ] }"#;
    // Loaded from scenes/, the path resolves to assets/square.png.
    let dir = root().join("scenes");
    let mut scene = Scene::from_json_str(json).unwrap();
    scene.base_dir = Some(dir);
    assert_eq!(scene.to_model().unwrap().masses.len(), 64);
    // Without a base folder it is relative to the current directory (the crate root in tests),
    // where ../assets does not exist.
    scene.base_dir = None;
    assert!(matches!(scene.to_model(), Err(Error::Image { .. })));
}

#[test]
fn defaults_fill_everything_left_out() {
    let scene =
        Scene::from_json_str(r#"{ "version": 1, "bodies": [ { "body": { "type": "cube" } } ] }"#)
            .unwrap();
    assert_eq!(scene.params, Params::default());
    assert_eq!(scene.bodies[0].body, BodyKind::Cube(Cube::lipson()));
    assert_eq!(scene.bodies[0].placement, Placement::IDENTITY);
    let model = scene.to_model().unwrap();
    assert_eq!(model.bodies[0].name, "cube");
    assert_eq!(model.springs.len(), 28);
}

#[test]
fn bad_files_give_clear_errors() {
    match Scene::load("/no/such/scene.json") {
        Err(Error::SceneIo { path, .. }) => assert_eq!(path, PathBuf::from("/no/such/scene.json")),
        other => panic!("{other:?}"),
    }
    // Broken JSON: the error carries line and column.
    let broken =
        "{ \"version\": 1,\n  \"bodies\": [\n    { \"body\": { \"type\": \"cube\", } }\n  ]\n}";
    match Scene::from_json_str(broken) {
        Err(Error::SceneParse { source, .. }) => {
            assert_eq!(source.line(), 3);
            assert!(source.column() > 0);
        }
        other => panic!("{other:?}"),
    }
    // A typo in a field name is rejected, not ignored.
    for json in [
        r#"{ "version": 1, "bodies": [ { "body": { "type": "cube", "sise": 0.2 } } ] }"#,
        r#"{ "version": 1, "bodys": [] }"#,
        r#"{ "version": 1, "bodies": [ { "body": { "type": "cube" }, "placment": {} } ] }"#,
        r#"{ "version": 1, "bodies": [ { "body": { "type": "image", "path": "a.png", "spacingg": 1 } } ] }"#,
        r#"{ "version": 1, "bodies": [ { "body": { "type": "teapot" } } ] }"#,
        r#"{ "version": 1, "bodies": [ { "body": { "type": "image", "spacing": 1 } } ] }"#,
    ] {
        assert!(
            matches!(Scene::from_json_str(json), Err(Error::SceneParse { .. })),
            "{json}"
        );
    }
    // Parses, but the builder rejects the value.
    let scene = Scene::from_json_str(
        r#"{ "version": 1, "bodies": [ { "body": { "type": "cube", "size": -1 } } ] }"#,
    )
    .unwrap();
    assert!(matches!(
        scene.to_model(),
        Err(Error::InvalidParameter {
            name: "cube.size",
            ..
        })
    ));
    // Model validation runs too (dt = 0).
    let scene = Scene::from_json_str(
        r#"{ "version": 1, "params": { "dt": 0 }, "bodies": [ { "body": { "type": "cube" } } ] }"#,
    )
    .unwrap();
    assert!(matches!(
        scene.to_model(),
        Err(Error::InvalidParameter { name: "dt", .. })
    ));
    // Fixed masses, actuators and joints must exist.
    for json in [
        r#"{ "version": 1, "bodies": [ { "body": { "type": "cube" }, "fixed": [8] } ] }"#,
        r#"{ "version": 1, "bodies": [ { "body": { "type": "cube" }, "actuators": [ { "spring": 28, "amplitude": 0.1, "omega": 1 } ] } ] }"#,
        r#"{ "version": 1, "bodies": [ { "body": { "type": "cube" } } ], "joints": [ { "a": { "body": 0, "mass": 0 }, "b": { "body": 1, "mass": 0 }, "stiffness": 1 } ] }"#,
        r#"{ "version": 1, "bodies": [ { "body": { "type": "cube" } } ], "joints": [ { "a": { "body": 0, "mass": 0 }, "b": { "body": 0, "mass": 9 }, "stiffness": 1 } ] }"#,
    ] {
        let scene = Scene::from_json_str(json).unwrap();
        assert!(
            matches!(
                scene.to_model(),
                Err(Error::InvalidBuilder {
                    builder: "scene",
                    ..
                })
            ),
            "{json}"
        );
    }
    // A joint from a mass to itself is a model error.
    let scene = Scene::from_json_str(
        r#"{ "version": 1, "bodies": [ { "body": { "type": "cube" } } ], "joints": [ { "a": { "body": 0, "mass": 1 }, "b": { "body": 0, "mass": 1 }, "stiffness": 1 } ] }"#,
    )
    .unwrap();
    assert!(matches!(scene.to_model(), Err(Error::SelfSpring { .. })));
    // An unwritable path.
    let err = Scene::default()
        .save("/no/such/dir/scene.json")
        .unwrap_err();
    assert!(matches!(err, Error::SceneIo { .. }));
}

#[test]
fn typo_in_scene_params_is_an_error() {
    // Regression: a typo inside `params` was ignored (gravity stayed -9.81). Every
    // scene-file struct rejects unknown fields, down to contact, friction and hand-made parts.
    for json in [
        r#"{ "version": 1, "params": { "gravty": [0, 0, -1] } }"#,
        r#"{ "version": 1, "params": { "friction": { "static_coefficient": 1, "kinetic_coefficient": 1, "rest_sped": 0 } } }"#,
        r#"{ "version": 1, "params": { "contact": { "penalty": { "stiffness": 1, "damping": 0, "dampng": 1 } } } }"#,
        r#"{ "version": 1, "bodies": [ { "body": { "type": "part", "masses": [ { "mas": 1 } ], "springs": [] } } ] }"#,
        r#"{ "version": 1, "bodies": [ { "body": { "type": "part", "masses": [], "springs": [ { "a": 0, "b": 1, "stiffness": 1, "rest_length": 1, "lw": "hooke" } ] } } ] }"#,
        r#"{ "version": 1, "bodies": [ { "body": { "type": "cube" }, "actuators": [ { "spring": 0, "amplitude": 0.1, "omega": 1, "phse": 0 } ] } ] }"#,
        r#"{ "version": 1, "bodies": [ { "body": { "type": "cube" }, "actuators": [ { "spring": 0, "amplitude": 0.1, "omega": 1, "duty": { "active": 1, "rest": 1, "ofset": 0 } } ] } ] }"#,
    ] {
        match Scene::from_json_str(json) {
            Err(Error::SceneParse { source, .. }) => {
                assert!(
                    source.to_string().contains("unknown field"),
                    "{json}: {source}"
                );
            }
            other => panic!("{json}: expected a parse error, got {other:?}"),
        }
    }
    // Spelt right, it is read.
    let scene =
        Scene::from_json_str(r#"{ "version": 1, "params": { "gravity": [0, 0, -1] } }"#).unwrap();
    assert_eq!(scene.params.gravity, DVec3::new(0.0, 0.0, -1.0));
}

/// serde_json's default float parser may read a 17-digit number back 1 ulp off (0.17320508075688779
/// came back as ...878), so a scene file saved from a model did not reload the same model. With
/// `float_roundtrip` every f64 reads back to the bit.
#[test]
fn scene_file_floats_read_back_to_the_bit() {
    let mut scene = Scene::new(Params::default());
    let mut state = 0x9E37_79B9_7F4A_7C15_u64;
    let mut values = Vec::new();
    for _ in 0..2000 {
        // SplitMix64 steps give f64s with all 17 significant digits in use.
        state = state.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = state;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        values.push((z >> 11) as f64 / (1u64 << 53) as f64);
    }
    values.push(0.173_205_080_756_887_79);
    for chunk in values.chunks(3) {
        let at = DVec3::new(chunk[0], chunk[1], *chunk.get(2).unwrap_or(&0.5));
        scene.push(BodySpec::new(BodyKind::Cube(Cube::default())).placed(Placement::at(at)));
    }
    let back = Scene::from_json_str(&scene.to_json_string()).unwrap();
    assert_eq!(back.to_json_string(), scene.to_json_string());
    let (a, b) = (scene.to_model().unwrap(), back.to_model().unwrap());
    for (x, y) in a.masses.iter().zip(&b.masses) {
        assert_eq!(
            x.position.to_array().map(f64::to_bits),
            y.position.to_array().map(f64::to_bits)
        );
    }
}

/// The path of the checked-in schema.
fn schema_path() -> PathBuf {
    root().join("scenes/schema.json")
}

/// `scenes/schema.json` is the schema the types generate. After changing a scene type, write it
/// again with `BLESS=1 cargo test --test scene_files checked_in_schema_is_current` (or
/// `hooke schema > scenes/schema.json`).
#[test]
fn checked_in_schema_is_current() {
    let generated = Scene::json_schema_string();
    if std::env::var_os("BLESS").is_some() {
        std::fs::write(schema_path(), &generated).unwrap();
    }
    let checked_in = std::fs::read_to_string(schema_path()).unwrap();
    assert!(
        checked_in == generated,
        "scenes/schema.json is not the schema the scene types generate; write it again with \
         `BLESS=1 cargo test --test scene_files checked_in_schema_is_current`"
    );
}

/// The scene schema compiled by an independent validator.
fn validator() -> (boon::Schemas, boon::SchemaIndex) {
    let mut schemas = boon::Schemas::new();
    let mut compiler = boon::Compiler::new();
    let url = "file:///scenes/schema.json";
    compiler
        .add_resource(url, Scene::json_schema())
        .expect("the schema is a valid resource");
    let index = compiler
        .compile(url, &mut schemas)
        .unwrap_or_else(|e| panic!("the scene schema does not compile: {e:#}"));
    (schemas, index)
}

#[test]
fn every_shipped_scene_validates_against_the_schema() {
    let (schemas, index) = validator();
    let files = crate::common::shipped_scene_files();
    assert!(files.len() >= 16, "{files:?}");
    for path in &files {
        let text = std::fs::read_to_string(path).unwrap();
        let value: serde_json::Value = serde_json::from_str(&text).unwrap();
        if let Err(e) = schemas.validate(&value, index) {
            panic!("{} does not follow scenes/schema.json: {e}", path.display());
        }
        // ... and what hooke writes for it does too.
        let written = Scene::load(path).unwrap().to_json_string();
        let written: serde_json::Value = serde_json::from_str(&written).unwrap();
        if let Err(e) = schemas.validate(&written, index) {
            panic!(
                "{} as saved does not follow the schema: {e}",
                path.display()
            );
        }
    }
}

/// The schema agrees with serde: what serde refuses, the schema refuses too, naming the place.
#[test]
fn schema_rejects_broken_files_naming_the_place() {
    let (schemas, index) = validator();
    let cube = root().join("scenes/cube.json");
    let good: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&cube).unwrap()).unwrap();
    let broken = |edit: &dyn Fn(&mut serde_json::Value)| {
        let mut v = good.clone();
        edit(&mut v);
        v
    };
    let cases: Vec<(serde_json::Value, &str)> = vec![
        // A typo in a builder field.
        (
            broken(&|v| v["bodies"][0]["body"]["sise"] = 1.into()),
            "/bodies/0/body",
        ),
        // The casing of files from before format 1.
        (
            broken(&|v| v["params"]["contact"] = serde_json::json!({ "Penalty": {} })),
            "/params/contact",
        ),
        (
            broken(&|v| v["params"]["integrator"] = "SemiImplicitEuler".into()),
            "/params/integrator",
        ),
        // No version, another version.
        (
            broken(&|v| {
                v.as_object_mut().unwrap().remove("version");
            }),
            "version",
        ),
        (broken(&|v| v["version"] = 2.into()), "/version"),
        // An unknown body type and an unknown terrain.
        (
            broken(&|v| v["bodies"][0]["body"]["type"] = "teapot".into()),
            "/bodies/0/body",
        ),
        (
            broken(&|v| v["terrain"] = serde_json::json!({ "hills": {} })),
            "/terrain",
        ),
    ];
    for (value, place) in cases {
        let err = schemas
            .validate(&value, index)
            .expect_err(&format!("the schema accepts {value}"));
        let message = format!("{err}");
        assert!(message.contains(place), "{place}: {message}");
        // serde refuses the same file.
        assert!(Scene::from_json_str(&value.to_string()).is_err(), "{value}");
    }
}

#[test]
fn a_file_without_the_right_version_is_refused_with_what_to_change() {
    let dir = temp_dir("version");
    let old = dir.join("old.json");
    std::fs::write(&old, r#"{ "bodies": [ { "body": { "type": "cube" } } ] }"#).unwrap();
    let err = Scene::load(&old).unwrap_err();
    assert!(matches!(&err, Error::SceneVersion { path, found: None } if *path == old));
    let message = err.to_string();
    for needed in [
        "old.json",
        "no \"version\"",
        "reads format version 1",
        "add \"version\": 1",
        "\"Penalty\" -> \"penalty\"",
        "\"center\" to \"centre\"",
    ] {
        assert!(message.contains(needed), "{needed:?} not in: {message}");
    }
    let newer = dir.join("newer.json");
    std::fs::write(&newer, r#"{ "version": 2, "bodies": [] }"#).unwrap();
    match Scene::load(&newer) {
        Err(e @ Error::SceneVersion { .. }) => {
            let message = e.to_string();
            assert!(
                message.contains("newer.json") && message.contains("\"version\": 2"),
                "{message}"
            );
        }
        other => panic!("{other:?}"),
    }
    // A version that is not a number is named as written.
    match Scene::from_json_str(r#"{ "version": "1" }"#) {
        Err(Error::SceneVersion { found, .. }) => assert_eq!(found.as_deref(), Some("\"1\"")),
        other => panic!("{other:?}"),
    }
    // Broken JSON is still reported with its line, not as a version problem.
    assert!(matches!(
        Scene::from_json_str("{ \"version\": 1,\n \"bodies\": [ }"),
        Err(Error::SceneParse { .. })
    ));
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn saved_scenes_carry_the_version_first_and_an_editor_schema_key_is_allowed() {
    let scene = Scene::load(root().join("scenes/cube.json")).unwrap();
    let text = scene.to_json_string();
    assert!(text.starts_with("{\n  \"version\": 1,\n"), "{text}");
    assert!(!text.contains("$schema"));
    // Enum values are written in snake_case.
    assert!(
        text.contains("\"penalty\"") && text.contains("\"semi_implicit_euler\""),
        "{text}"
    );
    let with_key = text.replacen('{', "{ \"$schema\": \"./schema.json\",", 1);
    assert_eq!(
        Scene::from_json_str(&with_key).unwrap(),
        Scene::from_json_str(&text).unwrap()
    );
}

/// Named creatures build what their builders build.
#[test]
fn named_creatures_build_what_their_builders_build() {
    use hooke::creatures::{
        BreathingCube, DroppedStructure, Inchworm, Pendulum, WalkingRobot, Wheel,
    };
    let json = r#"{ "version": 1, "bodies": [
        { "body": { "type": "walking_robot", "stride": 0.1 } },
        { "body": { "type": "commanded_walker" } },
        { "body": { "type": "inchworm", "segments": 5 } },
        { "body": { "type": "wheel", "spokes": 10 } },
        { "body": { "type": "breathing_cube", "amplitude": 0.2 } },
        { "body": { "type": "pendulum" } },
        { "body": { "type": "dropped_structure", "kind": { "random_blob": { "seed": 3 } } } },
        { "body": { "type": "dropped_structure", "kind": "hinge", "height": 0.5 } }
    ] }"#;
    let scene = Scene::from_json_str(json).unwrap();
    let parts = [
        WalkingRobot {
            stride: 0.1,
            ..WalkingRobot::default()
        }
        .build()
        .unwrap()
        .part,
        WalkingRobot::default().commanded().unwrap().creature.part,
        Inchworm {
            segments: 5,
            ..Inchworm::default()
        }
        .build()
        .unwrap()
        .part,
        Wheel::pinwheel().build().unwrap().part,
        BreathingCube {
            amplitude: 0.2,
            ..BreathingCube::default()
        }
        .build()
        .unwrap()
        .part,
        Pendulum::default().build().unwrap().part,
        DroppedStructure::random_blob(3).build().unwrap().part,
        DroppedStructure {
            height: 0.5,
            ..DroppedStructure::hinge()
        }
        .build()
        .unwrap()
        .part,
    ];
    for (spec, part) in scene.bodies.iter().zip(&parts) {
        assert_eq!(
            &spec.body.build(None).unwrap(),
            part,
            "{}",
            spec.body.type_name()
        );
    }
    let model = scene.to_model().unwrap();
    assert_eq!(model.bodies[0].name, "walking_robot");
    assert!(model.actuators.iter().any(|a| a.commanded));
    // The creatures' tuned ground is not a body field: the scene's params apply.
    let typo =
        r#"{ "version": 1, "bodies": [ { "body": { "type": "walking_robot", "dt": 1e-3 } } ] }"#;
    assert!(matches!(
        Scene::from_json_str(typo),
        Err(Error::SceneParse { .. })
    ));
}

/// The population file's schema compiles and accepts a population in format 1 (a genome robot
/// and an inline scene robot without its own version), which the library also reads.
#[test]
fn population_files_follow_their_schema() {
    use hooke::population::PopulationFile;
    let text = r#"{
        "version": 1,
        "evaluation": { "duration": 1.0, "terrain": { "slope": { "degrees": 5 } } },
        "robots": [
            { "id": "a", "genome": { "size": [1, 1, 2], "cells": ["soft", { "muscle": { "phase": 1 } }] } },
            { "id": "b", "scene": { "bodies": [ { "body": { "type": "walking_robot" } } ] } },
            { "id": "c", "scene": "robots/c.json" }
        ]
    }"#;
    let mut schemas = boon::Schemas::new();
    let mut compiler = boon::Compiler::new();
    let url = "file:///population.json";
    compiler
        .add_resource(url, PopulationFile::json_schema())
        .unwrap();
    let index = compiler.compile(url, &mut schemas).unwrap();
    let value: serde_json::Value = serde_json::from_str(text).unwrap();
    schemas.validate(&value, index).unwrap();
    let file = PopulationFile::from_json_str(text, Path::new("population.json")).unwrap();
    assert_eq!(file.robots.len(), 3);
    assert_eq!(file.evaluation.evaluation().unwrap().obstacles.len(), 1);
    // Without the version: refused by both.
    let old = text.replacen("\"version\": 1,", "", 1);
    let old_value: serde_json::Value = serde_json::from_str(&old).unwrap();
    assert!(schemas.validate(&old_value, index).is_err());
    assert!(matches!(
        PopulationFile::from_json_str(&old, Path::new("population.json")),
        Err(Error::SceneVersion { found: None, .. })
    ));
}
