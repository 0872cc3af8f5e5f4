// hooke::render: draws a mass-spring scene straight from a positions buffer.
//
// Every pass reads the mass positions from `positions` (array<vec4<f32>>, xyz in m), the buffer
// the GPU World integrates or the renderer's own copy of the CPU world's positions. Nothing is
// read back to draw. Rust mirrors the structs under the same names (`GpuView` in
// src/render/view.rs, `GpuOverlayLine` in src/render/drawing.rs) and builds the bind group
// layout from `BINDINGS` in src/render/pipelines.rs; a naga test checks both against this file.
//
// Entry points, in drawing order: ground (plane z = 0 with a grid), spring_shadows and
// mass_shadows (the scene flattened onto z = 0, blended with `min`), faces (shaded triangles),
// surface (mesh bodies' own triangles, each vertex blended from the 8 corners of its cell),
// springs (screen-space quads coloured by strain), masses (discs; squares for fixed masses) and
// overlay (extra segments such as the drag line, drawn over everything).
//
// A scene with obstacles draws its shadows with a shadow map instead (src/render/shadow_map.rs):
// first a depth-only pass (map_*) renders, looking straight down, the height of the highest
// spring, mass or obstacle over each texel of a square around the camera's target; then the
// ground (ground_vs + ground_shadowed_fs), the planes (planes_*) and the other obstacles
// (obstacles_*) are drawn depth-tested, each fragment darkened where something is above it
// (`in_shadow`). Shadows fall straight down, as on the ground of a scene without obstacles.

struct GpuView {
    view_proj: mat4x4<f32>,
    // xyz: eye position (m).
    eye: vec4<f32>,
    // x, y: target size in pixels; z: world size of a pixel at unit depth (m per m).
    viewport: vec4<f32>,
    neutral: vec4<f32>,
    tension: vec4<f32>,
    compression: vec4<f32>,
    mass: vec4<f32>,
    fixed_mass: vec4<f32>,
    highlight: vec4<f32>,
    face: vec4<f32>,
    shadow: vec4<f32>,
    ground: vec4<f32>,
    grid: vec4<f32>,
    background: vec4<f32>,
    // x: strain at full colour; y: half line width (px); z: mass radius (px); w: grid spacing (m).
    sizes: vec4<f32>,
    // xy: centre of the ground disc (m); z: its radius (m).
    ground_area: vec4<f32>,
    // xyz: unit direction toward the light.
    light: vec4<f32>,
    // x: highlighted mass index (NO_HIGHLIGHT = 0xffffffff in src/render/view.rs for none).
    flags: vec4<u32>,
    // Base colour of obstacles.
    obstacle: vec4<f32>,
    // The square the shadow map covers: xy its centre (m), z its half side (m), w its side in
    // texels.
    shadow_area: vec4<f32>,
    // x: height of map depth 0 (m); y: height range of depth 0..1 (m); z: how far below a
    // receiver an occluder still shadows it (m); w: how far obstacles are lowered in the map (m).
    shadow_depth: vec4<f32>,
    // x: half width of a spring in the map (m); y: radius of a mass in the map (m); z: brightness
    // of an obstacle in shadow (fraction of lit); w: camera target height (m).
    shadow_sizes: vec4<f32>,
}

// One overlay segment: ends a and b (xyz, m) and a linear RGBA colour.
struct GpuOverlayLine {
    a: vec4<f32>,
    b: vec4<f32>,
    color: vec4<f32>,
}

// One corner of a mesh surface triangle: a mesh vertex riding on the 8 corner masses of its
// voxel cell with trilinear weights (summing to 1).
struct GpuSurfaceCorner {
    masses: array<u32, 8>,
    weights: array<f32, 8>,
}

