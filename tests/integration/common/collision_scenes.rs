//! Small scenes of colliding masses for the parity and determinism tests: every
//! branch of the pair force and of the exclusions, on both backends. Each scene keeps its
//! contacts for most of its run (checked by the tests that use them).

use hooke::{
    Builder, ClassCollision, Collision, Contact, DVec3, Friction, Lattice, Mass, Model, Obstacle,
    Params, Part, Placement, Rope, Shape, SpringLaw,
};

/// A `n`^3 jelly lattice (0.01 m spacing, 0.1 kg masses, k = 1000 N/m, `damping` N*s/m) with its
/// lowest corner at `corner`, moving at `velocity`, every mass of collision radius 0.005 m.
pub fn jelly(n: u32, corner: DVec3, velocity: DVec3, damping: f64) -> Part {
    let lattice = Lattice {
        n,
        spacing: 0.01,
        z0: 0.0,
        mass: 0.1,
        stiffness: 1000.0,
        damping,
        material: None,
    };
    let mut part = lattice
        .build_at(&Placement::at(corner))
        .expect("valid lattice")
        .with_collision_radius(0.005);
    part.set_velocity(velocity);
    part
}

/// Free space: no gravity, no ground.
fn free_space(collision: Collision) -> Params {
    Params {
        gravity: DVec3::ZERO,
        contact: Contact::None,
        collision,
        dt: 1e-4,
        ..Params::default()
    }
}

/// Two 3^3 jelly cubes closing head-on at 1 m/s in free space, elastic collisions soft enough
/// (2000 N/m) that the contact lasts about 15 ms.
fn head_on() -> Model {
    let mut model = Model::new(free_space(Collision {
        stiffness: 2e3,
        ..Collision::default()
    }));
    model.add("left", jelly(3, DVec3::ZERO, DVec3::X * 0.5, 0.0));
    let right = jelly(3, DVec3::new(0.03, 0.002, 0.001), DVec3::X * -0.5, 0.0);
    model.add("right", right);
    model
}

/// Two 3^3 cubes on a penalty ground with friction, one sliding into the other off-centre:
/// collision damping and friction, and ground friction seeing the collision force.
fn glancing_on_ground() -> Model {
    let collision = Collision {
        stiffness: 2e4,
        damping: 5.0,
        friction: 0.4,
    };
    let mut model = Model::new(Params {
        dt: 1e-4,
        collision,
        friction: Friction::coulomb(0.5, 0.4),
        ..Params::default()
    });
    model.add(
        "still",
        jelly(3, DVec3::new(0.0, 0.0, 0.0), DVec3::ZERO, 0.5),
    );
    let mover = jelly(3, DVec3::new(-0.04, 0.012, 0.0), DVec3::X * 0.8, 0.5);
    model.add("mover", mover);
    model
}

/// A rope of 40 masses with self-collision, hanging vertically with its lower end just above a
/// penalty ground, dropped: it piles on itself, so masses far apart along the rope touch. Its
/// first masses start slightly off the vertical so the pile spreads over a ball on the ground.
/// A fixed colliding marker 40 m away makes the box of occupied cells too large to number
/// densely: this scene runs the GPU's hashed grid (the others its dense one).
fn rope_piling_on_itself() -> Model {
    let mut model = Model::new(Params {
        dt: 1e-4,
        contact: Contact::Penalty {
            stiffness: 2e3,
            damping: 0.5,
        },
        friction: Friction::coulomb(0.5, 0.4),
        collision: Collision {
            stiffness: 2e3,
            damping: 0.2,
            friction: 0.3,
        },
        ..Params::default()
    });
    let rope = Rope {
        segments: 39,
        length: 39.0 * 0.01,
        mass: 0.005,
        stiffness: 500.0,
        bending_stiffness: 0.0,
        damping: 0.02,
        law: SpringLaw::Hooke,
        direction: DVec3::new(0.05, 0.0, 1.0),
        fix_first: false,
    };
    let part = rope
        .build_at(&Placement::at(DVec3::new(0.0, 0.0, 0.006)))
        .expect("valid rope")
        .with_collision_radius(0.005);
    model.add("rope", part);
    let mut marker = Part::new();
    marker.add_mass(
        Mass::new(0.01, DVec3::new(40.0, 0.0, 1.0))
            .fixed()
            .with_collision_radius(0.005),
    );
    model.add("marker", marker);
    let ball = Shape::Sphere {
        centre: DVec3::new(0.02, 0.0, -0.005),
        radius: 0.015,
    };
    let contact = Contact::Penalty {
        stiffness: 2e3,
        damping: 0.5,
    };
    model.add_obstacle(Obstacle::new(ball, contact, Friction::coulomb(0.3, 0.2)));
    model
}

