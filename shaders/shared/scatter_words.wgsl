// hooke: the spring pass's force sums as one `Fixed` word per component, 4 words per mass (x, y,
// z, unused; the integrate pass reads a mass's sum in one access). Prepended to `springs.wgsl`
// instead of `scatter_packed.wgsl`.
@group(0) @binding(7) var<storage, read_write> forces: array<atomic<Fixed>>;

// Adds the fixed-point force q to mass `mass`'s sum: three atomic adds.
fn scatter(mass: u32, q: vec3<Fixed>) {
    let i = 4u * mass;
    atomicAdd(&forces[i], q.x);
    atomicAdd(&forces[i + 1u], q.y);
    atomicAdd(&forces[i + 2u], q.z);
}

// Mass `mass`'s sum as the integrate pass reads it (x, y, z, 0), cleared: for the fused steps
// kernel (steps.wgsl), which reads the sums through the same atomics it adds them with.
fn take_force_atomic(mass: u32) -> vec4<Fixed> {
    let i = 4u * mass;
    let sum = vec4<Fixed>(
        atomicLoad(&forces[i]),
        atomicLoad(&forces[i + 1u]),
        atomicLoad(&forces[i + 2u]),
        Fixed(0),
    );
    atomicStore(&forces[i], Fixed(0));
    atomicStore(&forces[i + 1u], Fixed(0));
    atomicStore(&forces[i + 2u], Fixed(0));
    return sum;
}
