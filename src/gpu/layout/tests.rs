//! naga tests (no GPU): every kernel parses and validates, every WGSL `Gpu*` struct has the size,
//! array stride and field offsets of its Rust mirror, the overrides the shaders declare are
//! exactly those Rust passes, and each kernel's bindings have the kinds Rust's bind group layouts
//! give them.

use std::mem::offset_of;

use super::*;
use crate::gpu::granularity::Granularity;
use crate::gpu::kernel::{source, step_entry, Compile};
use crate::gpu::kernels::springs_stencil::{Stencil, SPRINGS_STENCIL};
use crate::gpu::kernels::steps::STEPS_BODY;
use crate::gpu::kernels::{kernel, kernels, layout_entries};
use crate::gpu::real::Precision;

/// `[("field", offset_of!(T, field)), ...]` for the listed fields of `T`.
macro_rules! fields {
    ($t:ty { $($f:ident),* $(,)? }) => {
        [$((stringify!($f), offset_of!($t, $f))),*]
    };
}
// For other modules that check their own mirrors with `assert_mirrors` (the renderer's).
#[allow(unused_imports)]
pub(crate) use fields;

/// A plain spring from mass `a` to mass `b` of rest length 1 m: the springs of the layout
/// planners' tests (`orient.rs`, `plan/fused.rs`).
pub(crate) fn spring(a: u32, b: u32) -> GpuSpring {
    GpuSpring {
        a,
        b,
        rest: 1.0,
        ..GpuSpring::default()
    }
}

/// The names of the overrides `module` declares, sorted.
pub(crate) fn declared_overrides(module: &naga::Module) -> Vec<String> {
    let mut declared: Vec<String> = module
        .overrides
        .iter()
        .filter_map(|(_, o)| o.name.clone())
        .collect();
    declared.sort();
    declared
}

/// Asserts that WGSL struct `name` of `module` mirrors `T`: the same size, an array stride (size
/// rounded up to the WGSL alignment) equal to the size, and exactly `fields` (name, byte offset)
/// in order. Returns false when `module` has no struct of that name.
pub(crate) fn assert_mirrors<T>(
    module: &naga::Module,
    name: &str,
    fields: &[(&str, usize)],
) -> bool {
    let Some((handle, ty)) = module
        .types
        .iter()
        .find(|(_, t)| t.name.as_deref() == Some(name))
    else {
        return false;
    };
    let mut layouter = naga::proc::Layouter::default();
    layouter.update(module.to_ctx()).unwrap();
    let layout = layouter[handle];
    let size = std::mem::size_of::<T>();
    assert_eq!(layout.size as usize, size, "size of {name}");
    assert_eq!(
        layout.to_stride() as usize,
        size,
        "array stride of {name} (alignment {:?})",
        layout.alignment
    );
    let naga::TypeInner::Struct { members, .. } = &ty.inner else {
        panic!("{name} is not a struct");
    };
    let wgsl: Vec<(String, usize)> = members
        .iter()
        .map(|m| (m.name.clone().unwrap_or_default(), m.offset as usize))
        .collect();
    let rust: Vec<(String, usize)> = fields.iter().map(|(f, o)| (f.to_string(), *o)).collect();
    assert_eq!(wgsl, rust, "fields of {name}");
    true
}

/// `(name, found)`: checks the mirror `T` against the WGSL struct of the same name in `module`.
macro_rules! mirror {
    ($module:expr, $t:ident { $($f:ident),* $(,)? }) => {
        (
            stringify!($t),
            assert_mirrors::<$t>($module, stringify!($t), &fields!($t { $($f),* })),
        )
    };
}

