// hooke: declarations shared by every kernel (the first fragment of each, see `KERNELS` in
// src/gpu/kernel.rs). The Rust side prepends one line, `alias Fixed = i32;` or
// `alias Fixed = i64;`, before this file, and passes every `override` below through
// `PipelineCompilationOptions::constants` (see `constants` in src/gpu/layout/mod.rs): no number
// shared with Rust is written here. Every `Gpu*` struct mirrors the Rust struct of the same name
// in src/gpu/layout/mod.rs (sizes and field offsets are checked by a unit test).

// Invocations per workgroup (a power of two).
override WORKGROUP_SIZE: u32;
// Masses whose springs one invocation of the spring pass (and of `energy_springs`) handles.
override SPRING_MASSES_PER_INVOCATION: u32;
// Invocations that walk neighbouring masses side by side (the SIMD width of CPU adapters; a
// power of two).
override LANE_GROUP: u32;
// Consecutive masses one invocation of the integrate pass (and of `energy_masses`) handles.
override MASSES_PER_INVOCATION: u32;
// Fixed-point scale: a force of f newtons is stored as round(f * FIXED_SCALE) (ties to even).
override FIXED_SCALE: Real;
// Largest force component (N) one spring may scatter without risking overflow of a mass's sum.
override SPRING_FORCE_LIMIT: Real;
// Whether 32-bit force sums are packed in 64-bit atomics (see scatter_packed.wgsl).
override PACKED_FORCES: bool;
// Whether the kernels book dissipated and injected energy.
override TRACK_ENERGY: bool;
// Specialisation to the model (the pipelines are built per World): when every spring shares one
// material it is compiled in (no material-table read per spring); without actuators the actuated
// branch is compiled out.
override UNIFORM_MATERIAL: bool;
override MATERIAL_STIFFNESS: Real;
override MATERIAL_DAMPING: Real;
override MATERIAL_LAW: u32;
override HAS_ACTUATORS: bool;
// Whether any actuator is commanded: without, the spring pass never reads the commands buffer.
override HAS_COMMANDS: bool;
// Without friction oscillators the integrate pass compiles their branch out.
override HAS_OSCILLATORS: bool;
// Number of obstacles in the obstacle table (0: the contact passes skip them entirely).
override OBSTACLES: u32;
// Whether any mass has a collision radius (the collision kernels run, and the integrate and
// energy passes read their output).
override COLLISIONS: bool;
// Whether `integrate` records each mass's contact for the sensors (turned on, and the pipeline
// rebuilt, the first time a sensor asks for contacts).
override CONTACTS: bool;
// f32 words of one body's sums in the sensor kernels' output (shared/sense.wgsl).
override SENSE_BODY_WORDS: u32;
// The obstacles' broad-phase grid (`ObstacleGrid`): origin (m), 1 / cell side (1/m), cells.
override GRID_ORIGIN_X: Real;
override GRID_ORIGIN_Y: Real;
override GRID_INVERSE_CELL: Real;
override GRID_COLUMNS: u32;
override GRID_ROWS: u32;
// Bit flags and tags.
override MASS_FIXED: u32;
override LINK_ACTUATED: u32;
override LAW_HOOKE: u32;
override LAW_MATERIAL: u32;
override LAW_ZERO_LENGTH: u32;
override CONTACT_NONE: u32;
override CONTACT_PENALTY: u32;
override CONTACT_RESTITUTION: u32;
override FRICTION_NAIVE: u32;
// The part of the blow-up speed limit that keeps rounding noise from counting, m/s.
override BLOW_UP_FLOOR_SPEED: Real;
override INTEGRATOR_SEMI_IMPLICIT: u32;
override NONE: u32;

// Mirror of `GpuParams`.
struct GpuParams {
    gravity: vec3<Real>,
    dt: Real,
    drag_target: vec3<Real>,
    drag_mass: u32,
    drag_stiffness: Real,
    drag_damping: Real,
    air_drag: Real,
    damping_factor: Real,
    contact: u32,
    contact_stiffness: Real,
    contact_damping: Real,
    restitution: Real,
    static_friction: Real,
    kinetic_friction: Real,
    rest_speed: Real,
    integrator: u32,
    masses: u32,
    springs: u32,
    bodies: u32,
    // FRICTION_NAIVE or not (Coulomb with static friction and clamp).
    friction_rule: u32,
}

// Mirror of `GpuStep`: one per step, bound with a dynamic offset.
struct GpuStep {
    // Simulation time at the start of the step, s.
    time: Real,
    // 1-based index of the step within the current `World::step` call.
    index: u32,
    // The blow-up bound (src/model/speed_limit.rs): a mass of m kg is over it after this step
    // when |v| > BLOW_UP_FLOOR_SPEED + sqrt(2 speed_energy / m) + speed_growth (time + dt).
    speed_energy: Real,
    speed_growth: Real,
}

// Mirror of `GpuMass`.
struct GpuMass {
    external_force: vec3<Real>,
    mass: Real,
    flags: u32,
    oscillator: u32,
    body: u32,
    pad0: u32,
}

// Mirror of `GpuLink`: 8 bytes per spring. The link table stores the springs grouped by their
// first mass `a` (not repeated here): links `runs[a].x..runs[a].y` are a's springs.
struct GpuLink {
    // The second mass, or'ed with LINK_ACTUATED.
    b: u32,
    // Rest length (f32 bits, m), or the actuator index when `b & LINK_ACTUATED`.
    rest: u32,
}

