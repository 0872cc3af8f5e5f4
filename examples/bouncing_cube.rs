//! The main example: seed 000's bouncing cube (0.1 m, 8 masses of 0.1 kg, 28 springs of
//! k = 10 000 N/m, penalty ground k_c = 100 000 N/m, dt = 1e-4 s), dropped from 0.3 m on the
//! double-precision CPU reference. Prints the height of the cube's centre of mass and the energy
//! terms every 0.1 s, then the bounce apexes.
//!
//! Run: `cargo run --release --example bouncing_cube`

use hooke::{CpuWorld, DVec3, Mass, Model, Params, Part};

fn main() -> hooke::Result<()> {
    let mut cube = Part::new();
    for i in 0..8u32 {
        let corner = DVec3::new(
            f64::from(i & 1),
            f64::from((i >> 1) & 1),
            f64::from((i >> 2) & 1),
        );
        cube.add_mass(Mass::new(0.1, corner * 0.1 + DVec3::new(0.0, 0.0, 0.3)));
    }
    for a in 0..8 {
        for b in a + 1..8 {
            cube.connect(a, b, 10_000.0, 0.0);
        }
    }
    let mut model = Model::new(Params::default());
    let body = model.add("cube", cube);
    let mut world = CpuWorld::new(&model)?;

    println!("    t [s]   com z [m]   kinetic   gravity   elastic    ground     total [J]");
    let mut apexes = Vec::new();
    let mut last_vz = 0.0;
    for frame in 0..=30 {
        if frame > 0 {
            // 0.1 s per printed frame, in 1 ms slices to catch the apexes.
            for _ in 0..100 {
                world.step_for(1e-3)?;
                let vz = world.body_mean_velocity(body)?.z;
                if last_vz > 0.0 && vz <= 0.0 {
                    apexes.push((world.time(), world.body_centre_of_mass(body)?.z));
                }
                last_vz = vz;
            }
        }
        let e = world.energy();
        println!(
            "{:9.2} {:11.4} {:9.4} {:9.4} {:9.4} {:9.4} {:13.4}",
            world.time(),
            world.body_centre_of_mass(body)?.z,
            e.kinetic,
            e.gravity,
            e.elastic,
            e.ground,
            e.total()
        );
    }
    println!("bounce apexes (t, com z): {apexes:.3?}");
    Ok(())
}
