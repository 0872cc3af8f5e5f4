// hooke::grid_frame: one invocation freezes this step's frame (shared/collisions.wgsl: `Frame`)
// from the box grid_bounds found: dense numbering in the box padded by one cell when it has no
// more cells than buckets, else hashed. It then resets the box for the next step's grid_bounds.
// CPU twin: the dense-or-hashed choice of `MassGrid::build`.

@compute @workgroup_size(1)
fn grid_frame() {
    let base = collide_params.buckets;
    let buckets = collide_params.buckets;
    var n = vec3<u32>(0u);
    var dense = true;
    for (var a = 0u; a < 3u; a += 1u) {
        let lo = box_word(BOX_MIN + a);
        let hi = box_word(BOX_MAX + a);
        // The padded size hi - lo + 3, unless it is over the table already (or would wrap).
        let span = hi - lo;
        if span >= buckets {
            dense = false;
        } else {
            n[a] = span + 3u;
        }
        atomicStore(&grid_counts[base + FRAME_LO + a], order(unorder(lo) - 1));
    }
    dense = dense && n.x <= buckets && n.y <= buckets / n.x && n.z <= buckets / (n.x * n.y);
    atomicStore(&grid_counts[base + FRAME_DENSE], u32(dense));
    atomicStore(&grid_counts[base + FRAME_NX], n.x);
    atomicStore(&grid_counts[base + FRAME_NY], n.y);
    for (var a = 0u; a < 3u; a += 1u) {
        atomicStore(&grid_counts[base + BOX_MIN + a], 0xffffffffu);
        atomicStore(&grid_counts[base + BOX_MAX + a], 0u);
    }
}
