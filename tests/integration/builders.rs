//! Builders: counts, merging, rest lengths, connectivity, image bodies and rejection of bad input.

use std::collections::{BTreeSet, HashSet};
use std::path::PathBuf;

use hooke::builders::SplitMix64;
use hooke::{
    Builder, Cloth, CpuWorld, Cube, DVec3, Error, ImageBody, Lattice, Mass, Model, Muscle, Part,
    ParticleBed, Placement, RandomStructure, Rope, Spring, SpringLaw, Voxel, VoxelBody,
};
use image::{DynamicImage, GrayImage, Luma};

/// Every spring's rest length equals the initial distance of its masses, to the last bit: both
/// are `|p_a - p_b|` of the same f64 positions.
fn assert_rest_lengths(part: &Part) {
    for (i, s) in part.springs.iter().enumerate() {
        let d = part.masses[s.a as usize]
            .position
            .distance(part.masses[s.b as usize].position);
        assert_eq!(s.rest_length, d, "spring {i}");
    }
}

/// No spring joins a pair twice and none joins a mass to itself.
fn assert_simple(part: &Part) {
    let mut seen = HashSet::new();
    for (i, s) in part.springs.iter().enumerate() {
        assert_ne!(s.a, s.b, "spring {i} joins a mass to itself");
        assert!(
            seen.insert((s.a.min(s.b), s.a.max(s.b))),
            "spring {i} repeats a pair"
        );
    }
}

fn degrees(part: &Part) -> Vec<usize> {
    let mut d = vec![0; part.masses.len()];
    for s in &part.springs {
        d[s.a as usize] += 1;
        d[s.b as usize] += 1;
    }
    d
}

fn connected(part: &Part) -> bool {
    let n = part.masses.len();
    let mut adj = vec![Vec::new(); n];
    for s in &part.springs {
        adj[s.a as usize].push(s.b as usize);
        adj[s.b as usize].push(s.a as usize);
    }
    let mut seen = vec![false; n];
    let mut stack = vec![0];
    seen[0] = true;
    while let Some(i) = stack.pop() {
        for &j in &adj[i] {
            if !seen[j] {
                seen[j] = true;
                stack.push(j);
            }
        }
    }
    seen.iter().all(|&s| s)
}

#[test]
fn lipson_cube_has_8_masses_and_28_springs() {
    let part = Cube::lipson().build().unwrap();
    assert_eq!(part.masses.len(), 8);
    assert_eq!(part.springs.len(), 28);
    assert!((part.total_mass() - 0.8).abs() < 1e-15);
    assert_rest_lengths(&part);
    assert_simple(&part);
    // 12 edges of 0.1 m, 12 face diagonals, 4 body diagonals.
    let count = |l: f64| {
        part.springs
            .iter()
            .filter(|s| (s.rest_length - l).abs() < 1e-12)
            .count()
    };
    assert_eq!(count(0.1), 12);
    assert_eq!(count(0.1 * 2f64.sqrt()), 12);
    assert_eq!(count(0.1 * 3f64.sqrt()), 4);
    assert!(part.springs.iter().all(|s| s.stiffness == 10_000.0));
}

#[test]
fn placement_rotates_moves_and_throws() {
    let rot = DVec3::new(0.0, 0.0, std::f64::consts::FRAC_PI_2);
    let p = Placement::at(DVec3::new(1.0, 2.0, 3.0))
        .with_rotation(rot)
        .with_velocity(DVec3::new(0.5, 0.0, 0.0));
    let part = Cube::lipson().build_at(&p).unwrap();
    // Corner 1 (0.1, 0, 0) turns a quarter about z to (0, 0.1, 0), then moves.
    let c1 = part.masses[1].position;
    assert!((c1 - DVec3::new(1.0, 2.1, 3.0)).length() < 1e-15, "{c1}");
    assert!(part
        .masses
        .iter()
        .all(|m| m.velocity == DVec3::new(0.5, 0.0, 0.0)));
    // A rigid motion keeps lengths: rest lengths still equal distances (up to rounding).
    for s in &part.springs {
        let d = part.masses[s.a as usize]
            .position
            .distance(part.masses[s.b as usize].position);
        assert!((s.rest_length - d).abs() < 1e-15);
    }
    let bad = Placement::at(DVec3::new(f64::NAN, 0.0, 0.0));
    assert!(matches!(
        Cube::lipson().build_at(&bad),
        Err(Error::InvalidParameter {
            name: "placement.position",
            ..
        })
    ));
}