@group(0) @binding(0) var<uniform> view: GpuView;
@group(0) @binding(1) var<storage, read> positions: array<vec4<f32>>;
@group(0) @binding(2) var<storage, read> springs: array<vec2<u32>>;
@group(0) @binding(3) var<storage, read> rest_lengths: array<f32>;
// Bit 0: fixed mass.
@group(0) @binding(4) var<storage, read> mass_flags: array<u32>;
// Three mass indices per triangle.
@group(0) @binding(5) var<storage, read> triangles: array<u32>;
@group(0) @binding(6) var<storage, read> overlay: array<GpuOverlayLine>;
// Three corners per mesh surface triangle (src/render/mesh_surface.rs).
@group(0) @binding(7) var<storage, read> surface: array<GpuSurfaceCorner>;
// The shadow map: depth (view.shadow_depth) of the highest occluder over each texel, read
// through a comparison sampler (`reference <= texel` passes: nothing above) with linear
// filtering.
@group(1) @binding(0) var shadow_map: texture_depth_2d;
@group(1) @binding(1) var shadow_sampler: sampler_comparison;

// `mass_flags` bit of a fixed mass (drawn as a square); Rust supplies it (`CONSTANTS`).
override MASS_FIXED: u32;

// A vertex outside the clip volume: the primitive using it is discarded.
const CULLED: vec4<f32> = vec4<f32>(0.0, 0.0, -2.0, 1.0);

struct Flat {
    @builtin(position) clip: vec4<f32>,
    @location(0) color: vec4<f32>,
}

struct Disc {
    @builtin(position) clip: vec4<f32>,
    @location(0) color: vec4<f32>,
    // Position in the quad, -1..1 on both axes.
    @location(1) uv: vec2<f32>,
    // 0: disc, 1: square.
    @location(2) @interpolate(flat) square: u32,
}

struct GroundOut {
    @builtin(position) clip: vec4<f32>,
    @location(0) world: vec2<f32>,
}

// Corners of a quad as two triangles: x selects the end (0 = a, 1 = b), y the side (-1, +1).
fn quad_corner(i: u32) -> vec2<f32> {
    var corners = array<vec2<f32>, 6>(
        vec2<f32>(0.0, -1.0),
        vec2<f32>(0.0, 1.0),
        vec2<f32>(1.0, -1.0),
        vec2<f32>(1.0, -1.0),
        vec2<f32>(0.0, 1.0),
        vec2<f32>(1.0, 1.0),
    );
    return corners[i];
}

// Clip-space position of `p`, with depth taken `radius_px` pixels toward the eye: a line or disc
// of that half width is drawn like a tube or sphere, in front of a face it lies on.
fn clip_nudged(p: vec3<f32>, radius_px: f32) -> vec4<f32> {
    let c = view.view_proj * vec4<f32>(p, 1.0);
    let toward_eye = view.eye.xyz - p;
    let d = length(toward_eye);
    if (d <= 0.0 || c.w <= 0.0) {
        return c;
    }
    let r = min(radius_px * view.viewport.z * c.w, 0.5 * d);
    let n = view.view_proj * vec4<f32>(p + toward_eye / d * r, 1.0);
    return vec4<f32>(c.xy, n.z / n.w * c.w, c.w);
}

// One corner of the screen-space quad of half width `half_px` pixels covering segment a-b.
fn segment(a: vec3<f32>, b: vec3<f32>, corner: u32, half_px: f32) -> vec4<f32> {
    var ca = clip_nudged(a, half_px);
    var cb = clip_nudged(b, half_px);
    // Clip to the near plane (z >= 0 in wgpu clip space) before dividing by w.
    if (ca.z < 0.0 && cb.z < 0.0) {
        return CULLED;
    }
    if (ca.z < 0.0) {
        ca = mix(ca, cb, ca.z / (ca.z - cb.z) + 1e-6);
    } else if (cb.z < 0.0) {
        cb = mix(cb, ca, cb.z / (cb.z - ca.z) + 1e-6);
    }
    let half_size = 0.5 * view.viewport.xy;
    let sa = ca.xy / ca.w * half_size;
    let sb = cb.xy / cb.w * half_size;
    var dir = sb - sa;
    let len = length(dir);
    if (len < 1e-6) {
        dir = vec2<f32>(1.0, 0.0);
    } else {
        dir = dir / len;
    }
    let normal = vec2<f32>(-dir.y, dir.x);
    let k = quad_corner(corner);
    var c = ca;
    if (k.x > 0.5) {
        c = cb;
    }
    // Extend past each end by the half width so that joints look closed.
    let offset_px = normal * k.y * half_px + dir * (2.0 * k.x - 1.0) * half_px;
    return vec4<f32>(c.xy + offset_px / half_size * c.w, c.z, c.w);
}

