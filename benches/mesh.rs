//! Bodies from meshes: the time to check a closed triangle mesh (`TriangleMesh::check_closed`)
//! and to voxelize it (`TriangleMesh::voxel_cells`), for an icosphere of 81 920 triangles at a
//! voxel giving about a million voxels (0.8 mm in a 5 cm ball: 1.02 M voxels). Results and the
//! machine they were measured on: docs/PERFORMANCE.md ("Voxelizing meshes").
//!
//! `cargo bench --bench mesh` runs it in full; with `CI` set the mesh and grid shrink (1 280
//! triangles, 5 mm voxels) so that CI's quick pass (`cargo bench -- --test`) only proves the
//! benchmark still runs.

#![allow(missing_docs)] // criterion_group! generates undocumented functions

use std::path::Path;

use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use hooke::builders::TriangleMesh;

fn quick() -> bool {
    std::env::var_os("CI").is_some()
}

fn voxelize(c: &mut Criterion) {
    let (subdivisions, voxel) = if quick() { (3, 0.005) } else { (6, 0.0008) };
    let mesh = TriangleMesh::icosphere(0.05, subdivisions);
    let name = Path::new("icosphere");
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
    group.finish();
}

criterion_group!(benches, voxelize);
criterion_main!(benches);