#[test]
fn two_voxels_sharing_a_face_merge_corners_and_springs() {
    let part = VoxelBody::from_cells([[0, 0, 0], [1, 0, 0]])
        .build()
        .unwrap();
    assert_eq!(part.masses.len(), 12);
    // 28 + 28 minus the 6 springs of the shared face (4 edges, 2 diagonals).
    assert_eq!(part.springs.len(), 50);
    assert_simple(&part);
    assert_rest_lengths(&part);
}

#[test]
fn a_block_of_voxels_has_each_edge_and_diagonal_once() {
    // A 3 x 3 x 3 block listed from the far corner back: every spring shared by neighbouring
    // voxels (an edge by up to four, a face diagonal by two) is merged, in all 13 directions.
    let n = 3i32;
    let cells: Vec<[i32; 3]> = (0..n * n * n)
        .rev()
        .map(|i| [i % n, (i / n) % n, i / (n * n)])
        .collect();
    let part = VoxelBody::from_cells(cells).build().unwrap();
    let n = n as usize;
    assert_eq!(part.masses.len(), (n + 1).pow(3));
    // Edges 3 n (n + 1)^2, face diagonals 2 x 3 n^2 (n + 1), body diagonals 4 n^3.
    let springs = 3 * n * (n + 1).pow(2) + 6 * n * n * (n + 1) + 4 * n.pow(3);
    assert_eq!(part.springs.len(), springs);
    assert_simple(&part);
    assert_rest_lengths(&part);
}

#[test]
fn voxel_bodies_number_masses_by_place_and_list_springs_by_their_masses() {
    // Cells listed out of order, one of them a muscle: the masses come out in lattice order
    // (z, then y, then x), each spring from its lower mass, the springs by (a, b), and the
    // actuators and each voxel's lists still name that voxel's corners and springs.
    let cells = [[2, 1, 0], [0, 0, 1], [1, 1, 0], [0, 0, 0], [1, 0, 0]];
    let mut body = VoxelBody::from_cells(cells);
    body.voxels[2] = Voxel::new([1, 1, 0]).with_muscle(Muscle::new(0.1, 10.0, 0.25));
    let built = body.build_voxels().unwrap();
    let part = &built.part;
    let place = |m: u32| {
        let p = part.masses[m as usize].position / 0.1;
        [p.z, p.y, p.x].map(|c| c.round() as i64)
    };
    assert!((1..part.masses.len() as u32).all(|m| place(m - 1) < place(m)));
    assert!(part.springs.iter().all(|s| s.a < s.b));
    assert!(part
        .springs
        .windows(2)
        .all(|w| (w[0].a, w[0].b) <= (w[1].a, w[1].b)));
    for (v, cell) in cells.iter().enumerate() {
        for (corner, &m) in built.voxel_masses[v].iter().enumerate() {
            let c = [corner & 1, corner >> 1 & 1, corner >> 2].map(|x| x as i64);
            let expected = [2, 1, 0].map(|i| i64::from(cell[i]) + c[i]);
            assert_eq!(place(m), expected, "voxel {v} corner {corner}");
        }
        for &s in &built.voxel_springs[v] {
            let s = &part.springs[s as usize];
            assert!(built.voxel_masses[v].contains(&s.a) && built.voxel_masses[v].contains(&s.b));
        }
    }
    assert_eq!(part.actuators.len(), 28);
    for a in &part.actuators {
        assert!(built.voxel_springs[2].contains(&a.spring), "{a:?}");
    }
}

#[test]
fn three_cubes_and_hinge() {
    let three = VoxelBody::three_cubes().build_voxels().unwrap();
    assert_eq!(three.part.masses.len(), 16);
    assert_eq!(three.part.springs.len(), 28 * 3 - 6 * 2);
    assert_simple(&three.part);

    let hinge = VoxelBody::hinge().build_voxels().unwrap();
    assert_eq!(hinge.part.masses.len(), 14);
    assert_eq!(hinge.part.springs.len(), 55);
    let a: HashSet<u32> = hinge.voxel_masses[0].iter().copied().collect();
    let b: HashSet<u32> = hinge.voxel_masses[1].iter().copied().collect();
    assert_eq!(
        a.intersection(&b).count(),
        2,
        "a hinge shares exactly one edge"
    );
    let sa: HashSet<u32> = hinge.voxel_springs[0].iter().copied().collect();
    let sb: HashSet<u32> = hinge.voxel_springs[1].iter().copied().collect();
    assert_eq!(
        sa.intersection(&sb).count(),
        1,
        "the hinge edge spring is shared"
    );
}

