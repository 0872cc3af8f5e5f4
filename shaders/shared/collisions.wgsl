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
// The spring neighbours of higher index of each colliding mass among the colliding masses:
// mass indices, `joined[c.joined_first..c.joined_end]` in increasing order for collider `c`.
@group(0) @binding(3) var<storage, read> joined: array<u32>;
// The interleaved state (see integrate.wgsl), at the start of the step.
@group(0) @binding(4) var<storage, read> state: array<State>;
// Per slot: its cell (xyz), and its rank in its bucket's count (w) until grid_sort replaces it
// with the slot's entry in the grid.
@group(0) @binding(5) var<storage, read_write> grid_cells: array<vec4<i32>>;
// Per bucket: the count (zeroed again by grid_scan once read); then the box of occupied cells
// (BOX_WORDS words from `buckets`, see `Frame`).
@group(0) @binding(6) var<storage, read_write> grid_counts: array<atomic<u32>>;
// Per bucket its start within its scan block, then per scan block its start (`bucket_start`).
@group(0) @binding(7) var<storage, read_write> grid_starts: array<u32>;
// Per entry (the slots grouped by bucket, each bucket in increasing slot): the slot's cell (xyz)
// and the slot (w), and its position (xyz, m) and radius (w, m), so that the gather reads the
// candidates of a cell from contiguous memory.
@group(0) @binding(8) var<storage, read_write> grid_keys: array<vec4<i32>>;
@group(0) @binding(9) var<storage, read_write> grid_points: array<vec4<Real>>;
// Per mass (by mass index), two vec4: (conservative force (N), penalty energy of its pairs with
// higher-index masses (J)) and (dissipative force (N), 0). Masses without a radius stay zero.
@group(0) @binding(10) var<storage, read_write> touch: array<vec4<Real>>;
// The pair force of each pair of collision classes a, b at [a * COLLISION_CLASSES + b]:
// (stiffness (N/m), damping (N*s/m), friction coefficient, 0).
@group(0) @binding(11) var<uniform> pair_table: array<vec4<Real>, PAIR_TABLE>;

// Mirror of `GpuCollide`: the time step and the grid's size.
struct GpuCollide {
    // s.
    dt: Real,
    // 1 / cell side, 1/m.
    inverse_cell: Real,
    // Colliding masses, and buckets (a power of two, a multiple of one scan block).
    members: u32,
    buckets: u32,
    // The largest collision radius, m.
    largest: Real,
    pad0: u32,
    pad1: u32,
    pad2: u32,
}

// Mirror of `GpuCollider`: one colliding mass.
struct GpuCollider {
    mass: u32,
    // m.
    radius: Real,
    group: u32,
    mask: u32,
    // Its body when that body does not collide with itself, else NONE.
    body: u32,
    joined_first: u32,
    joined_end: u32,
    // Its collision class (below COLLISION_CLASSES).
    collision_class: u32,
}

// Buckets per invocation of grid_scan: a scan block is WORKGROUP_SIZE * SCAN_ITEMS buckets
// (Rust: `collisions::SCAN_ITEMS`; a unit test holds the two equal, as for the next two).
const SCAN_ITEMS: u32 = 4u;
// Collision classes (Rust: `COLLISION_CLASSES`), and entries of the pair table.
const COLLISION_CLASSES: u32 = 16u;
const PAIR_TABLE: u32 = 256u;

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
fn cell_of(p: vec3<Real>) -> vec3<i32> {
    return vec3<i32>(floor(p * collide_params.inverse_cell));
}

// The box words after the bucket counts: the occupied cells' lowest and highest coordinates
// (grid_bounds, atomic min and max; coordinates stored as `order(c)` so that unsigned order is
// signed order), then the frame grid_frame froze for this step: the box's lowest cell minus one
// (`order`ed), whether the cells are numbered densely, and the box's size along x and y.
const BOX_MIN: u32 = 0u;
const BOX_MAX: u32 = 3u;
const FRAME_LO: u32 = 6u;
const FRAME_DENSE: u32 = 9u;
const FRAME_NX: u32 = 10u;
const FRAME_NY: u32 = 11u;
const BOX_WORDS: u32 = 12u;

