// hooke: contact surfaces, shared by `integrate` (contact and friction) and `energy_masses`
// (penalty energy). The Coulomb friction rule every surface uses (`friction`), the obstacle
// table's record (`GpuObstacle`), each shape's signed distance and outward normal, contact with
// one obstacle and with all of them, and their penalty energy. CPU twins: `friction` in
// src/cpu/integrate.rs; the rest in src/cpu/obstacles.rs, with the shapes' geometry in
// src/model/shape.rs and src/model/heightfield.rs.
//
// The shape tags (`const SHAPE_PLANE: u32 = 0u;`, ...) are generated in front of this file from
// the one Rust list of them (`shape_tags!` in src/gpu/obstacles.rs).
//
// A kernel that includes this declares `params: GpuParams`, `obstacle_table: array<GpuObstacle>`
// (OBSTACLES records) and `obstacle_words: array<u32>`: the broad-phase grid's list offsets
// (GRID_COLUMNS * GRID_ROWS + 2 words, the last list for masses outside the grid), its lists
// of obstacle indices, then every heightfield's samples (f32 bits), one after another.

// Mirror of `GpuObstacle`: one obstacle, its contact, friction, geometry and bounds.
struct GpuObstacle {
    // SHAPE_* tag.
    shape: u32,
    // CONTACT_* tag.
    contact: u32,
    // FRICTION_NAIVE or not.
    friction_rule: u32,
    // Heightfield: index of its sample (0, 0) in `obstacle_words`.
    first_height: u32,
    // Penalty stiffness, N/m, and normal damping, N*s/m.
    stiffness: Real,
    damping: Real,
    // Coefficient of restitution.
    restitution: Real,
    // Friction's rest speed, m/s.
    rest_speed: Real,
    static_friction: Real,
    kinetic_friction: Real,
    // Heightfield: samples along x and y.
    columns: u32,
    rows: u32,
    // Plane: (unit normal, offset m); box, oriented box, sphere: (centre m, radius m); capsule:
    // (end a m, radius m); heightfield: (origin m, 0).
    a: vec4<Real>,
    // Box, oriented box: (half extents m, 0); capsule: (end b m, 0); heightfield: (spacing x,
    // spacing y m, 0, 0).
    b: vec4<Real>,
    // Oriented box: unit quaternion (x, y, z, w) turning the box's axes to the world's.
    rotation: vec4<Real>,
    // Bounds (m): a mass outside [lo, hi] does not touch the obstacle (the broad phase).
    lo: vec4<Real>,
    hi: vec4<Real>,
}

// Where a point is relative to a surface: `found` is false where the shape has no surface (a
// heightfield outside its rectangle).
struct Surface {
    found: bool,
    // Signed distance, m (negative inside).
    distance: Real,
    // Outward unit normal.
    normal: vec3<Real>,
}

// A surface's force on a mass, N.
struct Ground {
    // Conservative part (the penalty spring).
    conservative: vec3<Real>,
    // Everything else: contact damping, restitution, friction.
    dissipative: vec3<Real>,
    // The normal force alone (the contact without friction), N: what the sensors read.
    normal: vec3<Real>,
    // Whether a surface touched the mass.
    touching: bool,
}

fn no_ground() -> Ground {
    return Ground(vec3<Real>(0.0), vec3<Real>(0.0), vec3<Real>(0.0), false);
}