#[test]
fn voxel_box_matches_the_scene_lattice_count() {
    for n in 1..5u32 {
        let part = VoxelBody::lattice(n, n, n).build().unwrap();
        assert_eq!(part.masses.len() as u32, (n + 1).pow(3));
        assert_eq!(
            part.springs.len() as u64,
            Lattice::spring_count(n + 1),
            "n = {n}"
        );
        assert_simple(&part);
    }
    let occupied = [true, false, true, true, false, false, false, true];
    let grid = VoxelBody::from_occupancy([2, 2, 2], &occupied).unwrap();
    let cells: Vec<[i32; 3]> = grid.voxels.iter().map(|v| v.cell).collect();
    assert_eq!(cells, vec![[0, 0, 0], [0, 1, 0], [1, 1, 0], [1, 1, 1]]);
    assert!(matches!(
        VoxelBody::from_occupancy([2, 2, 2], &occupied[..7]),
        Err(Error::InvalidBuilder { .. })
    ));
}

#[test]
fn muscles_drive_each_spring_once_and_report_voxel_springs() {
    let body = VoxelBody {
        voxels: vec![
            Voxel::new([0, 0, 0]).with_muscle(Muscle::new(0.1, 10.0, 0.0)),
            Voxel::new([1, 0, 0]).with_muscle(Muscle::new(0.1, 10.0, 0.5)),
            Voxel::new([2, 0, 0]),
        ],
        ..VoxelBody::default()
    };
    let vp = body.build_voxels().unwrap();
    // Voxels 0 and 1 together own 50 distinct springs; each is driven once.
    assert_eq!(vp.part.actuators.len(), 50);
    let driven: BTreeSet<u32> = vp.part.actuators.iter().map(|a| a.spring).collect();
    assert_eq!(driven.len(), 50);
    // The shared face is driven by voxel 0 (first in the list).
    for s in vp.voxel_springs[0] {
        let a = vp.part.actuators.iter().find(|a| a.spring == s).unwrap();
        assert_eq!(a.phase, 0.0);
    }
    // Voxel 2's own springs are passive.
    let own: Vec<u32> = vp.voxel_springs[2]
        .iter()
        .copied()
        .filter(|s| !vp.voxel_springs[1].contains(s))
        .collect();
    assert_eq!(own.len(), 22);
    assert!(own.iter().all(|s| !driven.contains(s)));
    // And it simulates.
    let mut model = Model::default();
    model.add("robot", vp.part);
    let mut world = CpuWorld::new(&model).unwrap();
    world.step(100).unwrap();

    let bad = VoxelBody {
        voxels: vec![Voxel::new([0, 0, 0]).with_muscle(Muscle::new(1.5, 1.0, 0.0))],
        ..VoxelBody::default()
    };
    assert!(matches!(bad.build(), Err(Error::InvalidBuilder { .. })));
}

#[test]
fn voxel_bodies_reject_bad_input() {
    assert!(matches!(
        VoxelBody::from_cells([[0, 0, 0], [0, 0, 0]]).build(),
        Err(Error::InvalidBuilder { .. })
    ));
    assert!(matches!(
        VoxelBody::from_cells([]).build(),
        Err(Error::InvalidParameter {
            name: "voxels.voxels",
            ..
        })
    ));
    for (body, name) in [
        (
            VoxelBody::default().with_material(0.0, 0.1, 1.0, 0.0),
            "voxels.voxel_size",
        ),
        (
            VoxelBody::default().with_material(0.1, -1.0, 1.0, 0.0),
            "voxels.corner_mass",
        ),
        (
            VoxelBody::default().with_material(0.1, 0.1, f64::NAN, 0.0),
            "voxels.stiffness",
        ),
        (
            VoxelBody::default().with_material(0.1, 0.1, 1.0, -1.0),
            "voxels.damping",
        ),
    ] {
        match body.build() {
            Err(Error::InvalidParameter { name: n, .. }) => assert_eq!(n, name),
            other => panic!("{name}: {other:?}"),
        }
    }
    let cube = Cube {
        size: f64::INFINITY,
        ..Cube::lipson()
    };
    assert!(matches!(
        cube.build(),
        Err(Error::InvalidParameter {
            name: "cube.size",
            ..
        })
    ));
}

/// S(n) from docs/BENCHMARK_SCENE.md.
fn s(n: u64) -> u64 {
    3 * n * n * (n - 1) + 6 * n * (n - 1) * (n - 1) + 4 * (n - 1).pow(3)
}