// Strain colour: neutral at rest, toward `tension` when stretched and `compression` when
// squeezed, saturating at |strain| = sizes.x. A spring with no rest length is neutral.
fn strain_color(len: f32, rest: f32) -> vec4<f32> {
    var strain = 0.0;
    if (rest > 0.0) {
        strain = (len - rest) / rest;
    }
    let t = clamp(strain / view.sizes.x, -1.0, 1.0);
    var toward = view.compression;
    if (t > 0.0) {
        toward = view.tension;
    }
    return mix(view.neutral, toward, abs(t));
}

fn on_ground(p: vec3<f32>) -> vec3<f32> {
    return vec3<f32>(p.xy, 0.0);
}

@vertex
fn ground_vs(@builtin(vertex_index) vi: u32) -> GroundOut {
    let k = quad_corner(vi);
    let offset = vec2<f32>(2.0 * k.x - 1.0, k.y) * view.ground_area.z;
    let xy = view.ground_area.xy + offset;
    var out: GroundOut;
    out.clip = view.view_proj * vec4<f32>(xy, 0.0, 1.0);
    out.world = xy;
    return out;
}

// Antialiased grid-line coverage for lines every `spacing` m, faded out where they get denser
// than a few pixels apart.
fn grid_lines(world: vec2<f32>, spacing: f32) -> f32 {
    let g = world / spacing;
    let w = max(fwidth(g), vec2<f32>(1e-6));
    let dist = abs(fract(g - 0.5) - 0.5) / w;
    let line = 1.0 - min(min(dist.x, dist.y), 1.0);
    let density = max(w.x, w.y);
    return line * (1.0 - smoothstep(0.15, 0.45, density));
}

@fragment
fn ground_fs(in: GroundOut) -> @location(0) vec4<f32> {
    let spacing = view.sizes.w;
    let minor = grid_lines(in.world, spacing);
    let major = grid_lines(in.world, spacing * 10.0);
    let color = mix(view.ground, view.grid, max(0.45 * minor, major));
    let r = length(in.world - view.ground_area.xy) / view.ground_area.z;
    let fade = 1.0 - smoothstep(0.3, 1.0, r);
    return mix(view.background, color, fade);
}

@vertex
fn spring_shadows_vs(@builtin(vertex_index) vi: u32, @builtin(instance_index) s: u32) -> Flat {
    let ab = springs[s];
    var out: Flat;
    out.clip = segment(on_ground(positions[ab.x].xyz), on_ground(positions[ab.y].xyz), vi, view.sizes.y);
    out.color = view.shadow;
    return out;
}

@vertex
fn springs_vs(@builtin(vertex_index) vi: u32, @builtin(instance_index) s: u32) -> Flat {
    let ab = springs[s];
    let a = positions[ab.x].xyz;
    let b = positions[ab.y].xyz;
    var out: Flat;
    out.clip = segment(a, b, vi, view.sizes.y);
    out.color = strain_color(distance(a, b), rest_lengths[s]);
    return out;
}

@vertex
fn overlay_vs(@builtin(vertex_index) vi: u32, @builtin(instance_index) i: u32) -> Flat {
    let line = overlay[i];
    var out: Flat;
    out.clip = segment(line.a.xyz, line.b.xyz, vi, view.sizes.y);
    out.color = line.color;
    return out;
}

@fragment
fn flat_fs(in: Flat) -> @location(0) vec4<f32> {
    return in.color;
}