// The friction force (N) of a surface pressing with normal force `normal` (N) on a mass of m kg
// with tangential velocity vt (m/s) under the tangential part ft (N) of every other force, with
// coefficients mu_s, mu_k, the rule `rule` and rest speed `rest_speed` (m/s). Twin of
// `cpu::integrate::friction`.
fn friction(
    rule: u32, rest_speed: Real, mu_s: Real, mu_k: Real, normal: Real, m: Real, vt: vec3<Real>,
    ft: vec3<Real>,
) -> vec3<Real> {
    let f_stop = -(m * vt / params.dt + ft);
    let stop = length(f_stop);
    let speed = length(vt);
    let mu_k_n = mu_k * normal;
    if rule == FRICTION_NAIVE {
        // The benchmark scene's rule: kinetic only, unclamped (it can reverse the mass).
        if speed > rest_speed {
            return -mu_k_n * vt / speed;
        }
        return vec3<Real>(0.0);
    }
    if speed > rest_speed {
        if stop <= mu_k_n {
            return f_stop;
        }
        return -mu_k_n * vt / speed;
    }
    if stop <= mu_s * normal {
        return f_stop;
    }
    return mu_k_n * f_stop / stop;
}

fn no_surface() -> Surface {
    return Surface(false, 0.0, vec3<Real>(0.0, 0.0, 1.0));
}

// `v` turned by the unit quaternion `q`.
fn rotate(q: vec4<Real>, v: vec3<Real>) -> vec3<Real> {
    let t = 2.0 * cross(q.xyz, v);
    return v + q.w * t + cross(q.xyz, t);
}

// Box of half extents h at the origin, at local point p; inside, the nearest face wins, on a tie
// the later axis (z before y before x). Twin of `box_surface` in src/model/shape.rs.
fn box_surface(h: vec3<Real>, p: vec3<Real>) -> Surface {
    let q = abs(p) - h;
    let s = select(vec3<Real>(1.0), vec3<Real>(-1.0), p < vec3<Real>(0.0));
    if max(q.x, max(q.y, q.z)) > 0.0 {
        let d = max(q, vec3<Real>(0.0));
        let distance = length(d);
        return Surface(true, distance, s * d / distance);
    }
    var axis = vec3<Real>(1.0, 0.0, 0.0);
    var distance = q.x;
    if q.y >= distance {
        axis = vec3<Real>(0.0, 1.0, 0.0);
        distance = q.y;
    }
    if q.z >= distance {
        axis = vec3<Real>(0.0, 0.0, 1.0);
        distance = q.z;
    }
    return Surface(true, distance, s * axis);
}

// Ball of `radius` about `centre`; at the centre itself the normal is +z.
fn sphere_surface(centre: vec3<Real>, radius: Real, x: vec3<Real>) -> Surface {
    let p = x - centre;
    let l = length(p);
    var normal = vec3<Real>(0.0, 0.0, 1.0);
    if l > 0.0 {
        normal = p / l;
    }
    return Surface(true, l - radius, normal);
}

// The point of the segment a-b closest to x.
fn segment_closest(a: vec3<Real>, b: vec3<Real>, x: vec3<Real>) -> vec3<Real> {
    let ab = b - a;
    let len2 = dot(ab, ab);
    if len2 == 0.0 {
        return a;
    }
    return a + clamp(dot(x - a, ab) / len2, 0.0, 1.0) * ab;
}

// Heightfield obstacle `k` at x: height above the bilinear patch times the normal's z, normal
// from the patch's gradient. Twin of `Heightfield::patch` and `Heightfield::surface`.
// Sample `at` of the heightfield whose samples start at word `first` of `obstacle_words`, m:
// REAL_WORDS words per sample (f32 bits, or f64 bits low word first).
fn height_sample(first: u32, at: u32) -> Real {
    let w = first + at * REAL_WORDS;
    return real_of_words(obstacle_words[w], obstacle_words[w + REAL_WORDS - 1u]);
}

