// hooke::grid_scan: the collision grid's counts to starts, one scan block (WORKGROUP_SIZE *
// SCAN_ITEMS buckets) per workgroup: each bucket's start within its block, and the block's total
// (grid_scan_blocks then turns the totals into the blocks' starts). Clears the counts it reads,
// ready for the next step's grid_count (CPU twin: the prefix sum of `MassGrid::build`).

@compute @workgroup_size(WORKGROUP_SIZE)
fn grid_scan(
    @builtin(workgroup_id) wg: vec3<u32>,
    @builtin(num_workgroups) groups: vec3<u32>,
    @builtin(local_invocation_index) lid: u32,
) {
    let block = workgroup_linear(wg, groups);
    let first = item(wg, groups, lid) * SCAN_ITEMS;
    let inside = first < collide_params.buckets;
    var counts = array<u32, SCAN_ITEMS>();
    var total = 0u;
    if inside {
        for (var j = 0u; j < SCAN_ITEMS; j += 1u) {
            counts[j] = atomicLoad(&grid_counts[first + j]);
            atomicStore(&grid_counts[first + j], 0u);
            total += counts[j];
        }
    }
    let through = workgroup_scan(lid, total);
    if inside {
        var running = through - total;
        for (var j = 0u; j < SCAN_ITEMS; j += 1u) {
            grid_starts[first + j] = running;
            running += counts[j];
        }
        if lid == WORKGROUP_SIZE - 1u {
            grid_starts[collide_params.buckets + block] = through;
        }
    }
}
