// hooke: 16-byte records read as four 32-bit words, 8-byte links as two (devices without
// SHADER_INT64). Prepended to the springs, energy_springs, integrate and publish kernels instead
// of `words_wide.wgsl`.
alias Words = vec4<u32>;

// A `GpuLink` (8 bytes) read as two 32-bit words.
alias Link = vec2<u32>;

// The rest length (m) of a link that no actuator drives: f32 bits in `rest`.
fn link_rest(v: Link) -> Real {
    return bitcast<f32>(words_link(v).rest);
}

fn words_link(v: Link) -> GpuLink {
    return GpuLink(v.x, v.y);
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

// A 32-byte record (a mass's properties, or its state: position then velocity) as two `Words`.
alias Record = array<vec4<u32>, 2>;

fn record_lo(r: Record) -> Words {
    return r[0];
}

fn record_hi(r: Record) -> Words {
    return r[1];
}

// A mass's state, 32 bytes: position then velocity as six f32 (px, py, pz, vx, vy, vz, 0, 0),
// read as two `Words`.
alias State = array<vec4<u32>, 2>;

fn state_position(s: State) -> vec3<f32> {
    return bitcast<vec3<f32>>(s[0].xyz);
}

fn state_velocity(s: State) -> vec3<f32> {
    return bitcast<vec3<f32>>(vec3<u32>(s[0].w, s[1].x, s[1].y));
}

fn state_pack(p: vec3<f32>, v: vec3<f32>) -> State {
    let a = bitcast<vec3<u32>>(p);
    let b = bitcast<vec3<u32>>(v);
    return State(vec4<u32>(a, b.x), vec4<u32>(b.y, b.z, 0u, 0u));
}

// A stencil slot's part of its `Words`: one 32-bit word per slot, written whole.
alias SlotPart = u32;
const SLOT_PARTS: u32 = 4u;

// The part holding real x in slot c (0..3) of a word whose part held `old`.
fn slot_merge(old: SlotPart, x: Real, c: u32) -> SlotPart {
    return bitcast<u32>(x);
}
