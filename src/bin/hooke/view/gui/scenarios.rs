//! The built-in scenarios the viewer offers, each built from hooke's builders and creatures and selected
//! by its key in `hooke::render::input::SCENARIO_KEYS` (1-9, 0, -, =).

use std::f64::consts::TAU;

use hooke::creatures::{Creature, Inchworm, WalkingRobot, Wheel};
use hooke::{
    Builder, Cloth, Collision, Contact, DVec3, Friction, Model, Muscle, Obstacle, Params, Part,
    Placement, Rope, SpringLaw, Staircase, Voxel, VoxelBody,
};

/// A model and (for voxel bodies) the hexahedral cells of its solid look.
pub(crate) type Built = hooke::Result<(Model, Vec<[u32; 8]>)>;

/// A scenario: a name, a one-line description and how to build it.
pub(crate) struct Scenario {
    pub(crate) name: &'static str,
    pub(crate) about: &'static str,
    pub(crate) build: fn() -> Built,
}

// Every scenario has a key: a scenario past the key table does not compile.
const _: () = assert!(SCENARIOS.len() <= hooke::render::input::SCENARIO_KEYS.len());

pub(crate) const SCENARIOS: &[Scenario] = &[
    Scenario {
        name: "Bouncing cube",
        about: "Lipson: 0.1 m cube, 8 x 0.1 kg, k = 10 000 N/m, penalty ground, no damping.",
        build: bouncing_cube,
    },
    Scenario {
        name: "Sliding cube",
        about: "Lipson with velocity damping 0.999/step and Coulomb friction (0.6 / 0.4), thrown sideways.",
        build: sliding_cube,
    },
    Scenario {
        name: "Pendulum",
        about: "Lipson advanced 1: the cube hangs from one fixed corner.",
        build: pendulum,
    },
    Scenario {
        name: "Breathing cube",
        about: "Lipson advanced 5: every rest length follows a 1 Hz sine of 10 %.",
        build: breathing_cube,
    },
    Scenario {
        name: "Three cubes",
        about: "Lipson advanced 6: three attached cubes in a row, damped, dropped tilted.",
        build: three_cubes,
    },
    Scenario {
        name: "Rope",
        about: "CS838: a 24-mass rope with material-law damped springs, one end fixed.",
        build: rope,
    },
    Scenario {
        name: "Cloth",
        about: "CS838: 16 x 16 cloth pinned at two corners, structural, shear and bend springs.",
        build: cloth,
    },
    Scenario {
        name: "Walking robot",
        about: "hooke::creatures::WalkingRobot: voxels and actuators that walk forward.",
        build: || creature(WalkingRobot::default().build()),
    },
    Scenario {
        name: "Whirligig",
        about: "Facey: a 6-spoke wheel whose resting oscillators roll it forward.",
        build: || creature(Wheel::whirligig().build()),
    },
    Scenario {
        name: "Pinwheel",
        about: "Facey: the 10-spoke wheel.",
        build: || creature(Wheel::pinwheel().build()),
    },
    Scenario {
        name: "Inchworm",
        about: "Facey: an accordion that crawls with friction oscillators.",
        build: || creature(Inchworm::default().build()),
    },
    Scenario {
        name: "Stairs",
        about: "A soft Lipson cube (k = 3 000 N/m) thrown down a staircase of five 5 cm steps (obstacles).",
        build: stairs,
    },
    Scenario {
        name: "Colliding cubes",
        about: "Two soft 2 x 2 x 2 voxel cubes whose masses collide (5 cm radius): press T to throw one at the other.",
        build: colliding_cubes,
    },
];

/// A creature from `hooke::creatures` as a scenario (no solid look).
fn creature(built: hooke::Result<Creature>) -> Built {
    Ok((built?.model(), Vec::new()))
}

/// A model of one body, `part`, with `params`.
fn single_model(params: Params, part: Part, cells: Vec<[u32; 8]>) -> Built {
    let mut model = Model::new(params);
    model.add("body", part);
    Ok((model, cells))
}

/// The Lipson cube (0.1 m, 0.1 kg corners, k = 10 000 N/m) with axial damping `damping`
/// (N*s/m), as a one-voxel body so that its cell comes with it.
fn cube(damping: f64) -> VoxelBody {
    VoxelBody::from_cells([[0, 0, 0]]).with_material(0.1, 0.1, 10_000.0, damping)
}

/// `body` built and placed, with its cells.
fn place(body: &VoxelBody, placement: &Placement) -> hooke::Result<(Part, Vec<[u32; 8]>)> {
    let built = body.build_voxels()?;
    let mut part = built.part;
    placement.apply(&mut part)?;
    Ok((part, built.voxel_masses))
}

fn bouncing_cube() -> Built {
    let (part, cells) = place(&cube(0.0), &Placement::at(DVec3::new(-0.05, -0.05, 0.2)))?;
    single_model(Params::default(), part, cells)
}

fn sliding_cube() -> Built {
    let placement =
        Placement::at(DVec3::new(-0.3, -0.05, 0.05)).with_velocity(DVec3::new(1.5, 0.0, 0.0));
    let (part, cells) = place(&cube(0.0), &placement)?;
    let params = Params {
        velocity_damping: Params::damping_rate_from_factor(0.999, 1e-4),
        friction: Friction::coulomb(0.6, 0.4),
        ..Params::default()
    };
    single_model(params, part, cells)
}

fn pendulum() -> Built {
    let placement =
        Placement::at(DVec3::new(0.0, 0.0, 0.3)).with_velocity(DVec3::new(0.5, 0.2, 0.0));
    let (mut part, cells) = place(&cube(1.0), &placement)?;
    // Fix the corner at (0, 0, 0.4) (corner 4): the cube swings from it.
    part.masses[4].fixed = true;
    part.masses[4].velocity = DVec3::ZERO;
    single_model(Params::default(), part, cells)
}