// i32 to u32, keeping the order.
fn order(c: i32) -> u32 {
    return bitcast<u32>(c) ^ 0x80000000u;
}

fn unorder(u: u32) -> i32 {
    return bitcast<i32>(u ^ 0x80000000u);
}

fn box_word(w: u32) -> u32 {
    return atomicLoad(&grid_counts[collide_params.buckets + w]);
}

// How cells are numbered this step: densely in the box of occupied cells padded by one cell (so
// the 27 cells around any occupied one are in it) when that box has no more cells than buckets,
// x fastest; else hashed.
struct Frame {
    lo: vec3<i32>,
    dense: bool,
    nx: u32,
    ny: u32,
}

fn frame() -> Frame {
    let lo = vec3<i32>(unorder(box_word(FRAME_LO)), unorder(box_word(FRAME_LO + 1u)),
        unorder(box_word(FRAME_LO + 2u)));
    return Frame(lo, box_word(FRAME_DENSE) != 0u, box_word(FRAME_NX), box_word(FRAME_NY));
}

// The bucket of cell c: its number in the padded box when dense (no two cells share a bucket);
// else a hash of (y, z) plus x, so that the three cells of a row along x still sit in
// consecutive buckets unless the row wraps around the table. Either way a row of three cells is
// read as one range by `gather`.
fn bucket_of(f: Frame, c: vec3<i32>) -> u32 {
    if f.dense {
        let r = bitcast<vec3<u32>>(c - f.lo);
        return (r.z * f.ny + r.y) * f.nx + r.x;
    }
    let u = bitcast<vec3<u32>>(c);
    var h = (u.y * 0x85ebca77u) ^ (u.z * 0xc2b2ae3du);
    h = h ^ (h >> 15u);
    return (h + u.x) & (collide_params.buckets - 1u);
}

// The first entry of bucket b (the number of entries for b = buckets).
fn bucket_start(b: u32) -> u32 {
    if b >= collide_params.buckets {
        return collide_params.members;
    }
    return grid_starts[b] + grid_starts[collide_params.buckets + b / (WORKGROUP_SIZE * SCAN_ITEMS)];
}

// The force on a mass of one touching pair, split as the integrate pass books it (N).
struct Pair {
    conservative: vec3<Real>,
    dissipative: vec3<Real>,
}

// The force on `a` of `b` under the pair force `c` (stiffness, damping, friction, 0) for
// d = p_a - p_b (m, |d| < reach), relative velocity v = v_a - v_b (m/s), contact distance
// reach = r_a + r_b (m) and inverse = 1/m_a + 1/m_b (1/kg). Twin of `pair` in
// src/cpu/collisions.rs.
fn pair(c: vec4<Real>, reach: Real, d: vec3<Real>, v: vec3<Real>, inverse: Real) -> Pair {
    var out = Pair(vec3<Real>(0.0), vec3<Real>(0.0));
    let dist = length(d);
    if dist == 0.0 {
        return out;
    }
    let n = d / dist;
    let spring = c.x * (reach - dist);
    let vn = dot(v, n);
    let normal = max(spring - c.y * vn, 0.0);
    out.conservative = spring * n;
    out.dissipative = (normal - spring) * n;
    let vt = v - vn * n;
    let speed = length(vt);
    if c.z > 0.0 && speed > 0.0 && inverse > 0.0 {
        let stop = speed / (inverse * collide_params.dt);
        out.dissipative -= min(c.z * normal, stop) / speed * vt;
    }
    return out;
}

// What the collision pass reads of one mass.
struct Member {
    collider: GpuCollider,
    x: vec3<Real>,
    v: vec3<Real>,
    // 1/kg, 0 when fixed.
    inverse_mass: Real,
}

