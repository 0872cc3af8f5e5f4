//! Test scenes, built by hand from `Part`s (small versions of the seeds' scenes).

use hooke::{
    Actuator, Contact, DVec3, DutyCycle, Friction, FrictionOscillator, Integrator, Mass, Model,
    Params, Part, Spring, SpringLaw,
};

/// Seed 000's cube: edge `size` (m), 8 masses of `mass` kg, 28 springs of stiffness `k` (N/m)
/// joining every pair of corners, lowest face at height `z` (m).
pub fn cube_part(size: f64, mass: f64, k: f64, z: f64) -> Part {
    let mut part = Part::new();
    for i in 0..8 {
        let p = DVec3::new(
            (i & 1) as f64 * size,
            ((i >> 1) & 1) as f64 * size,
            z + ((i >> 2) & 1) as f64 * size,
        );
        part.add_mass(Mass::new(mass, p));
    }
    for a in 0..8 {
        for b in a + 1..8 {
            part.connect(a, b, k, 0.0);
        }
    }
    part
}

/// Seed 000 step 2-4: the 0.1 m cube of 0.8 kg, k = 10 000 N/m, dropped from 0.1 m onto the
/// penalty ground (k_c = 100 000 N/m), dt = 1e-4 s, slightly rotated so it tumbles.
pub fn bouncing_cube() -> Model {
    let mut model = Model::new(Params::default());
    let mut part = cube_part(0.1, 0.1, 10_000.0, 0.1);
    // Tilt: shift the top face a little so the landing is not symmetric.
    for m in &mut part.masses {
        m.position.x += 0.1 * m.position.z;
    }
    // Rest lengths of the tilted shape: the cube starts unstrained.
    for s in &mut part.springs {
        s.rest_length = part.masses[s.a as usize]
            .position
            .distance(part.masses[s.b as usize].position);
    }
    model.add("cube", part);
    model
}

/// The SCENE.md lattice: `n^3` masses of 0.1 kg at spacing 0.01 m from z = `z0`, springs to the 13
/// forward neighbours (k = 10 000 N/m, c = 1 N*s/m), penalty ground with Coulomb friction.
pub fn lattice(n: usize, z0: f64, friction: Friction) -> Model {
    let mut model = Model::new(Params {
        friction,
        ..Params::default()
    });
    model.add("lattice", lattice_part(n, 0.01, z0, 10_000.0, 1.0));
    model
}

/// A lattice part (see [`lattice`]), spacing `h` (m).
pub fn lattice_part(n: usize, h: f64, z0: f64, stiffness: f64, c: f64) -> Part {
    let mut part = Part::new();
    let idx = |i: usize, j: usize, k: usize| ((k * n + j) * n + i) as u32;
    for k in 0..n {
        for j in 0..n {
            for i in 0..n {
                part.add_mass(Mass::new(
                    0.1,
                    DVec3::new(i as f64 * h, j as f64 * h, z0 + k as f64 * h),
                ));
            }
        }
    }
    let mut offsets = Vec::new();
    for dk in -1i64..=1 {
        for dj in -1i64..=1 {
            for di in -1i64..=1 {
                // Forward half of the 26 neighbours.
                if (dk, dj, di) > (0, 0, 0) {
                    offsets.push((di, dj, dk));
                }
            }
        }
    }
    assert_eq!(offsets.len(), 13);
    for k in 0..n as i64 {
        for j in 0..n as i64 {
            for i in 0..n as i64 {
                for &(di, dj, dk) in &offsets {
                    let (a, b, c2) = (i + di, j + dj, k + dk);
                    let n = n as i64;
                    if (0..n).contains(&a) && (0..n).contains(&b) && (0..n).contains(&c2) {
                        part.connect(
                            idx(i as usize, j as usize, k as usize),
                            idx(a as usize, b as usize, c2 as usize),
                            stiffness,
                            c,
                        );
                    }
                }
            }
        }
    }
    part
}