/// The checks of every compute mirror in scope against `module`: `(name, found)`.
macro_rules! mirror_table {
    ($m:expr) => {{
        let m = $m;
        [
            mirror!(
                m,
                GpuParams {
                    gravity,
                    dt,
                    drag_target,
                    drag_mass,
                    drag_stiffness,
                    drag_damping,
                    air_drag,
                    damping_factor,
                    contact,
                    contact_stiffness,
                    contact_damping,
                    restitution,
                    static_friction,
                    kinetic_friction,
                    rest_speed,
                    integrator,
                    masses,
                    springs,
                    bodies,
                    friction_rule
                }
            ),
            mirror!(
                m,
                GpuStep {
                    time,
                    index,
                    speed_energy,
                    speed_growth
                }
            ),
            mirror!(
                m,
                GpuMass {
                    external_force,
                    mass,
                    flags,
                    oscillator,
                    body,
                    pad0
                }
            ),
            mirror!(m, GpuLink { b, rest }),
            mirror!(
                m,
                GpuMaterial {
                    stiffness,
                    damping,
                    law,
                    pad0
                }
            ),
            mirror!(
                m,
                GpuChunk {
                    first,
                    first_mass,
                    end_mass,
                    pad0
                }
            ),
            mirror!(
                m,
                GpuActuator {
                    base,
                    amplitude,
                    omega,
                    phase,
                    duty_active,
                    duty_rest,
                    duty_offset,
                    command,
                    current
                }
            ),
            mirror!(
                m,
                GpuOscillator {
                    min,
                    max,
                    omega,
                    phase
                }
            ),
            mirror!(m, GpuBody { first, count }),
            mirror!(
                m,
                GpuObstacle {
                    shape,
                    contact,
                    friction_rule,
                    first_height,
                    stiffness,
                    damping,
                    restitution,
                    rest_speed,
                    static_friction,
                    kinetic_friction,
                    columns,
                    rows,
                    a,
                    b,
                    rotation,
                    lo,
                    hi
                }
            ),
            mirror!(
                m,
                GpuStatus {
                    bad_step,
                    bad_mass,
                    overflow_step,
                    overflow_spring
                }
            ),
            mirror!(
                m,
                GpuState {
                    position,
                    velocity,
                    pad0,
                    pad1
                }
            ),
            mirror!(
                m,
                GpuMassPartial {
                    kinetic,
                    gravity,
                    ground,
                    pad0,
                    dissipated,
                    injected,
                    pad1,
                    pad2
                }
            ),
            mirror!(
                m,
                GpuSpringPartial {
                    elastic,
                    dissipated,
                    injected,
                    pad0
                }
            ),
            mirror!(
                m,
                GpuBodySum {
                    moment,
                    mass,
                    momentum,
                    pad0
                }
            ),
            mirror!(
                m,
                GpuCollide {
                    dt,
                    inverse_cell,
                    members,
                    buckets,
                    largest,
                    pad0,
                    pad1,
                    pad2
                }
            ),
            mirror!(
                m,
                GpuCollider {
                    mass,
                    radius,
                    group,
                    mask,
                    body,
                    joined_first,
                    joined_end,
                    collision_class
                }
            ),
        ]
    }};
}

/// Checks every compute mirror present in `module` (compiled in `precision`) against the Rust
/// mirrors of that precision (`real32` or `real64`); returns the names found.
#[rustfmt::skip] // one mirror per line: a table
fn check_mirrors(module: &naga::Module, precision: Precision) -> Vec<&'static str> {
    let checks = match precision {
        Precision::F32 => {
            use super::real32::*;
            mirror_table!(module)
        }
        Precision::F64 => {
            use super::real64::*;
            mirror_table!(module)
        }
    };
    checks.iter().filter(|(_, found)| *found).map(|(name, _)| *name).collect()
}

