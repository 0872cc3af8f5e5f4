// hooke: the collision pass's bindings, records, broad-phase grid and pair force, shared by its
// kernels (one bind group layout for all): grid_count, grid_scan, grid_scan_blocks,
// grid_scatter and grid_sort rebuild the grid, collide gathers each colliding mass's force.
// CPU twin: src/cpu/mass_grid.rs (the grid) and src/cpu/collisions.rs (the pair force, the
// exclusions and the visiting order).
//
// The grid: cells `cell_of(p)` one collision diameter wide (plus a margin for f32 rounding),
// hashed into `buckets` buckets (a power of two, at least twice the colliding masses). Each
// bucket lists its colliding masses' slots (their index in `colliders`, which is in increasing
// mass index) in increasing order: grid_count counts per bucket (an atomic add, whose rank is
// kept), grid_scan and grid_scan_blocks turn the counts into starts, grid_scatter places each
// slot at its start plus rank, and grid_sort sorts each bucket (the ranks' order depends on the
// thread schedule; the sorted order does not). A mass then visits the 27 cells around its own
// in a fixed order, each cell's masses in increasing index: every bit of its sum depends only on
// the state, as on the CPU.

@group(0) @binding(0) var<uniform> collide_params: GpuCollide;
// `GpuMass` records, read as `Record`s (see shared/words_*.wgsl).
@group(0) @binding(1) var<storage, read> mass_table: array<Record>;
@group(0) @binding(2) var<storage, read> colliders: array<GpuCollider>;
// The spring neighbours of each colliding mass among the colliding masses: mass indices,
// `joined[c.joined_first..c.joined_end]` in increasing order for collider `c`.
@group(0) @binding(3) var<storage, read> joined: array<u32>;
// The interleaved state (see integrate.wgsl), at the start of the step.
@group(0) @binding(4) var<storage, read> state: array<State>;
// Per slot: its cell (xyz) and its rank in its bucket's count (w).
@group(0) @binding(5) var<storage, read_write> grid_cells: array<vec4<i32>>;
// Per bucket: the count (zeroed again by grid_scan once read).
@group(0) @binding(6) var<storage, read_write> grid_counts: array<atomic<u32>>;
// Per bucket: its start within its scan block; per scan block: its start (see `bucket_start`).
@group(0) @binding(7) var<storage, read_write> grid_starts: array<u32>;
@group(0) @binding(8) var<storage, read_write> grid_blocks: array<u32>;
// Slots, grouped by bucket, each bucket in increasing slot.
@group(0) @binding(9) var<storage, read_write> grid_entries: array<u32>;
// Per mass (by mass index), two vec4: (conservative force (N), penalty energy of its pairs with
// higher-index masses (J)) and (dissipative force (N), 0). Masses without a radius stay zero.
@group(0) @binding(10) var<storage, read_write> touch: array<vec4<f32>>;

// Mirror of `GpuCollide`: the pair force's parameters and the grid's size.
struct GpuCollide {
    // N/m, N*s/m, 1, s.
    stiffness: f32,
    damping: f32,
    friction: f32,
    dt: f32,
    // 1 / cell side, 1/m.
    inverse_cell: f32,
    // Colliding masses, and buckets (a power of two, a multiple of one scan block).
    members: u32,
    buckets: u32,
    pad0: u32,
}

// Mirror of `GpuCollider`: one colliding mass.
struct GpuCollider {
    mass: u32,
    // m.
    radius: f32,
    group: u32,
    mask: u32,
    // Its body when that body does not collide with itself, else NONE.
    body: u32,
    joined_first: u32,
    joined_end: u32,
    pad0: u32,
}

// Buckets per invocation of grid_scan: a scan block is WORKGROUP_SIZE * SCAN_ITEMS buckets.
const SCAN_ITEMS: u32 = 4u;

// Per invocation of a workgroup scan.
var<workgroup> scan_sums: array<u32, WORKGROUP_SIZE>;

// The inclusive prefix sum of `value` over the invocations of the workgroup (called by every
// invocation, in uniform control flow).
fn workgroup_scan(lid: u32, value: u32) -> u32 {
    scan_sums[lid] = value;
    workgroupBarrier();
    for (var offset = 1u; offset < WORKGROUP_SIZE; offset = offset * 2u) {
        var add = 0u;
        if lid >= offset {
            add = scan_sums[lid - offset];
        }
        workgroupBarrier();
        scan_sums[lid] = scan_sums[lid] + add;
        workgroupBarrier();
    }
    return scan_sums[lid];
}

// The item of invocation `lid` of workgroup `wg` (one item per invocation).
fn item(wg: vec3<u32>, groups: vec3<u32>, lid: u32) -> u32 {
    return workgroup_linear(wg, groups) * WORKGROUP_SIZE + lid;
}

// The cell holding p (m).
fn cell_of(p: vec3<f32>) -> vec3<i32> {
    return vec3<i32>(floor(p * collide_params.inverse_cell));
}

// The bucket of cell c.
fn bucket_of(c: vec3<i32>) -> u32 {
    let u = bitcast<vec3<u32>>(c);
    var h = (u.x * 0x9e3779b1u) ^ (u.y * 0x85ebca77u) ^ (u.z * 0xc2b2ae3du);
    h = h ^ (h >> 15u);
    return h & (collide_params.buckets - 1u);
}