fn heightfield_surface(k: u32, x: vec3<Real>) -> Surface {
    let origin = obstacle_table[k].a.xyz;
    let spacing = obstacle_table[k].b.xy;
    let columns = obstacle_table[k].columns;
    let rows = obstacle_table[k].rows;
    let u = (x.x - origin.x) / spacing.x;
    let v = (x.y - origin.y) / spacing.y;
    if !(u >= 0.0 && u <= Real(columns - 1u) && v >= 0.0 && v <= Real(rows - 1u)) {
        return no_surface();
    }
    let i = min(u32(floor(u)), columns - 2u);
    let j = min(u32(floor(v)), rows - 2u);
    let s = u - Real(i);
    let t = v - Real(j);
    let first = obstacle_table[k].first_height;
    let at = j * columns + i;
    let h00 = height_sample(first, at);
    let h10 = height_sample(first, at + 1u);
    let h01 = height_sample(first, at + columns);
    let h11 = height_sample(first, at + columns + 1u);
    let height = (1.0 - t) * ((1.0 - s) * h00 + s * h10) + t * ((1.0 - s) * h01 + s * h11);
    let gx = ((1.0 - t) * (h10 - h00) + t * (h11 - h01)) / spacing.x;
    let gy = ((1.0 - s) * (h01 - h00) + s * (h11 - h10)) / spacing.y;
    let normal = normalize(vec3<Real>(-gx, -gy, 1.0));
    return Surface(true, (x.z - (origin.z + height)) * normal.z, normal);
}

// Signed distance and outward normal of obstacle `k` at x (m). Twin of `Shape::surface`.
// Each shape reads only its own fields of the record (member loads, not the whole record).
fn surface(k: u32, x: vec3<Real>) -> Surface {
    let shape = obstacle_table[k].shape;
    if shape == SHAPE_PLANE {
        let a = obstacle_table[k].a;
        return Surface(true, dot(a.xyz, x) - a.w, a.xyz);
    } else if shape == SHAPE_BOX {
        return box_surface(obstacle_table[k].b.xyz, x - obstacle_table[k].a.xyz);
    } else if shape == SHAPE_ORIENTED_BOX {
        let q = obstacle_table[k].rotation;
        let inverse = vec4<Real>(-q.xyz, q.w);
        let local = box_surface(obstacle_table[k].b.xyz,
            rotate(inverse, x - obstacle_table[k].a.xyz));
        return Surface(true, local.distance, rotate(q, local.normal));
    } else if shape == SHAPE_SPHERE {
        let a = obstacle_table[k].a;
        return sphere_surface(a.xyz, a.w, x);
    } else if shape == SHAPE_CAPSULE {
        let a = obstacle_table[k].a;
        return sphere_surface(segment_closest(a.xyz, obstacle_table[k].b.xyz, x), a.w, x);
    }
    return heightfield_surface(k, x);
}

// The list of obstacles a mass at x (m) visits: (first, end) word of its grid cell's list, or
// outside the grid the list of unbounded obstacles. Twin of `ObstacleGrid::list`.
fn grid_list(x: vec3<Real>) -> vec2<u32> {
    let u = floor((x.x - GRID_ORIGIN_X) * GRID_INVERSE_CELL);
    let v = floor((x.y - GRID_ORIGIN_Y) * GRID_INVERSE_CELL);
    var c = GRID_COLUMNS * GRID_ROWS;
    if u >= 0.0 && u < Real(GRID_COLUMNS) && v >= 0.0 && v < Real(GRID_ROWS) {
        c = u32(v) * GRID_COLUMNS + u32(u);
    }
    return vec2<u32>(obstacle_words[c], obstacle_words[c + 1u]);
}

// Whether x (m) is within the bounds of obstacle `k` (where it may touch it): the broad phase,
// 32 bytes read per mass and obstacle.
fn near(k: u32, x: vec3<Real>) -> bool {
    return all(x >= obstacle_table[k].lo.xyz) && all(x <= obstacle_table[k].hi.xyz);
}

// What the surfaces before an obstacle leave for it, N: the net force of everything else on the
// mass, and the contact and friction forces of the surfaces before alone. Twin of `Before`.
struct Before {
    net: vec3<Real>,
    touch: vec3<Real>,
}

