// hooke::grid_bounds: the box of the cells occupied by colliding masses this step (the lowest
// and highest cell coordinates, an atomic min and max per workgroup after a workgroup
// reduction), from which grid_frame decides how cells are numbered (shared/collisions.wgsl:
// `Frame`). CPU twin: the bounds loop of `MassGrid::build`.

var<workgroup> group_box: array<atomic<u32>, 6>;

@compute @workgroup_size(WORKGROUP_SIZE)
fn grid_bounds(
    @builtin(workgroup_id) wg: vec3<u32>,
    @builtin(num_workgroups) groups: vec3<u32>,
    @builtin(local_invocation_index) lid: u32,
) {
    if lid < 3u {
        atomicStore(&group_box[BOX_MIN + lid], 0xffffffffu);
        atomicStore(&group_box[BOX_MAX + lid], 0u);
    }
    workgroupBarrier();
    let slot = item(wg, groups, lid);
    if slot < collide_params.members {
        let c = cell_of(state_position(state[colliders[slot].mass]));
        for (var a = 0u; a < 3u; a += 1u) {
            atomicMin(&group_box[BOX_MIN + a], order(c[a]));
            atomicMax(&group_box[BOX_MAX + a], order(c[a]));
        }
    }
    workgroupBarrier();
    if lid < 3u {
        let base = collide_params.buckets;
        atomicMin(&grid_counts[base + BOX_MIN + lid], atomicLoad(&group_box[BOX_MIN + lid]));
        atomicMax(&grid_counts[base + BOX_MAX + lid], atomicLoad(&group_box[BOX_MAX + lid]));
    }
}