fn disc(p: vec3<f32>, corner: u32, radius_px: f32) -> Disc {
    var out: Disc;
    let c = clip_nudged(p, radius_px);
    let k = quad_corner(corner);
    out.uv = vec2<f32>(2.0 * k.x - 1.0, k.y);
    if (c.z < 0.0) {
        out.clip = CULLED;
        return out;
    }
    let half_size = 0.5 * view.viewport.xy;
    out.clip = vec4<f32>(c.xy + out.uv * radius_px / half_size * c.w, c.z, c.w);
    return out;
}

@vertex
fn masses_vs(@builtin(vertex_index) vi: u32, @builtin(instance_index) m: u32) -> Disc {
    let highlighted = m == view.flags.x;
    var radius = view.sizes.z;
    if (highlighted) {
        radius = radius * 1.75;
    }
    var out = disc(positions[m].xyz, vi, radius);
    out.square = 0u;
    out.color = view.mass;
    if ((mass_flags[m] & MASS_FIXED) != 0u) {
        out.square = 1u;
        out.color = view.fixed_mass;
    }
    if (highlighted) {
        out.color = view.highlight;
    }
    return out;
}

@vertex
fn mass_shadows_vs(@builtin(vertex_index) vi: u32, @builtin(instance_index) m: u32) -> Disc {
    var out = disc(on_ground(positions[m].xyz), vi, view.sizes.z);
    out.square = 0u;
    out.color = view.shadow;
    return out;
}

@fragment
fn disc_fs(in: Disc) -> @location(0) vec4<f32> {
    if (in.square == 0u && dot(in.uv, in.uv) > 1.0) {
        discard;
    }
    return in.color;
}

// A triangle a, b, c (m) lit from view.light on both sides, at its corner p.
fn lit_face(a: vec3<f32>, b: vec3<f32>, c: vec3<f32>, p: vec3<f32>) -> Flat {
    let n = cross(b - a, c - a);
    let len = length(n);
    var lambert = 0.0;
    if (len > 0.0) {
        // Two-sided lighting: a face is lit the same from either side.
        lambert = abs(dot(n / len, view.light.xyz));
    }
    var out: Flat;
    out.clip = view.view_proj * vec4<f32>(p, 1.0);
    out.color = vec4<f32>(view.face.rgb * (0.4 + 0.6 * lambert), view.face.a);
    return out;
}

@vertex
fn faces_vs(@builtin(vertex_index) vi: u32) -> Flat {
    let t = vi / 3u;
    let a = positions[triangles[3u * t]].xyz;
    let b = positions[triangles[3u * t + 1u]].xyz;
    let c = positions[triangles[3u * t + 2u]].xyz;
    return lit_face(a, b, c, positions[triangles[vi]].xyz);
}

// Where surface corner i is now: the weighted sum of its cell's corner masses (the CPU twin is
// MeshSurface::positions).
fn surface_corner(i: u32) -> vec3<f32> {
    var p = vec3<f32>(0.0);
    for (var k = 0u; k < 8u; k++) {
        p += surface[i].weights[k] * positions[surface[i].masses[k]].xyz;
    }
    return p;
}

@vertex
fn surface_vs(@builtin(vertex_index) vi: u32) -> Flat {
    let t = vi / 3u;
    let a = surface_corner(3u * t);
    let b = surface_corner(3u * t + 1u);
    let c = surface_corner(3u * t + 2u);
    return lit_face(a, b, c, surface_corner(vi));
}

// ---- Obstacles and the shadow map (scenes with obstacles only) ----

// One obstacle vertex (src/render/obstacle_mesh.rs, GpuObstacleVertex).
struct ObstacleIn {
    @location(0) position: vec3<f32>,
    @location(1) normal: vec3<f32>,
}

// One plane obstacle per instance (GpuPlane): xyz unit outward normal n, w offset (n . x = w).
struct PlaneIn {
    @location(0) plane: vec4<f32>,
}

struct Lit {
    @builtin(position) clip: vec4<f32>,
    @location(0) world: vec3<f32>,
    @location(1) normal: vec3<f32>,
}

struct MapDisc {
    @builtin(position) clip: vec4<f32>,
    @location(0) uv: vec2<f32>,
}