fn breathing_cube() -> Built {
    let body = VoxelBody {
        voxels: vec![Voxel::new([0, 0, 0]).with_muscle(Muscle::new(0.1, TAU, 0.0))],
        ..cube(2.0)
    };
    let (part, cells) = place(&body, &Placement::at(DVec3::new(-0.05, -0.05, 0.0)))?;
    let params = Params {
        friction: Friction::coulomb(0.8, 0.6),
        ..Params::default()
    };
    single_model(params, part, cells)
}

fn three_cubes() -> Built {
    let body = VoxelBody::three_cubes().with_material(0.1, 0.1, 10_000.0, 2.0);
    // Tilted by 15 degrees (the +x end up: -15 degrees about +y), then lifted.
    let placement = Placement::at(DVec3::new(-0.15, -0.05, 0.15)).with_rotation(DVec3::new(
        0.0,
        -15f64.to_radians(),
        0.0,
    ));
    let (part, cells) = place(&body, &placement)?;
    let params = Params {
        friction: Friction::coulomb(0.5, 0.4),
        ..Params::default()
    };
    single_model(params, part, cells)
}

fn rope() -> Built {
    let segments = 23;
    let rope = Rope {
        segments,
        length: f64::from(segments) * 0.025,
        mass: 0.01,
        stiffness: 60.0,
        bending_stiffness: 0.0,
        damping: 0.05,
        law: SpringLaw::Material,
        direction: DVec3::X,
        fix_first: true,
    };
    let part = rope.build_at(&Placement::at(DVec3::new(0.0, 0.0, 0.7)))?;
    let params = Params {
        air_drag: 0.002,
        ..Params::default()
    };
    single_model(params, part, Vec::new())
}

fn cloth() -> Built {
    let n = 16;
    let cloth = Cloth {
        nx: n,
        ny: n,
        spacing: 0.4 / f64::from(n - 1),
        mass: 0.004,
        structural: 40.0,
        shear: 10.0,
        bending: 2.0,
        damping: 0.02,
        law: SpringLaw::Hooke,
        pinned: Vec::new(),
    };
    // Pinned at the two corners of its first row, which is the top edge once placed.
    let [first, last, ..] = cloth.corners();
    let cloth = Cloth {
        pinned: vec![first, last],
        ..cloth
    };
    // The grid's +y turns toward (0, 0.98, -0.2): the cloth starts almost level, sloping gently
    // down away from its pinned edge (centred on x = 0 at z = 0.6 m), and falls from the pins.
    let slope = (-0.2f64).atan2(0.98);
    let placement =
        Placement::at(DVec3::new(-0.2, 0.0, 0.6)).with_rotation(DVec3::new(slope, 0.0, 0.0));
    let part = cloth.build_at(&placement)?;
    let params = Params {
        dt: 2e-4,
        air_drag: 0.0005,
        contact: Contact::Penalty {
            stiffness: 2_000.0,
            damping: 1.0,
        },
        friction: Friction::coulomb(0.5, 0.4),
        ..Params::default()
    };
    single_model(params, part, Vec::new())
}

fn stairs() -> Built {
    let body = VoxelBody::from_cells([[0, 0, 0]]).with_material(0.1, 0.1, 3_000.0, 0.5);
    // Above the top step (x from 0.8 to 1.0 m, 0.25 m high), thrown toward the bottom (-x).
    let placement = Placement::at(DVec3::new(0.85, -0.05, 0.35))
        .with_rotation(DVec3::new(0.2, 0.1, 0.0))
        .with_velocity(DVec3::new(-0.8, 0.0, 0.0));
    let (part, cells) = place(&body, &placement)?;
    let params = Params {
        contact: Contact::Penalty {
            stiffness: 100_000.0,
            damping: 20.0,
        },
        friction: Friction::coulomb(0.6, 0.5),
        ..Params::default()
    };
    let (mut model, cells) = single_model(params, part, cells)?;
    let steps = Staircase {
        start: DVec3::ZERO,
        steps: 5,
        rise: 0.05,
        run: 0.2,
        width: 1.0,
        footing: Staircase::FOOTING,
    };
    for shape in steps.shapes()? {
        model.add_obstacle(Obstacle::new(
            shape,
            model.params.contact,
            model.params.friction,
        ));
    }
    Ok((model, cells))
}

/// Two soft cubes of 2 x 2 x 2 voxels (0.2 m, 27 masses of 0.1 kg, k = 5 000 N/m) resting 0.4 m
/// apart, every mass colliding with a radius of half the 0.1 m spacing (spring neighbours never
/// collide), damped collisions with friction: T throws one at the other.
fn colliding_cubes() -> Built {
    let cells = (0..8).map(|k| [k % 2, k / 2 % 2, k / 4]);
    let body = VoxelBody::from_cells(cells).with_material(0.1, 0.1, 5_000.0, 2.0);
    let params = Params {
        contact: Contact::Penalty {
            stiffness: 100_000.0,
            damping: 20.0,
        },
        friction: Friction::coulomb(0.6, 0.5),
        collision: Collision {
            stiffness: 20_000.0,
            damping: 5.0,
            friction: 0.3,
        },
        ..Params::default()
    };
    let mut model = Model::new(params);
    let mut all_cells = Vec::new();
    for (name, x) in [("left", -0.5), ("right", 0.3)] {
        let (part, cells) = place(&body, &Placement::at(DVec3::new(x, -0.1, 0.0)))?;
        let first = model.masses.len() as u32;
        all_cells.extend(cells.iter().map(|c| c.map(|i| i + first)));
        model.add(name, part.with_collision_radius(0.05));
    }
    Ok((model, all_cells))
}
