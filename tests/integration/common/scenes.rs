//! Test scenes: small versions of the source documents' scenes (docs/SOURCES.md), each made by a builder
//! ([`hooke::builders`]) or a creature ([`hooke::creatures`]) with a [`Placement`], plus plain
//! field edits on the built [`Part`] where a test needs a tweak (a fixed mass, a velocity, a
//! duty cycle, fewer muscles). [`all_laws`] alone adds hand-made springs, because no builder
//! mixes spring laws.
//!
//! The scenes are kept small: CI runs them on lavapipe, twice per atomic width.

use hooke::creatures::{BreathingCube, Inchworm, Pendulum};
use hooke::{
    Builder, Cloth, Contact, Cube, DVec2, DVec3, DutyCycle, Friction, Heightfield, ImageBody,
    Integrator, Lattice, Mass, Model, Obstacle, Params, Part, Placement, Rope, Shape, Spring,
    SpringLaw, Staircase,
};

/// Panics with the builder's message: test scenes use only valid parameters.
fn built<T>(what: &str, result: hooke::Result<T>) -> T {
    result.unwrap_or_else(|e| panic!("building the test scene {what} failed: {e}"))
}

/// The [`Cube`] builder: edge `size` (m), 8 corners of `mass` kg, its 28 springs (every pair of
/// corners, undamped) of stiffness `k` (N/m), lowest face at height `z` (m). Corner
/// `c = x + 2 y + 4 z` is mass `c`; springs join corner pairs in lexicographic order.
pub fn cube_part(size: f64, mass: f64, k: f64, z: f64) -> Part {
    let cube = Cube {
        size,
        corner_mass: mass,
        stiffness: k,
        damping: 0.0,
        material: None,
    };
    built(
        "cube",
        cube.build_at(&Placement::at(DVec3::new(0.0, 0.0, z))),
    )
}

/// Lipson step 2-4: the [`Cube::lipson`] (0.1 m, 0.8 kg, k = 10 000 N/m) turned 0.1 rad about
/// +y so it lands on an edge and tumbles, its local origin 0.1 m up (lowest corner at about
/// 0.09 m), dropped onto the penalty ground (k_c = 100 000 N/m), dt = 1e-4 s.
pub fn bouncing_cube() -> Model {
    let mut model = Model::new(Params::default());
    let placement =
        Placement::at(DVec3::new(0.0, 0.0, 0.1)).with_rotation(DVec3::new(0.0, 0.1, 0.0));
    model.add("cube", built("cube", Cube::lipson().build_at(&placement)));
    model
}

/// The docs/BENCHMARK_SCENE.md lattice ([`Lattice::benchmark`]): `n^3` masses of 0.1 kg at spacing 0.01 m from
/// z = `z0` (m), springs to the 13 forward neighbours (k = 10 000 N/m, c = 1 N*s/m), on the
/// default penalty ground with `friction`.
pub fn lattice(n: usize, z0: f64, friction: Friction) -> Model {
    let mut model = Model::new(Params {
        friction,
        ..Params::default()
    });
    let n = u32::try_from(n).expect("lattice side fits u32");
    let lattice = Lattice {
        z0,
        ..Lattice::benchmark(n)
    };
    model.add("lattice", built("lattice", lattice.build()));
    model
}

/// Lipson advanced 5: the [`BreathingCube`] creature breathing at 2 Hz, every spring's rest
/// length following `L (1 + 0.1 sin(2 pi 2 t + 2 pi p))`, standing on the ground with Coulomb
/// friction. Field edits spread the phases (`p = s / 28` for spring `s`) and give every fifth
/// spring a Facey duty cycle, so the test covers both.
pub fn breathing_cube() -> Model {
    let mut model = Model::new(Params {
        friction: Friction::coulomb(0.8, 0.6),
        ..Params::default()
    });
    let creature = BreathingCube {
        cube: Cube::lipson(),
        amplitude: 0.1,
        omega: std::f64::consts::TAU * 2.0,
    };
    let mut part = built("breathing cube", creature.build()).part;
    for a in &mut part.actuators {
        let s = a.spring;
        a.phase = f64::from(s) / 28.0;
        a.duty = (s % 5 == 0).then(|| DutyCycle {
            active: 0.15,
            rest: 0.1,
            offset: 0.02 * f64::from(s),
        });
    }
    model.add("breathing cube", part);
    model
}