#[test]
fn lattice_spring_count_is_s_of_n_and_sorted() {
    assert_eq!(Lattice::spring_count(2), 28);
    assert_eq!(Lattice::spring_count(10), 10_476);
    assert_eq!(Lattice::spring_count(40), 789_516);
    assert_eq!(Lattice::spring_count(80), 6_484_636);
    assert_eq!(Lattice::spring_count(120), 22_077_356);
    for n in 1..=9u32 {
        let part = Lattice::benchmark(n).build().unwrap();
        assert_eq!(part.masses.len() as u32, n.pow(3));
        assert_eq!(part.springs.len() as u64, s(u64::from(n)), "n = {n}");
        assert!(part.springs.iter().all(|sp| sp.a < sp.b));
        assert!(
            part.springs
                .windows(2)
                .all(|w| (w[0].a, w[0].b) < (w[1].a, w[1].b)),
            "n = {n}: springs must be strictly sorted by (a, b)"
        );
        assert_rest_lengths(&part);
    }
}

/// The literal construction of scene.py's `springs_by_cells`: 28 corner pairs of every unit cell,
/// deduplicated, sorted.
fn springs_by_cells(n: u32) -> Vec<(u32, u32)> {
    let idx = |i: u32, j: u32, k: u32| (k * n + j) * n + i;
    let mut set = BTreeSet::new();
    for ck in 0..n - 1 {
        for cj in 0..n - 1 {
            for ci in 0..n - 1 {
                let mut corners = Vec::new();
                for c in 0..2 {
                    for b in 0..2 {
                        for a in 0..2 {
                            corners.push(idx(ci + a, cj + b, ck + c));
                        }
                    }
                }
                for x in 0..8 {
                    for y in x + 1..8 {
                        let (p, q) = (corners[x], corners[y]);
                        set.insert((p.min(q), p.max(q)));
                    }
                }
            }
        }
    }
    set.into_iter().collect()
}

#[test]
fn lattice_equals_the_literal_per_cell_dedup() {
    for n in 2..=7 {
        let part = Lattice::benchmark(n).build().unwrap();
        let got: Vec<(u32, u32)> = part.springs.iter().map(|s| (s.a, s.b)).collect();
        assert_eq!(got, springs_by_cells(n), "n = {n}");
    }
}

#[test]
fn lattice_matches_scene_md_layout() {
    let n = 3;
    let l = Lattice::benchmark(n);
    let part = l.build().unwrap();
    // Mass (i, j, k) = (2, 1, 2) has index (k n + j) n + i = 23 and position (2h, h, z0 + 2h).
    let m = part.masses[23];
    assert_eq!(m.position, DVec3::new(2.0 * 0.01, 0.01, 0.05 + 2.0 * 0.01));
    assert_eq!(m.mass, 0.1);
    assert!(part
        .springs
        .iter()
        .all(|s| s.stiffness == 1e4 && s.damping == 1.0 && s.law == SpringLaw::Hooke));
    let p = Lattice::benchmark_params();
    assert_eq!(p.dt, 1e-4);
    p.validate().unwrap();
    let model = l.model().unwrap();
    assert_eq!(model.params, p);
    let mut added = hooke::Model::new(p);
    added.add("lattice", part.clone());
    assert_eq!(model, added);
    assert!(matches!(
        Lattice::benchmark(0).build(),
        Err(Error::InvalidParameter {
            name: "lattice.n",
            ..
        })
    ));
    // 2000^3 masses: more than MAX_BUILT_ELEMENTS, refused naming n before any allocation.
    assert!(matches!(
        Lattice::benchmark(2000).build(),
        Err(Error::InvalidParameter {
            name: "lattice.n",
            ..
        })
    ));
}

#[test]
fn rope_is_a_chain_with_optional_fixed_end_and_bending() {
    let rope = Rope {
        segments: 10,
        length: 2.0,
        direction: DVec3::new(0.0, 0.0, -3.0),
        ..Rope::default()
    };
    let part = rope.build().unwrap();
    assert_eq!(part.masses.len(), 11);
    assert_eq!(part.springs.len(), 10);
    assert!(part.masses[0].fixed && part.masses[1..].iter().all(|m| !m.fixed));
    assert!((part.masses[10].position - DVec3::new(0.0, 0.0, -2.0)).length() < 1e-12);
    assert_rest_lengths(&part);
    assert!(connected(&part));

    let bent = Rope {
        bending_stiffness: 10.0,
        law: SpringLaw::Material,
        fix_first: false,
        ..rope
    }
    .build()
    .unwrap();
    assert_eq!(bent.springs.len(), 10 + 9);
    assert!(bent.springs.iter().all(|s| s.law == SpringLaw::Material));
    assert!(!bent.masses[0].fixed);

    for bad in [
        Rope {
            segments: 0,
            ..Rope::default()
        },
        Rope {
            length: -1.0,
            ..Rope::default()
        },
        Rope {
            direction: DVec3::ZERO,
            ..Rope::default()
        },
        Rope {
            mass: 0.0,
            ..Rope::default()
        },
    ] {
        assert!(bad.build().is_err(), "{bad:?}");
    }
}

