// hooke: 16-byte records read as four 32-bit words (devices without SHADER_INT64). Prepended to
// the spring and integrate passes instead of `words_wide.wgsl`.
alias Words = vec4<u32>;

// The xyz of a vec4<f32> record.
fn words_xyz(v: Words) -> vec3<f32> {
    return bitcast<vec3<f32>>(v.xyz);
}

fn words_spring(v: Words) -> GpuSpring {
    return GpuSpring(v.x, v.y, v.z, v.w);
}

fn words_vec4(v: Words) -> vec4<f32> {
    return bitcast<vec4<f32>>(v);
}

fn words_pack(v: vec4<f32>) -> Words {
    return bitcast<vec4<u32>>(v);
}

// A `GpuMass` from its two 16-byte halves.
fn words_mass(h0: Words, h1: Words) -> GpuMass {
    let f = bitcast<vec4<f32>>(h0);
    return GpuMass(f.xyz, f.w, h1.x, h1.y, h1.z, h1.w);
}