/// Lipson advanced 1: the [`Pendulum`] creature, the Lipson cube hanging from its fixed
/// corner [`Pendulum::PIVOT`] at 0.6 m (the cube spans z = 0.5..0.6 m), with no ground; a field
/// edit pushes the opposite corner (mass 3) sideways at (0.5, -0.3, 0) m/s.
pub fn pendulum() -> Model {
    let mut model = Model::new(Params {
        contact: Contact::None,
        ..Params::default()
    });
    let creature = Pendulum {
        cube: Cube::lipson(),
        pivot_height: 0.6,
    };
    let mut part = built("pendulum", creature.build()).part;
    part.masses[3].velocity = DVec3::new(0.5, -0.3, 0.0);
    model.add("pendulum", part);
    model
}

/// CS838: a [`Cloth`] of `nx x ny` masses of 5 g, 0.02 m apart, with structural (40 N),
/// shear (20 N) and bending (5 N) springs of the material law, damped (0.01 N*s/m), pinned at its
/// two far corners ([`Cloth::pinned_top`]), lying horizontal at 1 m, under gravity with air drag
/// and no ground.
pub fn cloth(nx: u32, ny: u32) -> Model {
    let mut model = Model::new(Params {
        air_drag: 0.001,
        contact: Contact::None,
        ..Params::default()
    });
    let cloth = Cloth {
        nx,
        ny,
        spacing: 0.02,
        mass: 0.005,
        structural: 40.0,
        shear: 20.0,
        bending: 5.0,
        damping: 0.01,
        law: SpringLaw::Material,
        pinned: Vec::new(),
    }
    .pinned_top();
    let placement = Placement::at(DVec3::new(0.0, 0.0, 1.0));
    model.add("cloth", built("cloth", cloth.build_at(&placement)));
    model
}

/// CS838: a [`Rope`] (hair strand) of `n` masses of 10 g, 0.02 m apart, hanging from its
/// fixed first mass at 1 m, starting horizontal along +x, damped Hooke springs (500 N/m,
/// 0.05 N*s/m), falling onto nothing.
pub fn rope(n: u32) -> Model {
    let mut model = Model::new(Params {
        contact: Contact::None,
        ..Params::default()
    });
    let rope = Rope {
        segments: n - 1,
        length: f64::from(n - 1) * 0.02,
        mass: 0.01,
        stiffness: 500.0,
        bending_stiffness: 0.0,
        damping: 0.05,
        law: SpringLaw::Hooke,
        direction: DVec3::X,
        fix_first: true,
    };
    let placement = Placement::at(DVec3::new(0.0, 0.0, 1.0));
    model.add("rope", built("rope", rope.build_at(&placement)));
    model
}

/// Anderson: an [`ImageBody`] from a small in-memory picture (`#` black, `.` white): each black
/// pixel a mass of 10 g, 0.02 m apart, springs to its 8 neighbours (2000 N/m, 0.5 N*s/m), in the
/// vertical x-z plane, tilted by 0.3 rad and lifted 0.05 m, falling onto the restitution ground
/// (epsilon 0.5) with friction, with a little air drag.
pub fn image_body() -> Model {
    let rows = [
        "..####..", ".######.", "########", "##.##.##", "########", ".##..##.",
    ];
    let picture = image::GrayImage::from_fn(rows[0].len() as u32, rows.len() as u32, |u, r| {
        let black = rows[r as usize].as_bytes()[u as usize] == b'#';
        image::Luma([if black { 0 } else { 255 }])
    });
    let mut model = Model::new(Params {
        contact: Contact::Restitution { restitution: 0.5 },
        friction: Friction::coulomb(0.5, 0.4),
        air_drag: 0.01,
        ..Params::default()
    });
    let body = ImageBody {
        spacing: 0.02,
        mass: 0.01,
        stiffness: 2_000.0,
        damping: 0.5,
        threshold: 0.5,
        theta0: 0.3,
        h0: 0.05,
        material: None,
    };
    let part = body.from_image(&image::DynamicImage::ImageLuma8(picture));
    model.add("image body", built("image body", part));
    model
}

