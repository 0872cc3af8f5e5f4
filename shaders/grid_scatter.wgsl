// hooke::grid_scatter: each colliding mass writes its cell and slot into its bucket's entries
// (`grid_keys`), at the bucket's start plus its rank from grid_count (CPU twin: the scatter loop of `MassGrid::build`, which
// places masses in index order directly; grid_sort restores that order here).

@compute @workgroup_size(WORKGROUP_SIZE)
fn grid_scatter(
    @builtin(workgroup_id) wg: vec3<u32>,
    @builtin(num_workgroups) groups: vec3<u32>,
    @builtin(local_invocation_index) lid: u32,
) {
    let slot = item(wg, groups, lid);
    if slot >= collide_params.members {
        return;
    }
    let c = grid_cells[slot];
    grid_keys[bucket_start(bucket_of(frame(), c.xyz)) + u32(c.w)] = vec4<i32>(c.xyz, i32(slot));
}