/// The stencil variant of the spring pass for the benchmark lattice with n = 4 (13 offsets in
/// five chains), with and without springs outside the stencil, with and without the muscles set
/// before the walk, and the fused steps kernel built on it, generated for `precision`, each as
/// (stem, bind group layout, own WGSL).
fn stencil_sources(precision: Precision) -> Vec<(&'static str, &'static str, String)> {
    let model = crate::builders::Lattice::benchmark(4).model().unwrap();
    let springs: Vec<GpuSpring> = model
        .springs
        .iter()
        .map(|s| GpuSpring {
            a: s.a,
            b: s.b,
            rest: s.rest_length,
            actuator: 0,
            material: 0,
            actuated: false,
        })
        .collect();
    let material = GpuMaterial {
        stiffness: 1e4,
        damping: 1.0,
        law: crate::model::SpringLaw::Hooke.tag(),
        pad0: 0,
    };
    let stencil =
        Stencil::find(&springs, model.masses.len(), &[material]).expect("the lattice is regular");
    assert_eq!(
        stencil.offsets(),
        [1, 3, 4, 5, 11, 12, 13, 15, 16, 17, 19, 20, 21]
    );
    let mut sources = Vec::new();
    for remainder in [false, true] {
        for muscles in [false, true] {
            let body = stencil.wgsl(
                SPRINGS_STENCIL,
                springs.len() as u32,
                remainder,
                precision,
                muscles,
                false,
            );
            sources.push(("springs", Stencil::layout(muscles), body));
        }
        let walk = stencil.wgsl(
            SPRINGS_STENCIL,
            springs.len() as u32,
            remainder,
            precision,
            true,
            true,
        );
        sources.push(("steps", "steps", walk + STEPS_BODY));
    }
    sources
}

/// Every kernel variant as (stem, bind group layout name, own WGSL).
fn variants() -> Vec<(&'static str, &'static str, String)> {
    let mut all: Vec<_> = kernels()
        .map(|k| (k.stem, k.stem, k.body.to_string()))
        .collect();
    all.extend(stencil_sources(Precision::F32));
    all
}

/// Parses and validates the full source of `stem` with `body` in f32.
fn module(stem: &str, body: &str, bits: u32, wide: bool, packed: bool) -> naga::Module {
    module_in(stem, body, bits, wide, packed, Precision::F32)
}

/// Parses and validates the full source of `stem` with `body` computing in `precision`.
fn module_in(
    stem: &str,
    body: &str,
    bits: u32,
    wide: bool,
    packed: bool,
    precision: Precision,
) -> naga::Module {
    let compile = Compile {
        bits,
        wide,
        packed,
        precision,
        constants: &[],
    };
    let src = source(kernel(stem), body, &compile);
    let module = naga::front::wgsl::parse_str(&src).unwrap_or_else(|e| {
        panic!(
            "{stem}.wgsl ({bits}-bit, {precision:?}): {}",
            e.emit_to_string(&src)
        )
    });
    let mut validator = naga::valid::Validator::new(
        naga::valid::ValidationFlags::all(),
        naga::valid::Capabilities::all(),
    );
    validator
        .validate(&module)
        .unwrap_or_else(|e| panic!("{stem}.wgsl ({bits}-bit): {}", e.emit_to_string(&src)));
    module
}

/// The four ways a kernel is compiled: (bits, wide words, packed forces).
const BUILDS: [(u32, bool, bool); 4] = [
    (32, false, false),
    (32, true, false),
    (32, true, true),
    (64, true, false),
];