/// Two bodies made of materials, dropped on the default penalty ground with friction: a
/// 2 x 2 x 1 voxel body of Dragon Skin 10 (2 cm voxels, bonds damped at 5 % of critical),
/// turned 0.1 rad about +y, and beside it a 6 x 3 pixel image body of Ecoflex 00-30 (2 cm
/// pixels, 5 %) turned 0.2 rad in its plane. dt is half the model's stable step.
pub fn material_bodies() -> Model {
    let damped = |name: &str| built(name, hooke::Material::named(name)).with_damping_ratio(0.05);
    let voxels = hooke::VoxelBody {
        voxel_size: 0.02,
        ..hooke::VoxelBody::lattice(2, 2, 1)
    }
    .made_of(damped("dragon_skin_10"));
    let placement =
        Placement::at(DVec3::new(0.0, 0.0, 0.03)).with_rotation(DVec3::new(0.0, 0.1, 0.0));
    let picture = image::GrayImage::from_pixel(6, 3, image::Luma([0]));
    let sheet = ImageBody {
        spacing: 0.02,
        theta0: 0.2,
        h0: 0.02,
        material: Some(damped("ecoflex_00_30")),
        ..ImageBody::anderson_table1()
    };
    let mut model = Model::new(Params {
        friction: Friction::coulomb(0.6, 0.4),
        ..Params::default()
    });
    model.add("voxels", built("voxels", voxels.build_at(&placement)));
    let mut sheet_part = built(
        "sheet",
        sheet.from_image(&image::DynamicImage::ImageLuma8(picture)),
    );
    built(
        "sheet placement",
        Placement::at(DVec3::new(0.2, 0.0, 0.0)).apply(&mut sheet_part),
    );
    model.add("sheet", sheet_part);
    model.params.dt = model.stable_dt().dt / 2.0;
    model
}

/// Facey's inchworm: the [`Inchworm`] creature with its defaults and the parameters it was
/// tuned for (4 box segments, 20 masses, 94 springs; friction oscillators on its feet toggle their
/// grip), with muscles on its back only: a field edit keeps the actuators of the springs joining
/// two back masses (4 per segment, the top face of each box) and drops the others, so most
/// springs are plain and the stencil test gets a worm it covers in part (the creature actuates
/// every spring between cross-sections, more than half, and the stencil would then not be used).
pub fn inchworm() -> Model {
    let creature = built("inchworm", Inchworm::default().build());
    let mut part = creature.part;
    // Masses are numbered by cross-section: feet 4j, 4j + 1, back 4j + 2, 4j + 3.
    let back = |m: u32| m % 4 >= 2;
    let springs = &part.springs;
    part.actuators.retain(|a| {
        let s = springs[a.spring as usize];
        back(s.a) && back(s.b)
    });
    let mut model = Model::new(creature.params);
    model.add(creature.name, part);
    model
}

/// A structure using every spring law (Hooke, material, zero length), damping, global velocity
/// damping, air drag, an external force on one mass, a fixed mass, and the explicit integrator when
/// `explicit` is set; it falls onto the penalty ground with normal damping and friction.
///
/// Hand-made on purpose: every builder gives all its springs one law, and this scene exists to
/// mix them. It starts from a [`Cube`] (0.1 m, 0.1 kg corners, 8000 N/m, lowest face at 0.05 m)
/// whose springs are edited in turn to each law, and adds a hand-made tail and anchor.
pub fn all_laws(explicit: bool) -> Model {
    let mut model = Model::new(Params {
        integrator: if explicit {
            Integrator::ExplicitEuler
        } else {
            Integrator::SemiImplicitEuler
        },
        velocity_damping: Params::damping_rate_from_factor(0.9995, 1e-4),
        air_drag: 0.02,
        contact: Contact::Penalty {
            stiffness: 50_000.0,
            damping: 20.0,
        },
        friction: Friction::coulomb(0.6, 0.4),
        dt: if explicit { 5e-5 } else { 1e-4 },
        ..Params::default()
    });
    let mut part = cube_part(0.1, 0.1, 8_000.0, 0.05);
    for (i, s) in part.springs.iter_mut().enumerate() {
        match i % 3 {
            0 => {}
            1 => {
                // Material law with the same small-strain stiffness: k_mat = k L0.
                s.law = SpringLaw::Material;
                s.stiffness *= s.rest_length;
            }
            _ => {
                s.law = SpringLaw::ZeroLength;
                s.stiffness = 300.0;
            }
        }
        s.damping = 0.5 * (i % 2) as f64;
    }
    part.masses[0].velocity = DVec3::new(0.3, 0.1, 0.0);
    part.masses[5].external_force = DVec3::new(0.5, 0.0, 0.2);
    // A tail: a mass hanging off the cube on a material spring, and a fixed anchor tied to it by
    // a soft zero-length spring.
    let tail = part.add_mass(Mass::new(0.05, DVec3::new(0.2, 0.05, 0.1)));
    part.add_spring(Spring {
        a: 1,
        b: tail,
        law: SpringLaw::Material,
        stiffness: 400.0,
        damping: 0.2,
        rest_length: 0.09,
    });
    let anchor = part.add_mass(Mass::new(1.0, DVec3::new(0.3, 0.05, 0.3)).fixed());
    part.add_spring(Spring {
        a: tail,
        b: anchor,
        law: SpringLaw::ZeroLength,
        stiffness: 20.0,
        damping: 0.0,
        rest_length: 0.0,
    });
    model.add("all laws", part);
    model
}

