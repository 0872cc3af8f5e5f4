//! `Material` in the builders and in files: the masses, springs and damping it gives, its
//! errors naming the field, and scene and population files that name it.

use hooke::population::{GenomeSettings, VoxelGenome, VoxelMaterial};
use hooke::prelude::*;
use hooke::{Material, Scene};

/// A 3 x 2 x 2 voxel box of a material: the mass is `rho V`, every inner spring has the bulk
/// stiffness and every surface spring the share of its cells; the same box as a `Lattice` has
/// the same masses and springs.
#[test]
fn voxel_box_and_lattice_of_a_material_agree_with_the_assembly() {
    let m = Material::new(2.0e5, 1200.0).with_damping_ratio(0.2);
    let a = 0.01;
    let part = VoxelBody {
        voxel_size: a,
        ..VoxelBody::lattice(2, 2, 2)
    }
    .made_of(m)
    .build()
    .unwrap();
    assert!((part.total_mass() - 1200.0 * (2.0 * a).powi(3)).abs() < 1e-15);
    let k = m.cubic_stiffness(a).unwrap();
    // The centre node (index 13 of 27) lies in 8 cells, a corner node in 1.
    assert!((part.masses[13].mass - 1200.0 * a.powi(3)).abs() < 1e-15);
    assert!((part.masses[0].mass - 1200.0 * a.powi(3) / 8.0).abs() < 1e-15);
    for s in &part.springs {
        let (pa, pb) = (
            part.masses[s.a as usize].position,
            part.masses[s.b as usize].position,
        );
        let mid = (pa + pb) / 2.0;
        let inner = |x: f64| (x - a).abs() < 1e-12;
        // Edges through the centre (both coordinates off the edge's axis inner) are in 4 cells.
        if (pa - pb).length() < 1.5 * a
            && [mid.x, mid.y, mid.z].iter().filter(|&&x| inner(x)).count() == 3
        {
            assert!((s.stiffness - k.edge).abs() < 1e-9, "{s:?}");
        }
        let (ma, mb) = (
            part.masses[s.a as usize].mass,
            part.masses[s.b as usize].mass,
        );
        let critical = 2.0 * (s.stiffness * ma * mb / (ma + mb)).sqrt();
        assert!((s.damping - 0.2 * critical).abs() < 1e-12, "{s:?}");
    }
    let lattice = hooke::Lattice {
        n: 3,
        spacing: a,
        z0: 0.0,
        material: Some(m),
        ..hooke::Lattice::default()
    }
    .build()
    .unwrap();
    assert_eq!(lattice.masses.len(), part.masses.len());
    for (x, y) in lattice.masses.iter().zip(&part.masses) {
        assert!((x.mass - y.mass).abs() < 1e-15);
    }
    let mut ks: Vec<(u32, u32, f64)> = part
        .springs
        .iter()
        .map(|s| (s.a, s.b, s.stiffness))
        .collect();
    let mut kl: Vec<(u32, u32, f64)> = lattice
        .springs
        .iter()
        .map(|s| (s.a, s.b, s.stiffness))
        .collect();
    ks.sort_by_key(|t| (t.0, t.1));
    kl.sort_by_key(|t| (t.0, t.1));
    assert_eq!(ks.len(), kl.len());
    for (x, y) in ks.iter().zip(&kl) {
        assert_eq!((x.0, x.1), (y.0, y.1));
        assert!((x.2 - y.2).abs() < 1e-9, "{x:?} {y:?}");
    }
}

/// Each bad field is an error naming it, never a panic or a NaN built into the model.
#[test]
fn bad_material_fields_are_errors_naming_the_field() {
    let cases = [
        (Material::new(0.0, 1000.0), "material.young_modulus"),
        (Material::new(f64::NAN, 1000.0), "material.young_modulus"),
        (Material::new(1e6, -1.0), "material.density"),
        (Material::new(1e6, f64::INFINITY), "material.density"),
        (
            Material::new(1e6, 1000.0).with_damping_ratio(-0.1),
            "material.damping_ratio",
        ),
        (
            Material::new(1e6, 1000.0).with_damping_ratio(f64::NAN),
            "material.damping_ratio",
        ),
    ];
    for (m, field) in cases {
        for built in [
            VoxelBody::lattice(1, 1, 1).made_of(m).build(),
            Cube {
                material: Some(m),
                ..Cube::lipson()
            }
            .build(),
            hooke::Lattice {
                material: Some(m),
                ..hooke::Lattice::benchmark(2)
            }
            .build(),
        ] {
            match built {
                Err(Error::InvalidParameter { name, .. }) => assert_eq!(name, field, "{m:?}"),
                other => panic!("{m:?}: expected an error naming {field}, got {other:?}"),
            }
        }
    }
    let unknown = Material::named("jelly").unwrap_err().to_string();
    assert!(
        unknown.contains("jelly") && unknown.contains("ecoflex_00_30"),
        "{unknown}"
    );
}

