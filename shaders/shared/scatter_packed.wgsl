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

// Mass `mass`'s sum as the integrate pass reads it (the two 64-bit words as four 32-bit ones,
// low half first: x, y plus the borrow, z, z's sign), cleared: for the fused steps kernel
// (steps.wgsl), which reads the sums through the same atomics it adds them with.
fn take_force_atomic(mass: u32) -> vec4<i32> {
    let i = 2u * mass;
    let xy = atomicLoad(&forces[i]);
    let z = atomicLoad(&forces[i + 1u]);
    atomicStore(&forces[i], 0li);
    atomicStore(&forces[i + 1u], 0li);
    return vec4<i32>(i32(xy), i32(xy >> 32u), i32(z), i32(z >> 32u));
}