#[test]
fn cloth_has_structural_shear_and_bending_springs() {
    let (nx, ny) = (5u32, 4u32);
    let cloth = Cloth {
        nx,
        ny,
        ..Cloth::default()
    }
    .pinned_top();
    let part = cloth.build().unwrap();
    assert_eq!(part.masses.len(), 20);
    let structural = (nx - 1) * ny + nx * (ny - 1);
    let shear = 2 * (nx - 1) * (ny - 1);
    let bending = (nx - 2) * ny + nx * (ny - 2);
    assert_eq!(part.springs.len() as u32, structural + shear + bending);
    assert_simple(&part);
    assert_rest_lengths(&part);
    let fixed: Vec<usize> = (0..20).filter(|&i| part.masses[i].fixed).collect();
    assert_eq!(fixed, vec![15, 19]);
    // A family with stiffness 0 is left out.
    let no_bend = Cloth {
        nx,
        ny,
        bending: 0.0,
        ..Cloth::default()
    };
    assert_eq!(
        no_bend.build().unwrap().springs.len() as u32,
        structural + shear
    );
    let bad = Cloth {
        pinned: vec![[5, 0]],
        nx,
        ny,
        ..Cloth::default()
    };
    assert!(matches!(bad.build(), Err(Error::InvalidBuilder { .. })));
    assert!(Cloth {
        nx: 1,
        ..Cloth::default()
    }
    .build()
    .is_err());
}

#[test]
fn hanging_cloth_simulates() {
    let cloth = Cloth {
        nx: 6,
        ny: 6,
        ..Cloth::default()
    }
    .pinned_top();
    let placement = Placement::at(DVec3::new(0.0, 0.0, 1.0)).with_rotation(DVec3::new(
        std::f64::consts::FRAC_PI_2,
        0.0,
        0.0,
    ));
    let part = cloth.build_at(&placement).unwrap();
    // The pinned row (j = 5) is now at the top: z = 1 + 5 s.
    assert!((part.masses[35].position.z - 1.25).abs() < 1e-12);
    let mut model = Model::default();
    model.add("cloth", part);
    let mut world = CpuWorld::new(&model).unwrap();
    world.step_for(0.2).unwrap();
    assert_eq!(world.position_slice()[35], model.masses[35].position);
    assert!(world.position_slice()[0].z < model.masses[0].position.z);
}

#[test]
fn random_structure_is_connected_with_degree_at_least_three() {
    for seed in 0..20 {
        let r = RandomStructure {
            masses: 40,
            seed,
            ..RandomStructure::default()
        };
        let part = r.build().unwrap();
        assert_eq!(part.masses.len(), 40);
        assert!(degrees(&part).iter().all(|&d| d >= 3), "seed {seed}");
        assert!(connected(&part), "seed {seed}");
        assert_simple(&part);
        assert_rest_lengths(&part);
        for m in &part.masses {
            assert!(
                m.position.cmpge(DVec3::ZERO).all() && m.position.cmplt(DVec3::splat(0.2)).all()
            );
        }
        // Deterministic.
        assert_eq!(part, r.build().unwrap());
    }
    let a = RandomStructure::default().build().unwrap();
    let b = RandomStructure {
        seed: 1,
        ..RandomStructure::default()
    }
    .build()
    .unwrap();
    assert_ne!(a, b);
    let five = RandomStructure {
        connections: 5,
        ..RandomStructure::default()
    }
    .build()
    .unwrap();
    assert!(degrees(&five).iter().all(|&d| d >= 5));

    assert!(matches!(
        RandomStructure {
            connections: 2,
            ..RandomStructure::default()
        }
        .build(),
        Err(Error::InvalidParameter {
            name: "random.connections",
            ..
        })
    ));
    assert!(matches!(
        RandomStructure {
            masses: 3,
            ..RandomStructure::default()
        }
        .build(),
        Err(Error::InvalidParameter {
            name: "random.masses",
            ..
        })
    ));
    // 1000 masses at least 0.1 m apart cannot fit a 0.2 m cube.
    assert!(matches!(
        RandomStructure {
            masses: 1000,
            min_spacing: 0.1,
            ..RandomStructure::default()
        }
        .build(),
        Err(Error::InvalidBuilder { .. })
    ));
}