// The first entry of bucket b (the number of entries for b = buckets).
fn bucket_start(b: u32) -> u32 {
    if b >= collide_params.buckets {
        return collide_params.members;
    }
    return grid_starts[b] + grid_blocks[b / (WORKGROUP_SIZE * SCAN_ITEMS)];
}

// The force on a mass of one touching pair, split as the integrate pass books it (N).
struct Pair {
    conservative: vec3<f32>,
    dissipative: vec3<f32>,
}

// The force on `a` of `b` for d = p_a - p_b (m, |d| < reach), relative velocity v = v_a - v_b
// (m/s), contact distance reach = r_a + r_b (m) and inverse = 1/m_a + 1/m_b (1/kg). Twin of
// `pair` in src/cpu/collisions.rs.
fn pair(reach: f32, d: vec3<f32>, v: vec3<f32>, inverse: f32) -> Pair {
    var out = Pair(vec3<f32>(0.0), vec3<f32>(0.0));
    let dist = length(d);
    if dist == 0.0 {
        return out;
    }
    let n = d / dist;
    let spring = collide_params.stiffness * (reach - dist);
    let vn = dot(v, n);
    let normal = max(spring - collide_params.damping * vn, 0.0);
    out.conservative = spring * n;
    out.dissipative = (normal - spring) * n;
    let vt = v - vn * n;
    let speed = length(vt);
    if collide_params.friction > 0.0 && speed > 0.0 && inverse > 0.0 {
        let stop = speed / (inverse * collide_params.dt);
        out.dissipative -= min(collide_params.friction * normal, stop) / speed * vt;
    }
    return out;
}

// What the collision pass reads of one mass.
struct Member {
    collider: GpuCollider,
    x: vec3<f32>,
    v: vec3<f32>,
    // 1/kg, 0 when fixed.
    inverse_mass: f32,
}

fn member(slot: u32) -> Member {
    let c = colliders[slot];
    let record = mass_table[c.mass];
    let props = words_mass(record_lo(record), record_hi(record));
    let st = state[c.mass];
    var inverse = 0.0;
    if (props.flags & MASS_FIXED) == 0u {
        inverse = 1.0 / props.mass;
    }
    return Member(c, state_position(st), state_velocity(st), inverse);
}

// Whether colliding masses a and b may touch (twin of `Collider::may_touch`): not both fixed,
// groups and masks that let them, not one body without self-collision, no spring between them.
fn may_touch(a: Member, b: Member) -> bool {
    if a.inverse_mass == 0.0 && b.inverse_mass == 0.0 {
        return false;
    }
    let ca = a.collider;
    let cb = b.collider;
    if (ca.group & cb.mask) == 0u || (cb.group & ca.mask) == 0u {
        return false;
    }
    if ca.body != NONE && ca.body == cb.body {
        return false;
    }
    for (var e = ca.joined_first; e < ca.joined_end; e += 1u) {
        let j = joined[e];
        if j >= cb.mass {
            return j != cb.mass;
        }
    }
    return true;
}

// The collision force on one mass, and the penalty energy of its pairs with higher-index masses.
struct Gathered {
    touch: Pair,
    energy: f32,
}

// The pair (me, other) if they touch: the force on `me`, computed with the lower mass index
// first so that the two masses get exact negatives (twin of `Collider::pair_of`).
fn pair_on(me: Member, other: Member) -> Pair {
    var a = me;
    var b = other;
    var sign = 1.0;
    if other.collider.mass < me.collider.mass {
        a = other;
        b = me;
        sign = -1.0;
    }
    let p = pair(a.collider.radius + b.collider.radius, a.x - b.x, a.v - b.v,
        a.inverse_mass + b.inverse_mass);
    return Pair(sign * p.conservative, sign * p.dissipative);
}

// Gathers the collision force on the mass of `slot`: the 27 cells around its own (z, then y,
// then x, from -1 to 1), each cell's masses in increasing index (twin of `collide_range`).
fn gather(slot: u32) -> Gathered {
    var out = Gathered(Pair(vec3<f32>(0.0), vec3<f32>(0.0)), 0.0);
    let me = member(slot);
    let home = grid_cells[slot].xyz;
    for (var dz = -1; dz <= 1; dz += 1) {
        for (var dy = -1; dy <= 1; dy += 1) {
            for (var dx = -1; dx <= 1; dx += 1) {
                let cell = home + vec3<i32>(dx, dy, dz);
                let b = bucket_of(cell);
                let end = bucket_start(b + 1u);
                for (var e = bucket_start(b); e < end; e += 1u) {
                    let other_slot = grid_entries[e];
                    if other_slot == slot || any(grid_cells[other_slot].xyz != cell) {
                        continue;
                    }
                    let c = colliders[other_slot];
                    let reach = me.collider.radius + c.radius;
                    let d = me.x - state_position(state[c.mass]);
                    if dot(d, d) >= reach * reach {
                        continue;
                    }
                    let other = member(other_slot);
                    if !may_touch(me, other) {
                        continue;
                    }
                    let f = pair_on(me, other);
                    out.touch.conservative += f.conservative;
                    out.touch.dissipative += f.dissipative;
                    if me.collider.mass < other.collider.mass {
                        let overlap = reach - length(d);
                        out.energy += 0.5 * collide_params.stiffness * overlap * overlap;
                    }
                }
            }
        }
    }
    return out;
}