// Map clip position of world point p: orthographic, looking down -z; higher is nearer (depth 0
// at height shadow_depth.x).
fn map_clip(p: vec3<f32>) -> vec4<f32> {
    let a = view.shadow_area;
    let d = view.shadow_depth;
    let z = clamp((d.x - p.z) / d.y, 0.0, 1.0);
    return vec4<f32>((p.xy - a.xy) / a.z, z, 1.0);
}

@vertex
fn map_springs_vs(@builtin(vertex_index) vi: u32, @builtin(instance_index) s: u32) -> @builtin(position) vec4<f32> {
    let ab = springs[s];
    let a = positions[ab.x].xyz;
    let b = positions[ab.y].xyz;
    let half_width = view.shadow_sizes.x;
    var dir = b.xy - a.xy;
    let len = length(dir);
    if (len < 1e-9) {
        dir = vec2<f32>(1.0, 0.0);
    } else {
        dir = dir / len;
    }
    let k = quad_corner(vi);
    var p = a;
    if (k.x > 0.5) {
        p = b;
    }
    let normal = vec2<f32>(-dir.y, dir.x);
    let xy = p.xy + (normal * k.y + dir * (2.0 * k.x - 1.0)) * half_width;
    return map_clip(vec3<f32>(xy, p.z));
}

@vertex
fn map_masses_vs(@builtin(vertex_index) vi: u32, @builtin(instance_index) m: u32) -> MapDisc {
    let p = positions[m].xyz;
    let k = quad_corner(vi);
    var out: MapDisc;
    out.uv = vec2<f32>(2.0 * k.x - 1.0, k.y);
    out.clip = map_clip(vec3<f32>(p.xy + out.uv * view.shadow_sizes.y, p.z));
    return out;
}

@fragment
fn map_disc_fs(in: MapDisc) {
    if (dot(in.uv, in.uv) > 1.0) {
        discard;
    }
}

// Obstacles go into the map lowered by shadow_depth.w, so that a surface never shadows itself
// (see `in_shadow`).
@vertex
fn map_obstacles_vs(in: ObstacleIn) -> @builtin(position) vec4<f32> {
    return map_clip(in.position - vec3<f32>(0.0, 0.0, view.shadow_depth.w));
}

// A plane over the whole map (a little more), at its height over each corner; a vertical plane
// casts nothing straight down.
@vertex
fn map_planes_vs(@builtin(vertex_index) vi: u32, in: PlaneIn) -> @builtin(position) vec4<f32> {
    let n = in.plane.xyz;
    if (abs(n.z) < 1e-3) {
        return CULLED;
    }
    let k = quad_corner(vi);
    let a = view.shadow_area;
    let xy = a.xy + vec2<f32>(2.0 * k.x - 1.0, k.y) * 1.01 * a.z;
    let z = (in.plane.w - n.x * xy.x - n.y * xy.y) / n.z;
    return map_clip(vec3<f32>(xy, z - view.shadow_depth.w));
}

// How much of the receiver point p (m) with outward normal n is in shadow, 0 to 1: whether an
// occluder in the map lies above p, less the tolerance shadow_depth.z (a mass resting on a
// surface sinks into it a little and still casts its shadow there). The lookup point is moved
// 1.5 texels along n (normal offset: a sloped or vertical surface does not shadow itself), and
// the comparison sampler blends the four texels around it bilinearly (soft, antialiased edges).
// Outside the map nothing is in shadow.
fn in_shadow(p: vec3<f32>, n: vec3<f32>) -> f32 {
    let a = view.shadow_area;
    let d = view.shadow_depth;
    let q = p + n * (3.0 * a.z / a.w);
    // Texture coordinates: x right, y downward from +y (framebuffer convention).
    let uv = vec2<f32>(q.x - a.x, a.y - q.y) / (2.0 * a.z) + 0.5;
    let reference = clamp((d.x - (q.z - d.z)) / d.y, 0.0, 1.0);
    // The fraction of the four texels whose occluder is no higher than q.z - tolerance.
    let lit = textureSampleCompareLevel(shadow_map, shadow_sampler, uv, reference);
    let inside = all(uv >= vec2<f32>(0.0)) && all(uv <= vec2<f32>(1.0));
    return select(0.0, 1.0 - lit, inside);
}