// The force of obstacle `k` on a mass of m kg at x (m) moving at v (m/s), given `before`;
// `oscillated` replaces the obstacle's friction coefficients by `mu`. `found` false when it does
// not touch. Twin of `cpu::obstacles::obstacle`.
struct Touch {
    found: bool,
    force: Ground,
}

fn obstacle(k: u32, oscillated: bool, mu: Real, m: Real, x: vec3<Real>, v: vec3<Real>,
    before: Before) -> Touch {
    var out = Touch(false, no_ground());
    let sf = surface(k, x);
    // Contact is d < 0 (penalty) or d <= 0 (restitution): read the rest of the record only then.
    if !sf.found || sf.distance > 0.0 {
        return out;
    }
    let ob = obstacle_table[k];
    let d = sf.distance;
    let n = sf.normal;
    let vn = dot(v, n);
    let f = before.net;
    let fn_ = dot(f, n);
    var normal: Real = 0.0;
    if ob.contact == CONTACT_PENALTY {
        if d >= 0.0 {
            return out;
        }
        let spring = -ob.stiffness * d;
        normal = max(spring - ob.damping * vn, 0.0);
        out.force.conservative = spring * n;
        out.force.dissipative = (normal - spring) * n;
        out.force.normal = normal * n;
    } else if ob.contact == CONTACT_RESTITUTION {
        if d > 0.0 {
            return out;
        }
        normal = max(-fn_, 0.0);
        let u = vn + dot(before.touch, n) * params.dt / m;
        var impulse: Real = 0.0;
        if u < 0.0 {
            impulse = -m * (1.0 + ob.restitution) * u / params.dt;
        }
        out.force.dissipative = (normal + impulse) * n;
        out.force.normal = out.force.dissipative;
    } else {
        return out;
    }
    var mu_s = ob.static_friction;
    var mu_k = ob.kinetic_friction;
    if oscillated {
        mu_s = mu;
        mu_k = mu;
    }
    let vt = v - vn * n;
    let ft = f - fn_ * n;
    out.force.dissipative += friction(ob.friction_rule, ob.rest_speed, mu_s, mu_k, normal, m, vt,
        ft);
    out.found = true;
    return out;
}

// Adds the contact and friction of every obstacle to `g`, the ground's force on a mass of m kg
// at x (m) moving at v (m/s) under the non-contact force f (N); `drag` (N) is the air drag,
// not in `g`. Twin of `MassPass::obstacles`.
fn obstacles(oscillated: bool, mu: Real, m: Real, x: vec3<Real>, v: vec3<Real>, f: vec3<Real>,
    drag: vec3<Real>, ground: Ground) -> Ground {
    var g = ground;
    var touch = g.conservative + g.dissipative;
    // The obstacles of the mass's grid cell, in model order, each tested against its bounds.
    let list = grid_list(x);
    for (var i = list.x; i < list.y; i += 1u) {
        let k = obstacle_words[i];
        if near(k, x) {
            let net = f + g.conservative + drag + g.dissipative;
            let c = obstacle(k, oscillated, mu, m, x, v, Before(net, touch));
            if c.found {
                g.conservative += c.force.conservative;
                g.dissipative += c.force.dissipative;
                g.normal += c.force.normal;
                g.touching = true;
                touch += c.force.conservative + c.force.dissipative;
            }
        }
    }
    return g;
}

// Energy stored in the penalty springs of the obstacles a mass at x (m) is inside, J. Twin of
// `cpu::obstacles::obstacle_energy`.
fn obstacle_energy(x: vec3<Real>) -> Real {
    var e: Real = 0.0;
    let list = grid_list(x);
    for (var i = list.x; i < list.y; i += 1u) {
        let k = obstacle_words[i];
        if obstacle_table[k].contact == CONTACT_PENALTY && near(k, x) {
            let sf = surface(k, x);
            if sf.found && sf.distance < 0.0 {
                e += 0.5 * obstacle_table[k].stiffness * sf.distance * sf.distance;
            }
        }
    }
    return e;
}
