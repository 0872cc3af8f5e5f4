// hooke: 16-byte records read as two 64-bit words, 8-byte links as one (devices with
// SHADER_INT64). Prepended to the springs, energy_springs, integrate and publish kernels instead
// of `words_narrow.wgsl`. A CPU adapter (lavapipe) reads storage in a per-lane loop with a bounds
// check per component, so two 64-bit components cost less than four 32-bit ones; on a GPU both
// are one 16-byte load.
alias Words = vec2<u64>;

fn word_lo(x: u64) -> u32 {
    return u32(x & 0xfffffffflu);
}

fn word_hi(x: u64) -> u32 {
    return u32(x >> 32u);
}

// The xyz of a vec4<f32> record.
fn words_xyz(v: Words) -> vec3<f32> {
    return vec3<f32>(bitcast<f32>(word_lo(v.x)), bitcast<f32>(word_hi(v.x)), bitcast<f32>(word_lo(v.y)));
}

// A `GpuLink` (8 bytes) read as one 64-bit word.
alias Link = u64;

// The rest length (m) of a link that no actuator drives: f32 bits in `rest`.
fn link_rest(v: Link) -> Real {
    return bitcast<f32>(words_link(v).rest);
}

fn words_link(v: Link) -> GpuLink {
    return GpuLink(word_lo(v), word_hi(v));
}

fn words_vec4(v: Words) -> vec4<f32> {
    return vec4<f32>(words_xyz(v), bitcast<f32>(word_hi(v.y)));
}

fn words_pack(v: vec4<f32>) -> Words {
    let u = bitcast<vec4<u32>>(v);
    return Words(u64(u.x) | (u64(u.y) << 32u), u64(u.z) | (u64(u.w) << 32u));
}

// A `GpuMass` from its two 16-byte halves.
fn words_mass(h0: Words, h1: Words) -> GpuMass {
    let f = words_vec4(h0);
    return GpuMass(f.xyz, f.w, word_lo(h1.x), word_hi(h1.x), word_lo(h1.y), word_hi(h1.y));
}

// A 32-byte record (a mass's properties, or its state: position then velocity) read as one
// vec4 of 64-bit words: one load, where two `Words` would be two.
alias Record = vec4<u64>;

fn record_lo(r: Record) -> Words {
    return r.xy;
}

fn record_hi(r: Record) -> Words {
    return r.zw;
}

// A mass's state, 32 bytes: position then velocity as six f32 (px, py, pz, vx, vy, vz, 0, 0),
// read as three 64-bit words (one load of three components, the pad not read).
alias State = vec3<u64>;

fn state_position(s: State) -> vec3<f32> {
    return vec3<f32>(bitcast<f32>(word_lo(s.x)), bitcast<f32>(word_hi(s.x)), bitcast<f32>(word_lo(s.y)));
}

fn state_velocity(s: State) -> vec3<f32> {
    return vec3<f32>(bitcast<f32>(word_hi(s.y)), bitcast<f32>(word_lo(s.z)), bitcast<f32>(word_hi(s.z)));
}

fn state_pack(p: vec3<f32>, v: vec3<f32>) -> State {
    let a = bitcast<vec3<u32>>(p);
    let b = bitcast<vec3<u32>>(v);
    return State(
        u64(a.x) | (u64(a.y) << 32u),
        u64(a.z) | (u64(b.x) << 32u),
        u64(b.y) | (u64(b.z) << 32u),
    );
}

// A stencil slot's part of its `Words`: the 64-bit word it shares with its neighbour slot
// (slot c in the low half for even c, as `words_pack` puts it).
alias SlotPart = u64;
const SLOT_PARTS: u32 = 2u;

// The part holding real x in slot c (0..3) of a word whose part held `old`.
fn slot_merge(old: SlotPart, x: Real, c: u32) -> SlotPart {
    let shift = (c % 2u) * 32u;
    return (old & ~(0xfffffffflu << shift)) | (u64(bitcast<u32>(x)) << shift);
}