#[test]
fn splitmix64_matches_the_reference_sequence() {
    // Seed 0: the first outputs of Vigna's splitmix64.c (also quoted by many ports).
    let mut r = SplitMix64::new(0);
    let expected: [u64; 3] = [
        0xE220_A839_7B1D_CDAF,
        0x6E78_9E6A_A1B9_65F4,
        0x06C4_5D18_8009_454F,
    ];
    for e in expected {
        assert_eq!(r.next_u64(), e);
    }
    let mut r = SplitMix64::new(7);
    for _ in 0..1000 {
        let x = r.next_f64();
        assert!((0.0..1.0).contains(&x));
    }
}

// ---------------------------------------------------------------------------- image bodies

/// Image of `rows` ('X' black, anything else white), with a white border of one pixel.
fn draw(rows: &[&str]) -> GrayImage {
    let h = rows.len() as u32 + 2;
    let w = rows[0].len() as u32 + 2;
    GrayImage::from_fn(w, h, |x, y| {
        let black = y >= 1
            && x >= 1
            && rows
                .get(y as usize - 1)
                .and_then(|r| r.as_bytes().get(x as usize - 1))
                == Some(&b'X');
        Luma([if black { 0 } else { 255 }])
    })
}

fn square() -> GrayImage {
    draw(&["XXXXXXXX"; 8])
}

fn beam() -> GrayImage {
    draw(&["XXXXXXXXXXXXXXXXXXXX"; 4])
}

fn letter_m() -> GrayImage {
    draw(&[
        "XX.......XX",
        "XXX.....XXX",
        "XXXX...XXXX",
        "XX.XX.XX.XX",
        "XX..XXX..XX",
        "XX...X...XX",
        "XX.......XX",
        "XX.......XX",
        "XX.......XX",
    ])
}

fn assets() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("assets")
}

/// The PNGs in assets/ are exactly what these drawings make. Run with `HOOKE_WRITE_ASSETS=1` to
/// (re)write them.
#[test]
fn shipped_pngs_match_their_drawings() {
    for (name, img) in [
        ("square.png", square()),
        ("beam.png", beam()),
        ("m.png", letter_m()),
    ] {
        let path = assets().join(name);
        if std::env::var_os("HOOKE_WRITE_ASSETS").is_some() {
            img.save(&path).unwrap();
        }
        let read = image::open(&path).unwrap().to_luma8();
        assert_eq!(read, img, "{name}");
    }
}

/// Springs of an 8-neighbour grid of `w x h` filled pixels.
fn grid_springs(w: usize, h: usize) -> usize {
    (w - 1) * h + w * (h - 1) + 2 * (w - 1) * (h - 1)
}

#[test]
fn image_body_from_memory_counts_and_layout() {
    let body = ImageBody {
        theta0: 0.0,
        h0: 0.0,
        spacing: 0.1,
        ..ImageBody::anderson_table1()
    };
    let part = body
        .from_image(&DynamicImage::ImageLuma8(square()))
        .unwrap();
    assert_eq!(part.masses.len(), 64);
    assert_eq!(part.springs.len(), grid_springs(8, 8));
    assert_simple(&part);
    assert_rest_lengths(&part);
    // Upright in the x-z plane: the first mass (top-left pixel) is at x = 0, z = 7 s; the last
    // (bottom-right) at x = 7 s, z = 0.
    assert!((part.masses[0].position - DVec3::new(0.0, 0.0, 0.7)).length() < 1e-12);
    assert!((part.masses[63].position - DVec3::new(0.7, 0.0, 0.0)).length() < 1e-12);
    assert!(part
        .masses
        .iter()
        .all(|m| m.position.y == 0.0 && m.mass == 0.2));

    let m = body
        .from_image(&DynamicImage::ImageLuma8(letter_m()))
        .unwrap();
    let black = letter_m().pixels().filter(|p| p.0[0] == 0).count();
    assert_eq!(m.masses.len(), black);
    assert!(connected(&m));
    assert_simple(&m);
}

#[test]
fn image_body_rotation_and_lift() {
    let body = ImageBody::anderson_table1();
    let part = body.from_image(&DynamicImage::ImageLuma8(beam())).unwrap();
    assert_eq!(part.masses.len(), 80);
    assert_eq!(part.springs.len(), grid_springs(20, 4));
    // Bottom-left pixel (row 3, column 0 of the drawing: mass 60) is the pivot, at (0, 0, h0).
    assert!((part.masses[60].position - DVec3::new(0.0, 0.0, 1.0)).length() < 1e-12);
    // Bottom-right (mass 79), 19 s along x before turning by theta0 = 0.5 rad toward +z.
    let r = 19.0 * 0.15;
    let want = DVec3::new(r * 0.5f64.cos(), 0.0, 1.0 + r * 0.5f64.sin());
    assert!((part.masses[79].position - want).length() < 1e-12);
    assert_rest_lengths(&part);
}