/// A 0.1 m cube (0.1 kg corners, k = 10 000 N/m) turned by `turn` (rotation vector, rad), its
/// local origin at `at` (m), moving at `velocity` (m/s), over obstacle `shape` with `contact`
/// and Coulomb friction (mu_s = 0.5, mu_k = 0.4); the ground stays (penalty, k = 100 000 N/m).
pub fn cube_over(shape: Shape, contact: Contact, at: DVec3, turn: DVec3, velocity: DVec3) -> Model {
    let mut model = Model::new(Params::default());
    let cube = Cube {
        size: 0.1,
        corner_mass: 0.1,
        stiffness: 1e4,
        damping: 0.0,
        material: None,
    };
    let mut part = built(
        "cube",
        cube.build_at(&Placement::at(at).with_rotation(turn)),
    );
    for m in &mut part.masses {
        m.velocity = velocity;
    }
    model.add("cube", part);
    model.add_obstacle(Obstacle::new(shape, contact, Friction::coulomb(0.5, 0.4)));
    model
}

/// Penalty contact of the obstacle scenes: k = 100 000 N/m, c = 20 N*s/m.
const OBSTACLE_PENALTY: Contact = Contact::Penalty {
    stiffness: 1e5,
    damping: 20.0,
};

/// One scene per obstacle kind (a cube dropped, sliding, onto it; see [`cube_over`]), and one
/// with restitution, one with friction oscillators on a slope, and one with every kind at once
/// (a heightfield, a box, a sphere, a capsule and an oriented box in a row along +x, the cube
/// sliding across them). Each runs for a few thousand steps at dt = 1e-4 s.
pub fn obstacle_scenes() -> Vec<(&'static str, Model)> {
    let (drop, turn) = (DVec3::new(-0.05, -0.05, 0.35), DVec3::new(0.2, 0.3, 0.1));
    let slide = DVec3::new(0.8, 0.2, 0.0);
    let tilted = Shape::Plane {
        normal: DVec3::new(-0.3, 0.1, 1.0),
        offset: 0.1,
    };
    let boxed = Shape::Box {
        centre: DVec3::new(0.05, 0.0, 0.1),
        half_extents: DVec3::new(0.1, 0.2, 0.1),
    };
    let turned = Shape::OrientedBox {
        centre: DVec3::new(0.0, 0.0, 0.1),
        half_extents: DVec3::new(0.2, 0.15, 0.1),
        rotation: DVec3::new(0.25, -0.3, 0.4),
    };
    let ball = Shape::Sphere {
        centre: DVec3::new(0.06, 0.02, 0.0),
        radius: 0.2,
    };
    let capsule = Shape::Capsule {
        a: DVec3::new(-0.2, -0.1, 0.1),
        b: DVec3::new(0.2, 0.1, 0.15),
        radius: 0.08,
    };
    let ridge = Shape::Heightfield(Heightfield::from_fn(
        DVec3::new(-0.5, -0.5, 0.05),
        DVec2::splat(0.05),
        21,
        21,
        |x, y| 0.04 * (6.0 * x).sin() * (4.0 * y).cos(),
    ));
    // Restitution contact is a threshold (see tests/integration/common/parity.rs, item 3): each step a mass
    // is in contact in one run and not in the other kicks its velocity. The normal part of a
    // kick is reset by the next contact step, which the bound covers; the tangential part that
    // friction adds is not reset while the mass slides, and accumulates. On a plane that happens
    // once per landing; on a curved surface a sliding mass leaves and meets the surface every
    // few steps, and at a box's edge the nearest face can flip. So the restitution scenes are a
    // slab (no edge reached) with friction, and a sphere without friction.
    let slab = Shape::OrientedBox {
        centre: DVec3::new(0.0, 0.0, 0.1),
        half_extents: DVec3::new(2.0, 2.0, 0.1),
        rotation: DVec3::new(0.25, -0.3, 0.4),
    };
    let ball_r = ball.clone();
    let restitution = Contact::Restitution { restitution: 0.5 };
    let p = OBSTACLE_PENALTY;
    vec![
        ("plane", cube_over(tilted, p, drop, turn, slide)),
        ("box", cube_over(boxed, p, drop, turn, slide)),
        ("oriented box", cube_over(turned, p, drop, turn, slide)),
        ("sphere", cube_over(ball, p, drop, turn, slide)),
        ("capsule", cube_over(capsule, p, drop, turn, slide)),
        ("heightfield", cube_over(ridge, p, drop, turn, slide)),
        (
            "oriented slab, restitution",
            cube_over(slab, restitution, drop, turn, slide),
        ),
        (
            "sphere, restitution, no friction",
            frictionless(cube_over(ball_r, restitution, drop, turn, slide)),
        ),
        ("inchworm on a slope", inchworm_on_slope()),
        ("every kind", every_kind()),
        ("block across a staircase", block_on_stairs()),
    ]
}