@fragment
fn ground_shadowed_fs(in: GroundOut) -> @location(0) vec4<f32> {
    let spacing = view.sizes.w;
    let minor = grid_lines(in.world, spacing);
    let major = grid_lines(in.world, spacing * 10.0);
    var color = mix(view.ground, view.grid, max(0.45 * minor, major));
    let shade = in_shadow(vec3<f32>(in.world, 0.0), vec3<f32>(0.0, 0.0, 1.0));
    color = mix(color, min(color, view.shadow), shade);
    let r = length(in.world - view.ground_area.xy) / view.ground_area.z;
    let fade = 1.0 - smoothstep(0.3, 1.0, r);
    return mix(view.background, color, fade);
}

// Obstacle colour lit by the light (one-sided: faces turned away get the ambient part), and
// darkened to shadow_sizes.z of that in shadow. A surface facing down is in its own shadow
// (shadows fall straight down): said here rather than left to the map, whose texels make a
// ragged line where a sphere's or capsule's side turns under.
fn obstacle_color(p: vec3<f32>, n: vec3<f32>) -> vec4<f32> {
    let lambert = max(dot(n, view.light.xyz), 0.0);
    let lit = view.obstacle.rgb * (0.4 + 0.6 * lambert);
    let under = smoothstep(-0.02, -0.15, n.z);
    let shade = mix(1.0, view.shadow_sizes.z, max(in_shadow(p, n), under));
    return vec4<f32>(lit * shade, view.obstacle.a);
}

@vertex
fn obstacles_vs(in: ObstacleIn) -> Lit {
    var out: Lit;
    out.clip = view.view_proj * vec4<f32>(in.position, 1.0);
    out.world = in.position;
    out.normal = in.normal;
    return out;
}

@fragment
fn obstacles_fs(in: Lit) -> @location(0) vec4<f32> {
    return obstacle_color(in.world, normalize(in.normal));
}

// A square patch of the plane around the point of it nearest the camera's target, as large as
// the ground's disc, faded out at its edge as the ground is.
@vertex
fn planes_vs(@builtin(vertex_index) vi: u32, in: PlaneIn) -> Lit {
    let n = in.plane.xyz;
    let target_point = vec3<f32>(view.ground_area.xy, view.shadow_sizes.w);
    let centre = target_point - (dot(n, target_point) - in.plane.w) * n;
    var side = vec3<f32>(0.0, 1.0, 0.0);
    if (abs(n.y) > 0.9) {
        side = vec3<f32>(1.0, 0.0, 0.0);
    }
    let u = normalize(cross(side, n));
    let v = cross(n, u);
    let k = quad_corner(vi);
    let p = centre + ((2.0 * k.x - 1.0) * u + k.y * v) * view.ground_area.z;
    var out: Lit;
    out.clip = view.view_proj * vec4<f32>(p, 1.0);
    out.world = p;
    out.normal = n;
    return out;
}

@fragment
fn planes_fs(in: Lit) -> @location(0) vec4<f32> {
    let n = normalize(in.normal);
    var color = obstacle_color(in.world, n);
    // Grid lines in the plane's own axes, as on the ground, a shade darker than the surface.
    var side = vec3<f32>(0.0, 1.0, 0.0);
    if (abs(n.y) > 0.9) {
        side = vec3<f32>(1.0, 0.0, 0.0);
    }
    let u = normalize(cross(side, n));
    let v = cross(n, u);
    let in_plane = vec2<f32>(dot(in.world, u), dot(in.world, v));
    let spacing = view.sizes.w;
    let lines = max(0.45 * grid_lines(in_plane, spacing), grid_lines(in_plane, spacing * 10.0));
    color = vec4<f32>(color.rgb * (1.0 - 0.25 * lines), color.a);
    let r = length(in.world.xy - view.ground_area.xy) / view.ground_area.z;
    let fade = 1.0 - smoothstep(0.3, 1.0, r);
    return mix(view.background, color, fade);
}