#[test]
fn image_threshold_and_transparency() {
    // A grey pixel (luminance 0.4) counts at threshold 0.5 but not at 0.3; a transparent black
    // pixel is white.
    let img = image::RgbaImage::from_fn(3, 1, |x, _| match x {
        0 => image::Rgba([102, 102, 102, 255]),
        1 => image::Rgba([0, 0, 0, 0]),
        _ => image::Rgba([0, 0, 0, 255]),
    });
    let img = DynamicImage::ImageRgba8(img);
    let body = ImageBody::anderson_table1();
    assert_eq!(body.from_image(&img).unwrap().masses.len(), 2);
    let strict = ImageBody {
        threshold: 0.3,
        ..body
    };
    assert_eq!(strict.from_image(&img).unwrap().masses.len(), 1);
}

#[test]
fn image_body_rejects_bad_input() {
    let white = DynamicImage::ImageLuma8(GrayImage::from_pixel(4, 4, Luma([255])));
    let body = ImageBody::anderson_table1();
    assert!(matches!(
        body.from_image(&white),
        Err(Error::EmptyImage { .. })
    ));
    let empty = DynamicImage::ImageLuma8(GrayImage::new(0, 0));
    assert!(matches!(
        body.from_image(&empty),
        Err(Error::EmptyImage { .. })
    ));
    match body.from_path("/no/such/file.png") {
        Err(Error::Image { path, .. }) => assert_eq!(path, PathBuf::from("/no/such/file.png")),
        other => panic!("{other:?}"),
    }
    // A file that is not an image.
    let not_png = std::env::temp_dir().join(format!("hooke-not-png-{}.png", std::process::id()));
    std::fs::write(&not_png, b"definitely not a PNG").unwrap();
    assert!(matches!(body.from_path(&not_png), Err(Error::Image { .. })));
    std::fs::remove_file(&not_png).unwrap();
    for bad in [
        ImageBody {
            spacing: 0.0,
            ..body
        },
        ImageBody {
            mass: f64::NAN,
            ..body
        },
        ImageBody {
            threshold: 0.0,
            ..body
        },
        ImageBody {
            threshold: 1.5,
            ..body
        },
        ImageBody {
            theta0: f64::INFINITY,
            ..body
        },
        ImageBody {
            stiffness: -1.0,
            ..body
        },
    ] {
        assert!(
            matches!(
                bad.from_image(&DynamicImage::ImageLuma8(square())),
                Err(Error::InvalidParameter { .. })
            ),
            "{bad:?}"
        );
    }
}

#[test]
fn shipped_pngs_build_with_table1() {
    let body = ImageBody::anderson_table1();
    for (name, masses) in [("square.png", 64), ("beam.png", 80), ("m.png", 50)] {
        let part = body.from_path(assets().join(name)).unwrap();
        assert_eq!(part.masses.len(), masses, "{name}");
        let mut model = Model::new(ImageBody::anderson_params());
        model.add(name, part);
        let mut world = CpuWorld::new(&model).unwrap();
        // Falls about 1 m and bounces: after one simulated second at Table I's dt = 1 ms it is
        // finite and has not sunk through the ground (the restitution contact lets a mass
        // penetrate by at most one step's travel, |v| dt < 0.01 m at the ~4.5 m/s impact speed).
        world.step_for(1.0).unwrap();
        let lowest = world
            .position_slice()
            .iter()
            .map(|p| p.z)
            .fold(f64::INFINITY, f64::min);
        assert!(lowest > -0.01, "{name}: {lowest}");
    }
}

// ---------------------------------------------------------------------------- by hand

#[test]
fn hand_made_masses_and_springs_mix_with_builders() {
    // One Part holding a cube plus a hand-made antenna.
    let mut part = Cube::lipson().build().unwrap();
    let tip = part.add_mass(Mass::new(0.05, DVec3::new(0.05, 0.05, 0.25)));
    for corner in 4..8 {
        part.connect(corner, tip, 5000.0, 0.1);
    }
    assert_eq!(part.masses.len(), 9);
    assert_eq!(part.springs.len(), 32);
    assert_rest_lengths(&part);

    // A model mixing that part, a rope, and a hand-made spring between them.
    let mut model = Model::default();
    let body = model.add("antenna cube", part);
    let rope = model.add(
        "rope",
        Rope::default()
            .build_at(&Placement::at(DVec3::new(0.05, 0.05, 1.0)))
            .unwrap(),
    );
    let tip = model.bodies[body].masses.start as u32 + 8;
    let end = model.bodies[rope].masses.end as u32 - 1;
    let d = model.masses[tip as usize]
        .position
        .distance(model.masses[end as usize].position);
    model.add_spring(Spring::hooke(tip, end, 100.0, d));
    let mut world = CpuWorld::new(&model).unwrap();
    world.step(1000).unwrap();
    assert!(world.position_slice().iter().all(|p| p.is_finite()));
}

