// hooke: 16-byte records read as four 32-bit words (devices without SHADER_INT64). Prepended to
// the spring pass instead of `words_wide.wgsl`.
alias Words = vec4<u32>;

// The xyz of a vec4<f32> record.
fn words_xyz(v: Words) -> vec3<f32> {
    return bitcast<vec3<f32>>(v.xyz);
}

fn words_spring(v: Words) -> GpuSpring {
    return GpuSpring(v.x, v.y, v.z, v.w);
}