/// A 6 x 6 x 6 lattice block (5 cm, the benchmark lattice's spacing and springs) dropped across
/// a 4-step staircase of 1 cm x 1.2 cm steps that it spans: its bottom layer lands on every step
/// edge and in the cells of the obstacle grid between them.
fn block_on_stairs() -> Model {
    let stairs = Staircase {
        steps: 4,
        rise: 0.01,
        run: 0.012,
        width: 0.2,
        ..Staircase::default()
    };
    let mut model = Model::new(Params::default());
    let lattice = Lattice {
        z0: 0.05,
        ..Lattice::benchmark(6)
    };
    model.add("block", built("lattice", lattice.build()));
    for shape in stairs.shapes().expect("staircase") {
        model.add_obstacle(Obstacle::new(
            shape,
            OBSTACLE_PENALTY,
            Friction::coulomb(0.5, 0.4),
        ));
    }
    model
}

/// `model` with its obstacles' friction removed.
fn frictionless(mut model: Model) -> Model {
    for ob in &mut model.obstacles {
        ob.friction = Friction::NONE;
    }
    model
}

/// [`inchworm`] on a plane rising 0.05 rad along +x instead of the ground (its friction
/// oscillators act on the plane).
fn inchworm_on_slope() -> Model {
    let mut model = inchworm();
    let contact = model.params.contact;
    let friction = model.params.friction;
    model.params.contact = Contact::None;
    let a = 0.05_f64;
    model.add_obstacle(Obstacle::new(
        Shape::Plane {
            normal: DVec3::new(-a.sin(), 0.0, a.cos()),
            offset: -0.001,
        },
        contact,
        friction,
    ));
    model
}

/// Five cubes in a row along +x, 0.5 m apart, each dropped sliding onto its own obstacle: a
/// heightfield, a box, a sphere, a capsule and an oriented box (with the penalty ground), so one
/// World meets every kind at once.
fn every_kind() -> Model {
    let mut model = Model::new(Params::default());
    let cube = Cube {
        size: 0.1,
        corner_mass: 0.1,
        stiffness: 1e4,
        damping: 0.0,
        material: None,
    };
    let shapes = [
        Shape::Heightfield(Heightfield::from_fn(
            DVec3::new(-0.2, -0.2, 0.05),
            DVec2::splat(0.1),
            5,
            5,
            |x, y| 0.03 * (8.0 * x).sin() * (3.0 * y).cos(),
        )),
        Shape::Box {
            centre: DVec3::new(0.5, 0.0, 0.05),
            half_extents: DVec3::new(0.15, 0.15, 0.05),
        },
        Shape::Sphere {
            centre: DVec3::new(1.0, 0.02, -0.1),
            radius: 0.2,
        },
        Shape::Capsule {
            a: DVec3::new(1.4, -0.1, 0.05),
            b: DVec3::new(1.6, 0.1, 0.08),
            radius: 0.05,
        },
        Shape::OrientedBox {
            centre: DVec3::new(2.0, 0.0, 0.05),
            half_extents: DVec3::new(0.15, 0.15, 0.05),
            rotation: DVec3::new(0.1, 0.3, 0.2),
        },
    ];
    let friction = Friction::coulomb(0.3, 0.2);
    for (i, shape) in shapes.into_iter().enumerate() {
        let at = DVec3::new(0.5 * i as f64 - 0.05, -0.05, 0.25);
        let placement = Placement::at(at).with_rotation(DVec3::new(0.1, 0.2, 0.0));
        let mut part = built("cube", cube.build_at(&placement));
        for m in &mut part.masses {
            m.velocity = DVec3::new(0.3, 0.1, 0.0);
        }
        model.add(format!("cube {i}"), part);
        model.add_obstacle(Obstacle::new(shape, OBSTACLE_PENALTY, friction));
    }
    model
}

/// `count` inchworms side by side, 1 m apart (20 masses, 94 springs, 64 sine muscles each):
/// islands no spring joins, a population's World.
pub fn herd(count: usize) -> Model {
    hooke::creatures::Inchworm::default()
        .build()
        .unwrap()
        .herd(count, 1.0)
        .unwrap()
}