fn member(slot: u32) -> Member {
    let c = colliders[slot];
    let record = mass_table[c.mass];
    let props = words_mass(record_lo(record), record_hi(record));
    let st = state[c.mass];
    var inverse: Real = 0.0;
    if (props.flags & MASS_FIXED) == 0u {
        inverse = 1.0 / props.mass;
    }
    return Member(c, state_position(st), state_velocity(st), inverse);
}

// Whether colliders a and b may touch by their filters (twin of the filter part of
// `Collider::may_touch`): groups and masks that let them, not one body without self-collision,
// no spring between them (a binary search of the lower-index mass's sorted spring neighbours
// of higher index).
fn allowed(a: GpuCollider, b: GpuCollider) -> bool {
    if (a.group & b.mask) == 0u || (b.group & a.mask) == 0u {
        return false;
    }
    if a.body != NONE && a.body == b.body {
        return false;
    }
    var low = a;
    var high = b.mass;
    if b.mass < a.mass {
        low = b;
        high = a.mass;
    }
    var lo = low.joined_first;
    var hi = low.joined_end;
    while lo < hi {
        let mid = (lo + hi) / 2u;
        if joined[mid] < high {
            lo = mid + 1u;
        } else {
            hi = mid;
        }
    }
    return lo == low.joined_end || joined[lo] != high;
}

// The pair force between colliders a and b, by their classes.
fn pair_of(a: GpuCollider, b: GpuCollider) -> vec4<Real> {
    return pair_table[a.collision_class * COLLISION_CLASSES + b.collision_class];
}

// The collision force on one mass, and the penalty energy of its pairs with higher-index masses.
struct Gathered {
    touch: Pair,
    energy: Real,
}

// The pair (me, other), touching: the force on `me`, computed with the lower mass index first so
// that the two masses get exact negatives (twin of `Collider::pair_of`).
fn pair_on(me: Member, other: Member) -> Pair {
    var a = me;
    var b = other;
    var sign: Real = 1.0;
    if other.collider.mass < me.collider.mass {
        a = other;
        b = me;
        sign = -1.0;
    }
    let p = pair(pair_of(a.collider, b.collider), a.collider.radius + b.collider.radius,
        a.x - b.x, a.v - b.v, a.inverse_mass + b.inverse_mass);
    return Pair(sign * p.conservative, sign * p.dissipative);
}

// What entry e of the grid, a candidate within reach of `me`, adds to it: nothing unless they
// may touch.
fn candidate(me: Member, e: u32) -> Gathered {
    var out = Gathered(Pair(vec3<Real>(0.0), vec3<Real>(0.0)), 0.0);
    let slot = u32(grid_keys[e].w);
    if !allowed(me.collider, colliders[slot]) {
        return out;
    }
    let other = member(slot);
    if me.inverse_mass == 0.0 && other.inverse_mass == 0.0 {
        return out;
    }
    out.touch = pair_on(me, other);
    if me.collider.mass < other.collider.mass {
        let d = me.x - other.x;
        let overlap = me.collider.radius + other.collider.radius - length(d);
        out.energy = 0.5 * pair_of(me.collider, other.collider).x * overlap * overlap;
    }
    return out;
}

fn add(a: Gathered, b: Gathered) -> Gathered {
    return Gathered(Pair(a.touch.conservative + b.touch.conservative,
        a.touch.dissipative + b.touch.dissipative), a.energy + b.energy);
}

// Candidates within reach kept by `gather` before it evaluates them: the cheap distance test
// runs over every entry of the 27 cells, the exclusions and the pair force only over these (on
// SIMD hardware, lanes then take the expensive path together instead of whenever any lane
// needs it). When full it is evaluated and emptied, so any number of contacts is handled.
const HITS: u32 = 16u;

// The entries within reach of `me`, in visiting order, and how many.
struct Hits {
    entries: array<u32, HITS>,
    count: u32,
}