/// Seed 000 advanced 5: the cube "breathes", every spring's rest length following
/// `L (1 + 0.1 sin(2 pi 2 t + 2 pi p))`, a few springs with a seed-002 duty cycle.
pub fn breathing_cube() -> Model {
    let mut model = Model::new(Params {
        friction: Friction::coulomb(0.8, 0.6),
        ..Params::default()
    });
    let mut part = cube_part(0.1, 0.1, 10_000.0, 0.0);
    for s in 0..part.springs.len() as u32 {
        part.actuators.push(Actuator {
            spring: s,
            amplitude: 0.1,
            omega: std::f64::consts::TAU * 2.0,
            phase: f64::from(s) / 28.0,
            duty: if s % 5 == 0 {
                Some(DutyCycle {
                    active: 0.15,
                    rest: 0.1,
                    offset: 0.02 * f64::from(s),
                })
            } else {
                None
            },
        });
    }
    model.add("breathing cube", part);
    model
}

/// Seed 000 advanced 1: the cube hanging as a pendulum from one fixed corner, no ground.
pub fn pendulum() -> Model {
    let mut model = Model::new(Params {
        contact: Contact::None,
        ..Params::default()
    });
    let mut part = cube_part(0.1, 0.1, 10_000.0, 0.5);
    // Fix corner 4 (top, x = y = 0) and push the opposite corner sideways.
    part.masses[4].fixed = true;
    part.masses[3].velocity = DVec3::new(0.5, -0.3, 0.0);
    model.add("pendulum", part);
    model
}

/// Seed 001: cloth of `nx x ny` masses with structural, shear and bending springs (material law,
/// damped), pinned at its two far corners, horizontal at 1 m, under gravity with air drag.
pub fn cloth(nx: u32, ny: u32) -> Model {
    let mut model = Model::new(Params {
        air_drag: 0.001,
        contact: Contact::None,
        ..Params::default()
    });
    let h = 0.02;
    let mut part = Part::new();
    let idx = |i: u32, j: u32| j * nx + i;
    for j in 0..ny {
        for i in 0..nx {
            let mut m = Mass::new(0.005, DVec3::new(f64::from(i) * h, f64::from(j) * h, 1.0));
            m.fixed = j == ny - 1 && (i == 0 || i == nx - 1);
            part.add_mass(m);
        }
    }
    let link = |part: &mut Part, a: u32, b: u32, k: f64| {
        let rest = part.masses[a as usize]
            .position
            .distance(part.masses[b as usize].position);
        part.add_spring(Spring {
            a,
            b,
            law: SpringLaw::Material,
            stiffness: k,
            damping: 0.01,
            rest_length: rest,
        });
    };
    for j in 0..ny {
        for i in 0..nx {
            if i + 1 < nx {
                link(&mut part, idx(i, j), idx(i + 1, j), 40.0);
            }
            if j + 1 < ny {
                link(&mut part, idx(i, j), idx(i, j + 1), 40.0);
            }
            if i + 1 < nx && j + 1 < ny {
                link(&mut part, idx(i, j), idx(i + 1, j + 1), 20.0);
                link(&mut part, idx(i + 1, j), idx(i, j + 1), 20.0);
            }
            if i + 2 < nx {
                link(&mut part, idx(i, j), idx(i + 2, j), 5.0);
            }
            if j + 2 < ny {
                link(&mut part, idx(i, j), idx(i, j + 2), 5.0);
            }
        }
    }
    model.add("cloth", part);
    model
}

/// Seed 001: a rope (hair strand) of `n` masses hanging from a fixed end, starting horizontal,
/// damped Hooke springs, falling onto nothing.
pub fn rope(n: u32) -> Model {
    let mut model = Model::new(Params {
        contact: Contact::None,
        ..Params::default()
    });
    let mut part = Part::new();
    for i in 0..n {
        let mut m = Mass::new(0.01, DVec3::new(f64::from(i) * 0.02, 0.0, 1.0));
        m.fixed = i == 0;
        part.add_mass(m);
    }
    for i in 0..n - 1 {
        part.connect(i, i + 1, 500.0, 0.05);
    }
    model.add("rope", part);
    model
}

