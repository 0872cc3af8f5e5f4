// hooke::grid_scan_blocks: one workgroup turns the scan blocks' totals (grid_scan) into their
// starts, in place; a bucket's start is then its start within its block plus its block's start
// (`bucket_start`).

@compute @workgroup_size(WORKGROUP_SIZE)
fn grid_scan_blocks(@builtin(local_invocation_index) lid: u32) {
    let blocks = collide_params.buckets / (WORKGROUP_SIZE * SCAN_ITEMS);
    let per = (blocks + WORKGROUP_SIZE - 1u) / WORKGROUP_SIZE;
    let first = min(lid * per, blocks);
    let end = min(first + per, blocks);
    // The blocks' totals follow the buckets' starts in `grid_starts`.
    let base = collide_params.buckets;
    var total = 0u;
    for (var b = first; b < end; b += 1u) {
        total += grid_starts[base + b];
    }
    var running = workgroup_scan(lid, total) - total;
    for (var b = first; b < end; b += 1u) {
        let count = grid_starts[base + b];
        grid_starts[base + b] = running;
        running += count;
    }
}