/// Every kernel variant parses and validates with naga in f64 (`alias Real = f64`, the records
/// of words_f64.wgsl, 64-bit sums), with the binding kinds of the f32 build, and every WGSL
/// mirror struct has the size, stride and field offsets of its `real64` Rust twin: one source
/// serves both precisions.
#[test]
fn every_kernel_validates_in_f64() {
    let mut found = std::collections::BTreeSet::<&str>::new();
    for (stem, layout, body) in variants() {
        let module = module_in(stem, &body, 64, true, false, Precision::F64);
        let f32 = module_in(stem, &body, 64, true, false, Precision::F32);
        let kinds = |m: &naga::Module| -> Vec<_> {
            m.global_variables
                .iter()
                .filter(|(_, g)| g.binding.as_ref().is_some_and(|b| b.group == 0))
                .map(|(_, g)| (g.binding.as_ref().map(|b| b.binding), binding_kind(g)))
                .collect()
        };
        assert_eq!(
            kinds(&module),
            kinds(&f32),
            "{layout}: bindings differ in f64"
        );
        let checked = check_mirrors(&module, Precision::F64);
        for (_, ty) in module.types.iter() {
            if let Some(name) = ty.name.as_deref().filter(|n| n.starts_with("Gpu")) {
                assert!(
                    checked.contains(&name),
                    "f64 WGSL struct {name} ({stem}) has no real64 mirror checked here"
                );
            }
        }
        found.extend(checked);
    }
    // The stencil variant as a World in f64 generates it (its materials as exact f64 literals).
    for (stem, _, body) in stencil_sources(Precision::F64) {
        assert!(body.contains("lf, "), "f64 literals expected");
        module_in(stem, &body, 64, true, false, Precision::F64);
    }
    assert_eq!(found.len(), 17, "f64 mirrors found in the WGSL: {found:?}");
}

/// Every kernel parses and validates with naga, for both atomic widths, and every WGSL mirror
/// struct has the size, stride and field offsets of its Rust twin; every Rust mirror is found in
/// some kernel, and every WGSL `Gpu*` struct has a Rust mirror. No GPU needed.
#[test]
fn wgsl_structs_match_rust_mirrors() {
    let mut found = std::collections::BTreeSet::new();
    for (bits, wide, packed) in BUILDS {
        for (stem, _, body) in variants() {
            let module = module(stem, &body, bits, wide, packed);
            assert!(
                module.entry_points.iter().any(|e| e.name == stem),
                "{stem}.wgsl has no entry point named {stem}"
            );
            let checked = check_mirrors(&module, Precision::F32);
            for (_, ty) in module.types.iter() {
                if let Some(name) = ty.name.as_deref().filter(|n| n.starts_with("Gpu")) {
                    assert!(
                        checked.contains(&name),
                        "WGSL struct {name} ({stem}) has no Rust mirror checked here"
                    );
                }
            }
            found.extend(checked);
        }
    }
    assert_eq!(found.len(), 17, "mirrors found in the WGSL: {found:?}");
}

/// What a naga global binding is, as the Rust layout entry should say.
fn binding_kind(global: &naga::GlobalVariable) -> wgpu::BufferBindingType {
    match global.space {
        naga::AddressSpace::Uniform => wgpu::BufferBindingType::Uniform,
        naga::AddressSpace::Storage { access } => wgpu::BufferBindingType::Storage {
            read_only: !access.contains(naga::StorageAccess::STORE),
        },
        other => panic!("unexpected address space {other:?}"),
    }
}

/// Each kernel's WGSL bindings (group, binding, address space and access) are exactly the bind
/// group layout entries Rust builds for it: group 0 from `layout_entries`, group 1 (stepped
/// kernels) the per-step uniform.
#[test]
fn wgsl_bindings_match_rust_layouts() {
    for (bits, wide, packed) in BUILDS {
        for (stem, layout, body) in variants() {
            let module = module(stem, &body, bits, wide, packed);
            let mut declared: Vec<(u32, u32, wgpu::BufferBindingType)> = module
                .global_variables
                .iter()
                .filter_map(|(_, g)| {
                    let b = g.binding.as_ref()?;
                    Some((b.group, b.binding, binding_kind(g)))
                })
                .collect();
            declared.sort_by_key(|d| (d.0, d.1));
            let mut rust: Vec<(u32, u32, wgpu::BufferBindingType)> = layout_entries(layout)
                .iter()
                .map(|e| (0, e.binding, buffer_type(e)))
                .collect();
            if kernel(stem).stepped {
                let step = step_entry(Precision::F32);
                rust.push((1, step.binding, buffer_type(&step)));
            }
            assert_eq!(declared, rust, "bindings of {layout} ({bits}-bit)");
        }
    }
}