/// Three small cubes dropped onto a plate of fixed colliding masses: the second cube masks the
/// third out, the third does not collide with itself, and the plate (fixed) pushes them all. The
/// plate (class 1) and the first cube (class 2) meet with their own pair force (softer, more
/// damped, grippier: a class rule).
fn filters_and_fixed() -> Model {
    let mut model = Model::new(Params {
        dt: 1e-4,
        contact: Contact::None,
        collision: Collision {
            stiffness: 2e4,
            damping: 2.0,
            friction: 0.3,
        },
        ..Params::default()
    });
    let mut plate = Part::new();
    for i in 0..8 {
        for j in 0..8 {
            let at = DVec3::new(f64::from(i) * 0.01 - 0.02, f64::from(j) * 0.01 - 0.02, 0.0);
            plate.add_mass(Mass::new(0.1, at).fixed().with_collision_radius(0.005));
        }
    }
    model.add("plate", plate.with_collision_class(1));
    let a = jelly(2, DVec3::new(0.0, 0.0, 0.012), DVec3::ZERO, 1.0);
    model.add("a", a.with_collision_class(2));
    model.class_collisions.push(ClassCollision {
        classes: [1, 2],
        collision: Collision {
            stiffness: 8e3,
            damping: 4.0,
            friction: 0.8,
        },
    });
    let b = jelly(2, DVec3::new(0.018, 0.003, 0.03), DVec3::ZERO, 1.0);
    model.add("b", b.with_collision_filter(0b01, 0b01));
    let c = jelly(2, DVec3::new(0.02, 0.0, 0.05), DVec3::ZERO, 1.0);
    model.add(
        "c",
        c.with_collision_filter(0b10, 0b10)
            .with_self_collision(false),
    );
    model
}

/// 120 loose particles of three radii (no springs) poured into a box of obstacles: many cells,
/// buckets shared by several cells, unequal radii.
fn particles_in_a_box() -> Model {
    let mut model = Model::new(Params {
        dt: 1e-4,
        collision: Collision {
            stiffness: 5e3,
            damping: 0.5,
            friction: 0.2,
        },
        contact: Contact::Penalty {
            stiffness: 5e3,
            damping: 0.5,
        },
        ..Params::default()
    });
    let mut part = Part::new();
    for i in 0..120u32 {
        let (x, y, z) = (i % 5, (i / 5) % 4, i / 20);
        let r = [0.004, 0.006, 0.008][(i % 3) as usize];
        let wobble = f64::from(i * 7 % 11) * 1e-4;
        let at = DVec3::new(
            f64::from(x) * 0.017 - 0.034 + wobble,
            f64::from(y) * 0.017 - 0.025,
            0.01 + f64::from(z) * 0.017 + wobble,
        );
        part.add_mass(Mass::new(0.01, at).with_collision_radius(r));
    }
    model.add("particles", part);
    for (centre, half) in [
        (DVec3::new(0.055, 0.0, 0.05), DVec3::new(0.01, 0.06, 0.05)),
        (DVec3::new(-0.055, 0.0, 0.05), DVec3::new(0.01, 0.06, 0.05)),
        (DVec3::new(0.0, 0.045, 0.05), DVec3::new(0.06, 0.01, 0.05)),
        (DVec3::new(0.0, -0.045, 0.05), DVec3::new(0.06, 0.01, 0.05)),
    ] {
        let wall = Shape::Box {
            centre,
            half_extents: half,
        };
        let contact = Contact::Penalty {
            stiffness: 5e3,
            damping: 0.5,
        };
        model.add_obstacle(Obstacle::new(wall, contact, Friction::coulomb(0.3, 0.2)));
    }
    model
}

/// Every collision parity scene, by name.
pub fn collision_scenes() -> Vec<(&'static str, Model)> {
    vec![
        ("head-on jelly cubes", head_on()),
        ("glancing cubes on the ground", glancing_on_ground()),
        ("rope piling on itself", rope_piling_on_itself()),
        (
            "groups, masks, self-collision off, fixed plate",
            filters_and_fixed(),
        ),
        ("particles in a box", particles_in_a_box()),
    ]
}

/// The example scenes of `hooke::collision_scenes` at small sizes, as shipped otherwise: head-on
/// cubes of 3^3 closing over a 0.02 m gap, the 12-body pile in its 0.34 m box, a 12 x 12 cloth
/// dropped 0.02 m onto a 0.06 m ball.
pub fn small_example_scenes() -> [(&'static str, Model); 3] {
    use hooke::collision_scenes::{ClothOnSphere, HeadOnCubes, Pile};
    use hooke::scene::PileLayout;
    let cubes = HeadOnCubes {
        n: 3,
        gap: 0.06,
        ..HeadOnCubes::default()
    };
    let pile = Pile {
        layout: PileLayout {
            bodies: 12,
            width: 0.34,
            ..PileLayout::default()
        },
        ..Pile::default()
    };
    let cloth = ClothOnSphere::default();
    let cloth = ClothOnSphere {
        cloth: hooke::Cloth {
            nx: 12,
            ny: 12,
            ..cloth.cloth.clone()
        },
        sphere_radius: 0.06,
        drop: 0.02,
        ..cloth
    };
    [
        ("head-on cubes", cubes.model().expect("valid cubes")),
        ("pile", pile.model().expect("valid pile")),
        ("cloth on sphere", cloth.model().expect("valid cloth")),
    ]
}
