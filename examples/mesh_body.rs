//! A body from a triangle mesh: a bunny-like blob (body, head, two ears) made in code as a
//! closed mesh, written as OBJ and STL, voxelized at 6 mm into soft silicone (Dragon Skin 10,
//! bonds damped at 10 %: 1 330 voxels, 1 900 masses), then dropped onto rough ground and pushed
//! along +x at 0.8 m/s, on the CPU reference: it lands, tumbles about half a metre and settles.
//!
//! The mesh is [`TriangleMesh::bunny`]: an icosphere whose vertices are pushed out along their
//! directions (a star-shaped surface: closed, consistently oriented and free of
//! self-intersections by construction). The scene names the OBJ file, relative to itself, as a
//! user's scene would: `{"type": "mesh", "path": "bunny.obj", "voxel": 0.008, "material": ...}`.
//!
//! Writes to `out/mesh_body/`: `bunny.obj`, `bunny.stl` (binary), `bunny.json` (the scene, which
//! `hooke run out/mesh_body/bunny.json --gif out.gif` replays), `bunny.gif` (the mesh's own
//! surface carried by the voxels, 2 s at 25 frames per simulated second, the camera following)
//! and `bunny_energy.png`.
//!
//! Run: `cargo run --release --example mesh_body`

use std::path::Path;
use std::process::ExitCode;

use hooke::builders::TriangleMesh;
use hooke::render::{record_cpu, Framing, RecordOptions, Style};
use hooke::{
    BodyKind, BodySpec, CpuWorld, DVec2, DVec3, Friction, Material, MeshBody, Params, Placement,
    RoughGround, Scene, Terrain,
};

/// Output folder.
const OUT: &str = "out/mesh_body";
/// Voxel edge, m.
const VOXEL: f64 = 0.006;
/// Simulated time, s.
const DURATION: f64 = 2.0;

fn run() -> hooke::Result<()> {
    let out = Path::new(OUT);
    std::fs::create_dir_all(out).map_err(|source| hooke::Error::SceneIo {
        path: out.to_path_buf(),
        source,
    })?;
    let mesh = TriangleMesh::bunny(4);
    let write = |name: &str, bytes: &[u8]| {
        std::fs::write(out.join(name), bytes).map_err(|source| hooke::Error::SceneIo {
            path: out.join(name),
            source,
        })
    };
    write("bunny.obj", mesh.to_obj().as_bytes())?;
    write("bunny.stl", &mesh.to_stl_binary())?;
    println!(
        "bunny: {} vertices, {} triangles",
        mesh.vertices.len(),
        mesh.triangles.len()
    );

    // The scene: the mesh file (relative to the scene) on 2 m of bumps up to 3 cm.
    let material = Material::named("dragon_skin_10")?.with_damping_ratio(0.1);
    let mut scene = Scene::new(Params {
        friction: Friction::coulomb(0.8, 0.6),
        ..Params::default()
    });
    scene.terrain = Some(Terrain::RoughGround(RoughGround {
        origin: DVec3::new(-0.5, -1.0, 0.0),
        spacing: DVec2::splat(0.1),
        columns: 21,
        rows: 21,
        amplitude: 0.03,
        seed: 3,
    }));
    // Dropped from 10 cm above the bumps' top, pushed along +x at 0.8 m/s.
    let placement =
        Placement::at(DVec3::new(0.0, 0.0, 0.17)).with_velocity(DVec3::new(0.8, 0.0, 0.0));
    scene.push(
        BodySpec::new(BodyKind::Mesh(MeshBody::new("bunny.obj", VOXEL, material)))
            .named("bunny")
            .placed(placement),
    );
    scene.base_dir = Some(out.to_path_buf());
    let mut model = scene.to_model()?;
    model.params.dt = 0.5 * model.stable_dt().dt;
    scene.params.dt = model.params.dt;
    scene.save(out.join("bunny.json"))?;
    let cells = scene.mesh_cells(&model)?;
    let surfaces = scene.mesh_surfaces(&model)?;
    println!(
        "voxelized at {VOXEL} m: {} voxels, {} masses, {} springs, {:.1} g; dt = {:.2e} s",
        cells.len(),
        model.masses.len(),
        model.springs.len(),
        1e3 * model.masses.iter().map(|m| m.mass).sum::<f64>(),
        model.params.dt
    );

    let mut world = CpuWorld::new(&model)?;
    let options = RecordOptions {
        duration: DURATION,
        frame_time: 0.04,
        framing: Framing::Follow,
        surfaces,
        // The mesh's surface alone: thousands of short springs would hide it.
        style: Style {
            show_springs: false,
            show_masses: false,
            ..Style::default()
        },
        title: "bunny: energy".into(),
        ..RecordOptions::new(OUT, "bunny")
    };
    let summary = record_cpu(&mut world, &options)?;
    let trace = &summary.trace;
    for (t, c) in trace.time.iter().zip(&trace.centre_of_mass).step_by(50) {
        println!(
            "  t = {t:4.2} s   centre of mass ({:6.3}, {:6.3}, {:6.3}) m",
            c.x, c.y, c.z
        );
    }
    println!(
        "wrote {} ({} frames), {}",
        summary.gif.display(),
        summary.frames,
        summary.plot.display()
    );
    Ok(())
}

fn main() -> ExitCode {
    match run() {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("error: {e}");
            ExitCode::FAILURE
        }
    }
}