#[test]
fn three_cubes_docs_state_the_72_springs_it_builds() {
    // Regression: the docs said "(16 masses, 68 springs)".
    let source = std::fs::read_to_string(
        std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("src/builders/voxel.rs"),
    )
    .unwrap();
    let three = VoxelBody::three_cubes().build().unwrap();
    let said = format!(
        "three voxels in a row along x ({} masses, {} springs",
        three.masses.len(),
        three.springs.len()
    );
    assert_eq!((three.masses.len(), three.springs.len()), (16, 72));
    assert!(
        source.contains(&said),
        "the docs of three_cubes lack '{said}'"
    );
}

/// A bed's particles fill `columns x columns` layers in index order (x fastest), stay within
/// half the free gap of their grid points with the largest jitter, and none overlap another at
/// the start (checked on every pair: at least twice the radius apart, the grid's guarantee).
#[test]
fn particle_bed_fills_its_grid_and_no_particles_overlap() {
    let bed = ParticleBed {
        count: 230,
        columns: 5,
        radius: 0.004,
        spacing: 0.01,
        jitter: 1.0,
        mass: 0.02,
        seed: 7,
    };
    let part = bed.build().unwrap();
    assert_eq!((part.masses.len(), part.springs.len()), (230, 0));
    let half_gap = (bed.spacing - 2.0 * bed.radius) / 2.0;
    for (i, m) in part.masses.iter().enumerate() {
        let grid = DVec3::new(
            (i % 5) as f64 + 0.5,
            (i / 5 % 5) as f64 + 0.5,
            (i / 25) as f64 + 0.5,
        ) * bed.spacing;
        let off = (m.position - grid).abs();
        // The offset is at most half the gap, give or take the rounding of the grid point.
        assert!(off.max_element() <= half_gap + 1e-15, "particle {i}: {off}");
        assert_eq!((m.collision_radius, m.mass), (bed.radius, bed.mass));
    }
    for a in 0..part.masses.len() {
        for b in a + 1..part.masses.len() {
            let d = part.masses[a].position.distance(part.masses[b].position);
            assert!(d >= 2.0 * bed.radius - 1e-15, "{a} and {b} are {d} m apart");
        }
    }
    // The top layer is partial: 230 = 9 full layers of 25 and 5 more.
    assert!(part.masses[229].position.z > 9.0 * bed.spacing);
    // The same seed gives the same bed, another seed another one.
    assert_eq!(bed.build().unwrap().masses, part.masses);
    let other = ParticleBed { seed: 8, ..bed }.build().unwrap();
    assert_ne!(other.masses[0].position, part.masses[0].position);
}

/// Bad bed parameters are errors naming the field; a pitch below the diameter names both.
#[test]
fn particle_bed_rejects_bad_parameters_naming_the_field() {
    let bed = ParticleBed::default();
    for (bad, name) in [
        (ParticleBed { count: 0, ..bed }, "particle_bed.count"),
        (ParticleBed { columns: 0, ..bed }, "particle_bed.columns"),
        (ParticleBed { radius: 0.0, ..bed }, "particle_bed.radius"),
        (
            ParticleBed {
                spacing: f64::NAN,
                ..bed
            },
            "particle_bed.spacing",
        ),
        (ParticleBed { jitter: 1.5, ..bed }, "particle_bed.jitter"),
        (
            ParticleBed {
                jitter: f64::NAN,
                ..bed
            },
            "particle_bed.jitter",
        ),
        (ParticleBed { mass: -1.0, ..bed }, "particle_bed.mass"),
    ] {
        match bad.build() {
            Err(Error::InvalidParameter { name: n, .. }) => assert_eq!(n, name),
            other => panic!("{name}: {other:?}"),
        }
    }
    let tight = ParticleBed {
        spacing: 0.009,
        ..bed
    };
    match tight.build() {
        Err(e @ Error::InvalidBuilder { .. }) => {
            let text = e.to_string();
            assert!(text.contains("0.009") && text.contains("0.005"), "{text}");
        }
        other => panic!("{other:?}"),
    }
}