fn buffer_type(entry: &wgpu::BindGroupLayoutEntry) -> wgpu::BufferBindingType {
    match entry.ty {
        wgpu::BindingType::Buffer { ty, .. } => ty,
        other => panic!("not a buffer binding: {other:?}"),
    }
}

/// Every override the shaders declare is supplied by `constants`, and nothing more (both
/// variants of the spring pass, which between them include every shared fragment).
#[test]
fn overrides_match_constants() {
    let spec = Specialization {
        fixed_scale: 1.0,
        spring_force_limit: 1.0,
        track_energy: true,
        uniform_material: None,
        has_actuators: true,
        has_commands: true,
        has_oscillators: true,
        packed_forces: false,
        obstacles: 2,
        grid_origin: [0.0, 0.0],
        grid_inverse_cell: 1.0,
        grid_columns: 0,
        grid_rows: 0,
        collisions: true,
        contacts: true,
        granularity: Granularity::for_device(wgpu::DeviceType::Cpu, 1 << 30),
    };
    let mut given: Vec<String> = constants(&spec)
        .iter()
        .map(|(n, _)| n.to_string())
        .collect();
    given.sort();
    for (stem, body) in [("springs", kernel("springs").body.to_string())]
        .into_iter()
        .chain(
            stencil_sources(Precision::F32)
                .into_iter()
                .map(|(s, _, b)| (s, b)),
        )
    {
        let module = module(stem, &body, 32, false, false);
        assert_eq!(declared_overrides(&module), given);
    }
}

/// The numbers the collision fragment keeps as WGSL `const`s (array sizes, which an `override`
/// cannot set) are Rust's.
#[test]
fn collision_consts_match_rust() {
    let wgsl = include_str!("../../../shaders/shared/collisions.wgsl");
    let classes = crate::COLLISION_CLASSES;
    for line in [
        format!(
            "const SCAN_ITEMS: u32 = {}u;",
            crate::gpu::layout::SCAN_ITEMS
        ),
        format!("const COLLISION_CLASSES: u32 = {classes}u;"),
        format!("const PAIR_TABLE: u32 = {}u;", classes * classes),
        format!("const BOX_WORDS: u32 = {}u;", crate::gpu::layout::BOX_WORDS),
    ] {
        assert!(
            wgsl.contains(&line),
            "shared/collisions.wgsl lacks `{line}`"
        );
    }
}

#[test]
fn f32_records_round_each_real_and_keep_the_integers() {
    let mass = GpuMass {
        external_force: [0.1, -2.5, 1e-3],
        mass: 0.1,
        flags: 1,
        oscillator: 7,
        body: 3,
        ..Default::default()
    };
    let bytes = Precision::F32.encode_one(&mass);
    assert_eq!(bytes.len() as u64, Precision::F32.bytes::<GpuMass>(1));
    assert_eq!(bytes.len(), 32);
    let back: Vec<GpuMass> = Precision::F32.decode(&bytes);
    assert_eq!(back[0].external_force, [0.1f32, -2.5, 1e-3].map(f64::from));
    assert_eq!(back[0].mass, f64::from(0.1f32));
    assert_eq!((back[0].flags, back[0].oscillator, back[0].body), (1, 7, 3));
    // f64 records are their own bytes.
    let wide = Precision::F64.encode_one(&mass);
    assert_eq!(wide.len(), 64);
    assert_eq!(Precision::F64.decode::<GpuMass>(&wide)[0].mass, 0.1);
}

#[test]
fn field_offsets_follow_the_precision() {
    assert_eq!(field_offset!(Precision::F32, GpuParams, drag_stiffness), 32);
    // f64: the u32 `drag_mass` at 56 is padded to 64.
    assert_eq!(field_offset!(Precision::F64, GpuParams, drag_stiffness), 64);
}
