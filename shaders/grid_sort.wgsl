// hooke::grid_sort: each bucket's entries sorted by slot (an insertion sort: buckets hold about
// one mass each), so the order the collision pass visits them in does not depend on which
// invocation of grid_count counted first; then each entry's position and radius are copied next
// to it (`grid_points`), so the gather reads a cell's candidates from contiguous memory, and each
// slot learns its entry (`grid_cells[slot].w`).

@compute @workgroup_size(WORKGROUP_SIZE)
fn grid_sort(
    @builtin(workgroup_id) wg: vec3<u32>,
    @builtin(num_workgroups) groups: vec3<u32>,
    @builtin(local_invocation_index) lid: u32,
) {
    let b = item(wg, groups, lid);
    if b >= collide_params.buckets {
        return;
    }
    let first = bucket_start(b);
    let end = bucket_start(b + 1u);
    for (var e = first + 1u; e < end; e += 1u) {
        let key = grid_keys[e];
        var at = e;
        while at > first && grid_keys[at - 1u].w > key.w {
            grid_keys[at] = grid_keys[at - 1u];
            at -= 1u;
        }
        grid_keys[at] = key;
    }
    for (var e = first; e < end; e += 1u) {
        let slot = grid_keys[e].w;
        let c = colliders[slot];
        grid_points[e] = vec4<Real>(state_position(state[c.mass]), c.radius);
        grid_cells[slot].w = i32(e);
    }
}
