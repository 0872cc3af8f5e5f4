// hooke: records in Precision::F64, read as what they are (the word tricks of words_wide.wgsl
// and words_narrow.wgsl serve f32 records). Prepended instead of them when the kernels compute
// in f64 (the device then has SHADER_INT64 and SHADER_F64).
alias Words = vec4<Real>;

// A `GpuLink` in f64, 16 bytes: the second mass (or'ed with LINK_ACTUATED), the actuator index
// (0 for a passive spring), and the rest length's f64 bits (low word, high word), m.
alias Link = vec4<u32>;

fn words_link(v: Link) -> GpuLink {
    return GpuLink(v.x, v.y);
}

// The rest length (m) of a link that no actuator drives.
fn link_rest(v: Link) -> Real {
    return bitcast<f64>(u64(v.z) | (u64(v.w) << 32u));
}

fn words_vec4(v: Words) -> vec4<Real> {
    return v;
}

fn words_pack(v: vec4<Real>) -> Words {
    return v;
}

// A mass's properties, read whole.
alias Record = GpuMass;

fn record_lo(r: Record) -> Record {
    return r;
}

fn record_hi(r: Record) -> Record {
    return r;
}

fn words_mass(lo: Record, hi: Record) -> GpuMass {
    return lo;
}

// A mass's state, 64 bytes: (px, py, pz, vx), (vy, vz, 0, 0), m and m/s.
alias State = array<vec4<Real>, 2>;

fn state_position(s: State) -> vec3<Real> {
    return s[0].xyz;
}

fn state_velocity(s: State) -> vec3<Real> {
    return vec3<Real>(s[0].w, s[1].x, s[1].y);
}

fn state_pack(p: vec3<Real>, v: vec3<Real>) -> State {
    return State(vec4<Real>(p, v.x), vec4<Real>(v.y, v.z, 0.0, 0.0));
}

// A stencil slot's part of its `Words`: one real per slot, written whole.
alias SlotPart = Real;
const SLOT_PARTS: u32 = 4u;

// The part holding real x in slot c (0..3) of a word whose part held `old`.
fn slot_merge(old: SlotPart, x: Real, c: u32) -> SlotPart {
    return x;
}
