// hooke::grid_count: the first stage of the collision grid (shared/collisions.wgsl): each
// colliding mass finds its cell and bucket and counts itself in the bucket, keeping its rank
// (CPU twin: the counting loop of `MassGrid::build` in src/cpu/mass_grid.rs).

@compute @workgroup_size(WORKGROUP_SIZE)
fn grid_count(
    @builtin(workgroup_id) wg: vec3<u32>,
    @builtin(num_workgroups) groups: vec3<u32>,
    @builtin(local_invocation_index) lid: u32,
) {
    let slot = item(wg, groups, lid);
    if slot >= collide_params.members {
        return;
    }
    let c = cell_of(state_position(state[colliders[slot].mass]));
    let rank = atomicAdd(&grid_counts[bucket_of(frame(), c)], 1u);
    grid_cells[slot] = vec4<i32>(c, i32(rank));
}
