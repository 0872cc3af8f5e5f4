//! Bodies from meshes: the time to check a closed triangle mesh (`TriangleMesh::check_closed`),
//! to voxelize it (`TriangleMesh::voxel_cells`) and to build the body of masses and springs
//! from the voxels (`MeshBody::voxel_body` + `Builder::build`), for a lumpy ball of 100 000
//! triangles (non-convex: its radius swings by 15 %) at a voxel giving about a million voxels.
//! Results and the machine they were measured on: docs/PERFORMANCE.md ("Voxelizing meshes").
//!
//! `cargo bench --bench mesh` runs it in full; with `CI` set the mesh and grid shrink (2 000
//! triangles, 5 mm voxels) so that CI's quick pass (`cargo bench -- --test`) only proves the
//! benchmark still runs.

#![allow(missing_docs)] // criterion_group! generates undocumented functions

use std::f64::consts::PI;
use std::path::Path;

use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use glam::DVec3;
use hooke::builders::{Builder, Material, MeshBody, TriangleMesh};

fn quick() -> bool {
    std::env::var_os("CI").is_some()
}

/// A closed ball of radius about `radius` (m) whose surface bulges and dents by 15 % (five
/// lobes around, four from pole to pole): `rings` rings of `around` vertices between two poles,
/// `2 around rings` triangles facing out.
fn lumpy_ball(radius: f64, around: u32, rings: u32) -> TriangleMesh {
    let point = |polar: f64, azimuth: f64| {
        let r = radius * (1.0 + 0.15 * (4.0 * polar).sin() * (5.0 * azimuth).sin());
        r * DVec3::new(
            polar.sin() * azimuth.cos(),
            polar.sin() * azimuth.sin(),
            polar.cos(),
        )
    };
    let mut vertices = vec![DVec3::new(0.0, 0.0, radius)];
    for ring in 1..=rings {
        let polar = PI * f64::from(ring) / f64::from(rings + 1);
        for k in 0..around {
            vertices.push(point(polar, 2.0 * PI * f64::from(k) / f64::from(around)));
        }
    }
    vertices.push(DVec3::new(0.0, 0.0, -radius));
    let south = vertices.len() as u32 - 1;
    let at = |ring: u32, k: u32| 1 + (ring - 1) * around + k % around;
    let mut triangles = Vec::new();
    for k in 0..around {
        triangles.push([0, at(1, k), at(1, k + 1)]);
        triangles.push([south, at(rings, k + 1), at(rings, k)]);
        for ring in 1..rings {
            let (a, b) = (at(ring, k), at(ring, k + 1));
            let (c, d) = (at(ring + 1, k), at(ring + 1, k + 1));
            triangles.push([a, c, d]);
            triangles.push([a, d, b]);
        }
    }
    TriangleMesh {
        vertices,
        triangles,
    }
}

fn voxelize(c: &mut Criterion) {
    let (around, rings, voxel) = if quick() {
        (50, 20, 0.005)
    } else {
        (250, 200, 0.0008)
    };
    let mesh = lumpy_ball(0.05, around, rings);
    let name = Path::new("lumpy ball");
    mesh.check_closed(name).expect("closed");
    let voxels = mesh.voxel_cells(voxel, name).expect("voxels").len();
    println!(
        "mesh_voxelize: {} triangles, voxel {voxel} m, {voxels} voxels",
        mesh.triangles.len()
    );
    let mut group = c.benchmark_group("mesh_voxelize");
    group.sample_size(10);
    group.throughput(Throughput::Elements(mesh.triangles.len() as u64));
    group.bench_function("check_closed", |b| {
        b.iter(|| mesh.check_closed(name).expect("closed"));
    });
    group.throughput(Throughput::Elements(voxels as u64));
    group.bench_function("voxel_cells", |b| {
        b.iter(|| mesh.voxel_cells(voxel, name).expect("voxels"));
    });
    let body = MeshBody::new(
        name,
        voxel,
        Material::named("dragon_skin_10").expect("named"),
    );
    group.bench_function("voxel_body_build", |b| {
        b.iter(|| {
            let part = body
                .voxel_body(&mesh, name)
                .expect("body")
                .build()
                .expect("part");
            part.masses.len()
        });
    });
    group.finish();
}

criterion_group!(benches, voxelize);
criterion_main!(benches);