/// Seed 004: a 2D body from an image-like occupancy grid (each filled cell a mass, springs to its
/// 8 neighbours), in the vertical x-z plane, tilted by 0.3 rad and lifted 0.05 m, falling onto
/// the restitution ground (epsilon 0.5) with friction, with a little air drag.
pub fn image_body() -> Model {
    let rows = [
        "..####..", ".######.", "########", "##.##.##", "########", ".##..##.",
    ];
    let mut model = Model::new(Params {
        contact: Contact::Restitution { restitution: 0.5 },
        friction: Friction::coulomb(0.5, 0.4),
        air_drag: 0.01,
        ..Params::default()
    });
    let s = 0.02;
    let theta: f64 = 0.3;
    let mut part = Part::new();
    let mut index = std::collections::HashMap::new();
    for (r, row) in rows.iter().enumerate() {
        for (c, ch) in row.chars().enumerate() {
            if ch == '#' {
                let (x, z) = (c as f64 * s, (rows.len() - 1 - r) as f64 * s);
                let (xr, zr) = (
                    x * theta.cos() - z * theta.sin(),
                    x * theta.sin() + z * theta.cos(),
                );
                let i = part.add_mass(Mass::new(0.01, DVec3::new(xr, 0.0, zr + 0.05)));
                index.insert((r as i64, c as i64), i);
            }
        }
    }
    let cells: Vec<_> = index.clone().into_iter().collect();
    for ((r, c), a) in cells {
        for (dr, dc) in [(0, 1), (1, -1), (1, 0), (1, 1)] {
            if let Some(&b) = index.get(&(r + dr, c + dc)) {
                part.connect(a, b, 2_000.0, 0.5);
            }
        }
    }
    model.add("image body", part);
    model
}

/// Seed 002's inchworm: a chain of 6 segments along x (two masses per station, an upper and a
/// lower rail), lower masses with friction oscillators, the upper rail's springs actuated with
/// duty cycles, so it crawls.
pub fn inchworm() -> Model {
    let mut model = Model::new(Params {
        contact: Contact::Penalty {
            stiffness: 20_000.0,
            damping: 5.0,
        },
        friction: Friction::coulomb(0.5, 0.5),
        ..Params::default()
    });
    let mut part = Part::new();
    let stations = 7u32;
    let h = 0.03;
    for i in 0..stations {
        let x = f64::from(i) * h;
        let mut low = Mass::new(0.02, DVec3::new(x, 0.0, 0.0));
        low.friction_oscillator = Some(FrictionOscillator {
            min: 0.05,
            max: 1.0,
            omega: std::f64::consts::TAU * 1.3,
            phase: 0.7 * f64::from(i),
        });
        part.add_mass(low);
        part.add_mass(Mass::new(0.02, DVec3::new(x + 0.5 * h, 0.0, h)));
    }
    for i in 0..stations {
        let (lo, up) = (2 * i, 2 * i + 1);
        part.connect(lo, up, 3_000.0, 1.0);
        if i + 1 < stations {
            part.connect(lo, lo + 2, 3_000.0, 1.0);
            part.connect(up, lo + 2, 3_000.0, 1.0);
            let top = part.connect(up, up + 2, 3_000.0, 1.0);
            part.actuators.push(Actuator {
                spring: top,
                amplitude: 0.25,
                omega: std::f64::consts::TAU * 1.3,
                phase: 0.1 * f64::from(i),
                duty: Some(DutyCycle {
                    active: 0.4,
                    rest: 0.2,
                    offset: 0.05 * f64::from(i),
                }),
            });
        }
    }
    part.translate(DVec3::new(0.0, 0.0, 0.001));
    model.add("inchworm", part);
    model
}

/// A structure using every spring law (Hooke, material, zero length), damping, global velocity
/// damping, air drag, an external force on one mass, a fixed mass, and the explicit integrator when
/// `explicit` is set; it falls onto the penalty ground with normal damping and friction.
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