// Mirror of `GpuChunk`: which masses, and which part of the link table, a spring-pass dispatch
// covers (the table is bound in chunks that fit the device's storage-binding limit).
struct GpuChunk {
    // Link-table index of the first bound link.
    first: u32,
    // First mass whose springs this dispatch handles, and one past the last.
    first_mass: u32,
    end_mass: u32,
    pad0: u32,
}

// Mirror of `GpuMaterial`.
struct GpuMaterial {
    stiffness: Real,
    damping: Real,
    law: u32,
    pad0: u32,
}

// Mirror of `GpuActuator`.
struct GpuActuator {
    base: Real,
    amplitude: Real,
    omega: Real,
    // 2 pi phase, rad.
    phase: Real,
    // Duty cycle active time (s); 0 when the actuator has no duty cycle.
    duty_active: Real,
    duty_rest: Real,
    duty_offset: Real,
    // Index into `commands` of a commanded actuator, NONE for a sine one.
    command: u32,
    // The rest length (m) set by the last step, for energy booking.
    current: Real,
}

// Mirror of `GpuOscillator`.
struct GpuOscillator {
    min: Real,
    max: Real,
    omega: Real,
    phase: Real,
}

// Mirror of `GpuBody`.
struct GpuBody {
    first: u32,
    count: u32,
}

// Mirror of `GpuStatus`: what the step kernels report, NONE (u32::MAX) where nothing is.
struct GpuStatus {
    // Lowest step index (1-based within one `World::step` round) whose state became non-finite,
    // and the lowest mass that did in that step.
    bad_step: atomic<u32>,
    bad_mass: atomic<u32>,
    // Lowest step index whose spring pass passed the fixed-point bound, and the lowest overflow
    // code (link index, or stencil slot code) in that step.
    overflow_step: atomic<u32>,
    overflow_spring: atomic<u32>,
}

// Mirror of `GpuState`: a mass's state, 32 bytes (64 in f64), position (m) then velocity (m/s).
// The kernels read it through the `State` alias of words_*.wgsl, which has this layout.
struct GpuState {
    position: array<Real, 3>,
    velocity: array<Real, 3>,
    pad0: Real,
    pad1: Real,
}

// The j-th item (0 <= j < per) of invocation `lid` of workgroup `group`, when each invocation
// handles `per` items. Lanes come in groups of LANE_GROUP consecutive invocations (the SIMD width
// of CPU adapters, which run such a group in lockstep): the lanes of a group take neighbouring
// items, and the group walks its block of LANE_GROUP * per items in order, so the data a lockstep
// step touches neighbours what the step before touched (cache reuse, as in a sequential loop).
// With one item per invocation (GPUs) this is plain `group * WORKGROUP_SIZE + lid`.
fn walk(group: u32, lid: u32, j: u32, per: u32) -> u32 {
    let lanes = min(LANE_GROUP, WORKGROUP_SIZE);
    return group * (WORKGROUP_SIZE * per) + (lid / lanes) * (lanes * per) + j * lanes + lid % lanes;
}

// Linear workgroup index of a (possibly 2D) dispatch.
fn workgroup_linear(wg: vec3<u32>, groups: vec3<u32>) -> u32 {
    return wg.x + wg.y * groups.x;
}

// The clock of a duty-cycled actuator at time t (s): the active time (s) it has run, with
// `on` and `off` (s) the lengths of its active and rest phases and `offset` (s) its start.
fn duty_clock(t: Real, on: Real, off: Real, offset: Real) -> Real {
    let cycle = on + off;
    let u = t + offset;
    let cycles = floor(u / cycle);
    let within = u - cycles * cycle;
    return cycles * on + min(within, on);
}

// Rest length of an actuated spring of base length `base` (m) at clock tau (s):
// L_base (1 + a sin(omega tau + 2 pi p)) (the CPU's: `formed_rest` in src/model/spring_law/).
fn wave_rest(base: Real, amplitude: Real, omega: Real, phase: Real, tau: Real) -> Real {
    return base * (1.0 + amplitude * sin_real(omega * tau + phase));
}

// Rest length of a commanded actuator's spring of base length `base` (m) for command c
// (relative rest-length change): L_base (1 + clamp(c, -|a|, |a|)), as
// `Actuator::rest_length_with`.
fn commanded_rest(base: Real, amplitude: Real, c: Real) -> Real {
    let a = abs(amplitude);
    return base * (1.0 + clamp(c, -a, a));
}

// Effective Hooke stiffness (N/m) and rest length (m) of a spring: every law folds into
// f = k_eff (L - L0) along the axis (the CPU's: `k_eff` and `rest_in_law` in
// src/model/spring_law/).
fn effective(mat: GpuMaterial, rest: Real) -> vec2<Real> {
    if mat.law == LAW_MATERIAL {
        return vec2<Real>(mat.stiffness / rest, rest);
    }
    if mat.law == LAW_ZERO_LENGTH {
        return vec2<Real>(mat.stiffness, 0.0);
    }
    return vec2<Real>(mat.stiffness, rest);
}

// Compensated (Kahan) addition of x into a (sum, compensation) pair.
fn kahan_add(slot: vec2<Real>, x: Real) -> vec2<Real> {
    let y = x - slot.y;
    let t = slot.x + y;
    return vec2<Real>(t, (t - slot.x) - y);
}

// True when x is a NaN or an infinity, by its bits (immune to fast-math folding). An f64 is
// tested through its f32 rounding: NaN stays NaN, and an f64 beyond f32's range (3.4e38, far past
// any state the blow-up bound lets through) counts as non-finite.
fn non_finite(x: Real) -> bool {
    return (bitcast<u32>(f32(x)) & 0x7f800000u) == 0x7f800000u;
}