/// Scene files name a material by name or by its fields; a Poisson's ratio other than 1/4 and
/// an unknown name are refused, saying why.
#[test]
fn scenes_name_materials() {
    let scene = |material: &str| {
        format!(
            r#"{{"version": 1, "bodies": [
                {{"body": {{"type": "voxels", "voxel_size": 0.01, "material": {material},
                  "voxels": [{{"cell": [0, 0, 0]}}, {{"cell": [1, 0, 0]}}]}}}},
                {{"body": {{"type": "cube", "size": 0.02, "material": {material}}}}}]}}"#
        )
    };
    let named = Scene::from_json_str(&scene(r#""ecoflex_00_30""#))
        .unwrap()
        .to_model()
        .unwrap();
    let fields = Scene::from_json_str(&scene(
        r#"{"young_modulus": 69e3, "density": 1070, "poisson_ratio": 0.25}"#,
    ))
    .unwrap()
    .to_model()
    .unwrap();
    assert_eq!(named.springs, fields.springs);
    assert!(
        (named.masses.iter().map(|m| m.mass).sum::<f64>() - 1070.0 * (2e-6 + 8e-6)).abs() < 1e-12
    );
    let nu = Scene::from_json_str(&scene(
        r#"{"young_modulus": 1e6, "density": 1070, "poisson_ratio": 0.45}"#,
    ))
    .unwrap_err()
    .to_string();
    assert!(nu.contains("poisson_ratio") && nu.contains("0.25"), "{nu}");
    let bad = Scene::from_json_str(&scene(r#"{"young_modulus": -1, "density": 1070}"#))
        .unwrap_err()
        .to_string();
    assert!(bad.contains("material.young_modulus"), "{bad}");
    let unknown = Scene::from_json_str(&scene(r#""unobtainium""#))
        .unwrap_err()
        .to_string();
    assert!(unknown.contains("unobtainium"), "{unknown}");
    // Saved and read again, the material is kept.
    let again = Scene::from_json_str(
        &Scene::from_json_str(&scene(r#""dragon_skin_10""#))
            .unwrap()
            .to_json_string(),
    )
    .unwrap();
    assert_eq!(
        again.to_model().unwrap().springs,
        Scene::from_json_str(&scene(r#""dragon_skin_10""#))
            .unwrap()
            .to_model()
            .unwrap()
            .springs
    );
}

/// Genome settings with a soft and a stiff material build the robot from them; one without the
/// other is refused.
#[test]
fn genomes_take_materials() {
    let settings: GenomeSettings = serde_json::from_str(
        r#"{"voxel_size": 0.02, "material": "ecoflex_00_30", "stiff_material": {"young_modulus": 6e5, "density": 1080}}"#,
    )
    .unwrap();
    let mut genome = VoxelGenome::filled([2, 1, 1], VoxelMaterial::Soft);
    genome.cells[1] = VoxelMaterial::Stiff;
    let part = genome.part(&settings).unwrap();
    let mass = part.total_mass();
    assert!(
        (mass - (1070.0 + 1080.0) * 0.02f64.powi(3)).abs() < 1e-12,
        "{mass}"
    );
    let half = GenomeSettings {
        stiff_material: None,
        ..settings
    };
    assert!(genome
        .part(&half)
        .unwrap_err()
        .to_string()
        .contains("stiff_material"));
}

/// Elastic energy (J) of `part`'s springs with every mass moved by the in-plane (x, z) strain
/// `[exx, ezz, exz]`, linearised: `sum k (n . eps . n L0)^2 / 2` over springs along `n`.
fn strained_energy(part: &hooke::Part, [exx, ezz, exz]: [f64; 3]) -> f64 {
    part.springs
        .iter()
        .map(|s| {
            let d = part.masses[s.b as usize].position - part.masses[s.a as usize].position;
            let stretch = (d.x * d.x * exx + d.z * d.z * ezz + 2.0 * d.x * d.z * exz) / d.length();
            s.stiffness * stretch * stretch / 2.0
        })
        .sum()
}

/// An image body of a material: each pixel weighs `rho s^3`, edge springs have `3 E s / 4` and
/// diagonals `3 E s / 8`, damped at the damping ratio; and the pixel sheet is the isotropic
/// plane-stress solid of Young's modulus E and Poisson's ratio 1/3 the derivation says: under
/// uniaxial stress along x and along a direction 30 degrees from x, the springs' energy is the
/// continuum's `sigma^2 / (2 E)` times the volume `N^2 s^3`, short by the springs the outline
/// lacks (an N x N picture has N (N - 1) edge springs per axis and (N - 1)^2 diagonals per
/// direction instead of N^2: at most 2/N of the energy).
#[test]
fn an_image_body_of_a_material_is_an_isotropic_sheet() {
    let (n, s) = (40u32, 0.005);
    let material = Material::new(3.0e5, 1100.0).with_damping_ratio(0.1);
    let picture = image::GrayImage::from_pixel(n, n, image::Luma([0]));
    let body = hooke::ImageBody {
        spacing: s,
        theta0: 0.0,
        material: Some(material),
        ..hooke::ImageBody::anderson_table1()
    };
    let part = body
        .from_image(&image::DynamicImage::ImageLuma8(picture))
        .unwrap();
    for m in &part.masses {
        assert!((m.mass - 1100.0 * s.powi(3)).abs() < 1e-18);
    }
    let e = material.young_modulus;
    for spring in &part.springs {
        let k = if spring.rest_length < 1.2 * s {
            0.75
        } else {
            0.375
        } * e
            * s;
        assert!((spring.stiffness - k).abs() < 1e-9 * k, "{spring:?}");
        let m = 1100.0 * s.powi(3);
        let critical = 2.0 * (k * m / 2.0).sqrt();
        assert!(
            (spring.damping - 0.1 * critical).abs() < 1e-12,
            "{spring:?}"
        );
    }
    let volume = f64::from(n * n) * s.powi(3);
    let sigma = 1.0e3; // Pa: a strain of 1/300, small enough for the linearisation
    for angle in [0.0f64, std::f64::consts::PI / 6.0] {
        // Uniaxial stress along (cos, sin): strain sigma / E along it, -sigma / (3 E) across.
        let (c, si) = (angle.cos(), angle.sin());
        let (along, across) = (sigma / e, -sigma / (3.0 * e));
        let strain = [
            along * c * c + across * si * si,
            along * si * si + across * c * c,
            (along - across) * c * si,
        ];
        let continuum = sigma * sigma / (2.0 * e) * volume;
        let springs = strained_energy(&part, strain);
        let short = 1.0 - springs / continuum;
        assert!(
            (0.0..=2.0 / f64::from(n)).contains(&short),
            "angle {angle}: springs {springs} J, continuum {continuum} J, short by {short}"
        );
    }
}

/// An image body in a scene file names a material like the other solids: by name or by its
/// fields, built as the Rust builder builds it; the material survives a save.
#[test]
fn scene_image_bodies_take_a_material() {
    let dir = std::path::Path::new(env!("CARGO_TARGET_TMPDIR")).join("image_material");
    std::fs::create_dir_all(&dir).unwrap();
    let picture =
        image::GrayImage::from_fn(4, 3, |u, r| image::Luma([if u + r < 5 { 0 } else { 255 }]));
    picture.save(dir.join("shape.png")).unwrap();
    let json = |material: &str| {
        format!(
            r#"{{"version": 1, "bodies": [{{"body": {{"type": "image", "path": "shape.png",
                "spacing": 0.01, "theta0": 0, "h0": 0, "material": {material}}}}}]}}"#
        )
    };
    let load = |material: &str| {
        let path = dir.join("scene.json");
        std::fs::write(&path, json(material)).unwrap();
        Scene::load(&path).unwrap()
    };
    let named = load(r#""ninjaflex_tpu""#).to_model().unwrap();
    let ninjaflex = Material::named("ninjaflex_tpu").unwrap();
    let fields = load(&format!(
        r#"{{"young_modulus": {}, "density": {}}}"#,
        ninjaflex.young_modulus, ninjaflex.density
    ))
    .to_model()
    .unwrap();
    let rust = hooke::ImageBody {
        spacing: 0.01,
        theta0: 0.0,
        h0: 0.0,
        material: Some(ninjaflex),
        ..hooke::ImageBody::anderson_table1()
    }
    .from_path(dir.join("shape.png"))
    .unwrap();
    assert_eq!(named.springs, rust.springs);
    assert_eq!(fields.springs, rust.springs);
    assert_eq!(named.masses, rust.masses);
    let saved = load(r#""ninjaflex_tpu""#).to_json_string();
    assert!(saved.contains("young_modulus"), "{saved}");
}