// Evaluates the kept candidates in order into `out`, and empties the list.
fn flush(me: Member, hits: ptr<function, Hits>, out: ptr<function, Gathered>) {
    for (var h = 0u; h < (*hits).count; h += 1u) {
        *out = add(*out, candidate(me, (*hits).entries[h]));
    }
    (*hits).count = 0u;
}

// Keeps entry e if it is within reach of `me` (the CPU's `d^2 >= reach^2` test, on the same
// f32 values the pair force will use).
fn keep(me: Member, e: u32, hits: ptr<function, Hits>, out: ptr<function, Gathered>) {
    let point = grid_points[e];
    let reach = me.collider.radius + point.w;
    let d = me.x - point.xyz;
    if dot(d, d) < reach * reach {
        (*hits).entries[(*hits).count] = e;
        (*hits).count += 1u;
        if (*hits).count == HITS {
            flush(me, hits, out);
        }
    }
}

// Gathers the collision force on the mass of `slot`: the 27 cells around its own (z, then y,
// then x, from -1 to 1), each cell's masses in increasing index (twin of `collide_range`). The
// three cells of a row along x are three consecutive buckets (see `bucket_of`), read as one
// range whose entries are those cells' masses in that order (once filtered by their cell when
// hashed); a hashed row that wraps around the table is read cell by cell.
fn gather(slot: u32) -> Gathered {
    var out = Gathered(Pair(vec3<Real>(0.0), vec3<Real>(0.0)), 0.0);
    var hits = Hits(array<u32, HITS>(), 0u);
    let me = member(slot);
    let mine = grid_cells[slot];
    let home = mine.xyz;
    let f = frame();
    let last = collide_params.buckets - 1u;
    // Which neighbouring cells can hold a mass within reach (r_me + the largest radius) along
    // each axis: the lower one only when the mass is that close to its cell's lower face, the
    // upper likewise. A cell left out holds no mass within reach, so the sum is unchanged (the
    // same terms in the same order). The margin (1/64 cell) covers the f32 rounding of the
    // position in cell units below 2^17 cells from the origin (see `cell_of`).
    let at = me.x * collide_params.inverse_cell - vec3<Real>(home);
    let reach = (me.collider.radius + collide_params.largest) * collide_params.inverse_cell
        + 1.0 / 64.0;
    let lower = vec3<i32>(at < vec3<Real>(reach));
    let upper = vec3<i32>(vec3<Real>(1.0) - at < vec3<Real>(reach));
    for (var dz = -lower.z; dz <= upper.z; dz += 1) {
        for (var dy = -lower.y; dy <= upper.y; dy += 1) {
            let row = home + vec3<i32>(-lower.x, dy, dz);
            let cells = u32(lower.x + upper.x);
            let first = bucket_of(f, row);
            if f.dense {
                // The range holds exactly the row's cells: no cell test.
                let end = bucket_start(first + cells + 1u);
                for (var e = bucket_start(first); e < end; e += 1u) {
                    if e != u32(mine.w) {
                        keep(me, e, &hits, &out);
                    }
                }
                continue;
            }
            if first + cells <= last {
                let end = bucket_start(first + cells + 1u);
                for (var e = bucket_start(first); e < end; e += 1u) {
                    let key = grid_keys[e];
                    let dx = key.x - row.x;
                    if all(key.yz == row.yz) && dx >= 0 && dx <= i32(cells)
                        && u32(key.w) != slot {
                        keep(me, e, &hits, &out);
                    }
                }
                continue;
            }
            for (var dx = 0; dx <= i32(cells); dx += 1) {
                let cell = row + vec3<i32>(dx, 0, 0);
                let b = bucket_of(f, cell);
                let end = bucket_start(b + 1u);
                for (var e = bucket_start(b); e < end; e += 1u) {
                    let key = grid_keys[e];
                    if all(key.xyz == cell) && u32(key.w) != slot {
                        keep(me, e, &hits, &out);
                    }
                }
            }
        }
    }
    flush(me, &hits, &out);
    return out;
}
