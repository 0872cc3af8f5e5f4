// hooke: 32-bit force sums on a device with 64-bit atomics: x and y of a mass share one 64-bit
// word, summed as y * 2^32 + x, and z has the next (only its low 32 bits are read), so a mass
// update is two atomic adds instead of three. Every partial sum of a component fits in an i32
// (the fixed-point bound guarantees it), so the low half of the shared word is exactly the x sum
// and y is the high half plus the borrow of a negative x: `integrate` decodes it. The bits are
// the same as three separate 32-bit sums. Prepended to `springs.wgsl` instead of
// `scatter_words.wgsl`.
@group(0) @binding(7) var<storage, read_write> forces: array<atomic<i64>>;

// Adds the fixed-point force q to mass `mass`'s sum: two atomic adds.
fn scatter(mass: u32, q: vec3<i32>) {
    let i = 2u * mass;
    atomicAdd(&forces[i], (i64(q.y) << 32u) + i64(q.x));
    atomicAdd(&forces[i + 1u], i64(q.z));
}
