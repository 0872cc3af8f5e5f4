// hooke::grid_sort: each bucket's slots sorted in increasing order (an insertion sort: buckets
// hold about one mass each), so the order the collision pass visits them in no longer depends on
// which invocation of grid_count counted first.

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
        let slot = grid_entries[e];
        var at = e;
        while at > first && grid_entries[at - 1u] > slot {
            grid_entries[at] = grid_entries[at - 1u];
            at -= 1u;
        }
        grid_entries[at] = slot;
    }
}
