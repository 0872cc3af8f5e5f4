//! Device-side mirrors of the GPU buffers, and the numbers the shaders share with Rust.
//!
//! Every struct here has a twin of the same name in `shaders/common.wgsl`; a test
//! (`tests/gpu_layout.rs`, no GPU needed) parses the WGSL with naga and checks sizes and field
//! offsets against these. Every number the shaders need (flags, tags, workgroup size, fixed-point
//! scale) reaches them as a WGSL `override` from [`constants`], so it is written once, here.

use bytemuck::{Pod, Zeroable};

/// Invocations per workgroup on GPUs (a power of two); CPU adapters use
/// [`CPU_WORKGROUP_SIZE`].
pub(crate) const WORKGROUP_SIZE: u32 = 256;

/// Invocations per workgroup on CPU adapters: smaller workgroups split a dispatch into more pieces
/// for the adapter's threads to share (measured on lavapipe at n = 80: about +7 % over 256).
pub(crate) const CPU_WORKGROUP_SIZE: u32 = 64;

/// How much work one invocation does: the masses whose springs one invocation of the spring
/// pass handles (the pass walks the springs mass by mass, in the order of the `runs` table, summing the first mass's side in registers), and consecutive masses of the integrate
/// pass.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Granularity {
    /// Invocations per workgroup, every kernel.
    pub(crate) workgroup_size: u32,
    pub(crate) spring_masses_per_invocation: u32,
    pub(crate) masses_per_invocation: u32,
}

impl Granularity {
    /// For `masses` masses on an adapter of type `device_type`.
    ///
    /// CPU adapters (lavapipe, SwiftShader, WARP) run the lanes of a workgroup in SIMD loops, so
    /// several masses per invocation amortise the per-invocation costs (the status check and the
    /// energy slot); GPUs want many threads with neighbouring lanes on neighbouring data, so they
    /// get one mass per invocation in the spring pass and one in the integrate pass. Counts shrink
    /// (by powers of two, down to 1) until each pass has enough workgroups to keep the adapter's
    /// cores busy: 16 on a CPU adapter, 256 on a GPU.
    pub(crate) fn for_device(device_type: wgpu::DeviceType, masses: u64) -> Self {
        let (size, max_spring_masses, max_masses, workgroups) =
            if device_type == wgpu::DeviceType::Cpu {
                (CPU_WORKGROUP_SIZE, CPU_SPRING_MASSES, 16, 16)
            } else {
                (WORKGROUP_SIZE, 1, 1, 256)
            };
        let fit = |items: u64, max: u32| {
            let mut per = max;
            while per > 1 && items.div_ceil(u64::from(size * per)) < workgroups {
                per /= 2;
            }
            per
        };
        Self {
            workgroup_size: size,
            spring_masses_per_invocation: fit(masses, max_spring_masses),
            masses_per_invocation: fit(masses, max_masses),
        }
    }
}

/// Invocations that walk neighbouring masses side by side in the spring pass: the SIMD width of
/// CPU adapters (llvmpipe runs 8 lanes of f32 per step with AVX2). A power of two.
pub(crate) const LANE_GROUP: u32 = 8;

/// Masses per spring-pass invocation on CPU adapters.
const CPU_SPRING_MASSES: u32 = 32;

/// `GpuMass::flags` bit: the mass is fixed.
pub(crate) const MASS_FIXED: u32 = 1;
/// `GpuLink::b` bit: the spring is driven by the actuator whose index is in `rest`.
pub(crate) const LINK_ACTUATED: u32 = 1 << 31;
/// `GpuMaterial::law` tags.
pub(crate) const LAW_HOOKE: u32 = 0;
pub(crate) const LAW_MATERIAL: u32 = 1;
pub(crate) const LAW_ZERO_LENGTH: u32 = 2;
/// `GpuParams::contact` tags.
pub(crate) const CONTACT_NONE: u32 = 0;
pub(crate) const CONTACT_PENALTY: u32 = 1;
pub(crate) const CONTACT_RESTITUTION: u32 = 2;
/// `GpuParams::integrator` tags.
pub(crate) const INTEGRATOR_SEMI_IMPLICIT: u32 = 0;
pub(crate) const INTEGRATOR_EXPLICIT: u32 = 1;
/// "No index" (no drag spring, no oscillator).
pub(crate) const NONE: u32 = u32::MAX;

/// Slots of the 4-word status buffer. Unused slots hold `u32::MAX`.
pub(crate) const STATUS_BAD_STEP: u32 = 0;
pub(crate) const STATUS_BAD_MASS: u32 = 1;
pub(crate) const STATUS_OVERFLOW_STEP: u32 = 2;
pub(crate) const STATUS_OVERFLOW_SPRING: u32 = 3;

/// Global parameters (uniform). Mirror of WGSL `GpuParams`.
#[repr(C)]
#[derive(Clone, Copy, Debug, Default, Pod, Zeroable)]
pub(crate) struct GpuParams {
    pub(crate) gravity: [f32; 3],
    pub(crate) dt: f32,
    pub(crate) drag_target: [f32; 3],
    pub(crate) drag_mass: u32,
    pub(crate) drag_stiffness: f32,
    pub(crate) drag_damping: f32,
    pub(crate) air_drag: f32,
    pub(crate) damping_factor: f32,
    pub(crate) contact: u32,
    pub(crate) contact_stiffness: f32,
    pub(crate) contact_damping: f32,
    pub(crate) restitution: f32,
    pub(crate) static_friction: f32,
    pub(crate) kinetic_friction: f32,
    pub(crate) rest_speed: f32,
    pub(crate) integrator: u32,
    pub(crate) masses: u32,
    pub(crate) springs: u32,
    pub(crate) bodies: u32,
    pub(crate) pad0: u32,
}

/// Per-step uniform, bound with a dynamic offset. Mirror of WGSL `GpuStep`.
#[repr(C)]
#[derive(Clone, Copy, Debug, Default, Pod, Zeroable)]
pub(crate) struct GpuStep {
    /// Simulation time at the start of the step, s.
    pub(crate) time: f32,
    /// 1-based step index within one `World::step` call.
    pub(crate) index: u32,
    pub(crate) pad0: u32,
    pub(crate) pad1: u32,
}

/// Per-mass properties. Mirror of WGSL `GpuMass`.
#[repr(C)]
#[derive(Clone, Copy, Debug, Default, Pod, Zeroable)]
pub(crate) struct GpuMass {
    /// External force, N.
    pub(crate) external_force: [f32; 3],
    /// Mass, kg.
    pub(crate) mass: f32,
    pub(crate) flags: u32,
    /// Index into the oscillator table or [`NONE`].
    pub(crate) oscillator: u32,
    /// Body index or [`NONE`] (informational).
    pub(crate) body: u32,
    pub(crate) pad0: u32,
}

/// One spring as the host keeps it, in model order (not a device mirror).
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct GpuSpring {
    pub(crate) a: u32,
    pub(crate) b: u32,
    /// `f32` bits of the rest length (m), or the actuator index for an actuated spring.
    pub(crate) rest: u32,
    /// Material index.
    pub(crate) material: u32,
    /// Whether an actuator drives the spring.
    pub(crate) actuated: bool,
}

/// One spring of the device's link table, 8 bytes: the springs are stored grouped by their first
/// mass `a` (which the table does not repeat; `runs[a]` = (first, end) link of its
/// springs). Mirror of WGSL `GpuLink`.
#[repr(C)]
#[derive(Clone, Copy, Debug, Default, Pod, Zeroable)]
pub(crate) struct GpuLink {
    /// The second mass, or'ed with [`LINK_ACTUATED`].
    pub(crate) b: u32,
    /// `f32` bits of the rest length (m), or the actuator index for an actuated spring.
    pub(crate) rest: u32,
}

/// Which masses and which part of the link table a spring-pass dispatch covers (uniform). Mirror
/// of WGSL `GpuChunk`.
#[repr(C)]
#[derive(Clone, Copy, Debug, Default, Pod, Zeroable)]
pub(crate) struct GpuChunk {
    /// Index of the first link bound (the binding starts there), in link-table order.
    pub(crate) first: u32,
    /// First mass whose springs this dispatch handles.
    pub(crate) first_mass: u32,
    /// One past the last such mass.
    pub(crate) end_mass: u32,
    pub(crate) pad0: u32,
}

/// Spring material: (law, stiffness, damping), shared by every spring that has them.
/// Mirror of WGSL `GpuMaterial`.
#[repr(C)]
#[derive(Clone, Copy, Debug, Default, Pod, Zeroable)]
pub(crate) struct GpuMaterial {
    /// N/m (Hooke, zero length) or N (material law).
    pub(crate) stiffness: f32,
    /// N*s/m.
    pub(crate) damping: f32,
    pub(crate) law: u32,
    pub(crate) pad0: u32,
}

/// Mirror of WGSL `GpuActuator`.
#[repr(C)]
#[derive(Clone, Copy, Debug, Default, Pod, Zeroable)]
pub(crate) struct GpuActuator {
    /// Base rest length, m.
    pub(crate) base: f32,
    pub(crate) amplitude: f32,
    /// rad/s.
    pub(crate) omega: f32,
    /// `2 pi phase`, rad.
    pub(crate) phase: f32,
    /// Duty-cycle active time, s (0: no duty cycle).
    pub(crate) duty_active: f32,
    /// Duty-cycle rest time, s.
    pub(crate) duty_rest: f32,
    /// Duty-cycle offset, s.
    pub(crate) duty_offset: f32,
    /// Rest length set by the last step, m.
    pub(crate) current: f32,
}

/// Mirror of WGSL `GpuOscillator`.
#[repr(C)]
#[derive(Clone, Copy, Debug, Default, Pod, Zeroable)]
pub(crate) struct GpuOscillator {
    pub(crate) min: f32,
    pub(crate) max: f32,
    /// rad/s.
    pub(crate) omega: f32,
    /// rad.
    pub(crate) phase: f32,
}

/// Mirror of WGSL `GpuBody`.
#[repr(C)]
#[derive(Clone, Copy, Debug, Default, Pod, Zeroable)]
pub(crate) struct GpuBody {
    pub(crate) first: u32,
    pub(crate) count: u32,
}

const _: () = assert!(std::mem::size_of::<GpuParams>() == 96);
const _: () = assert!(std::mem::size_of::<GpuStep>() == 16);
const _: () = assert!(std::mem::size_of::<GpuMass>() == 32);
const _: () = assert!(std::mem::size_of::<GpuLink>() == 8);
const _: () = assert!(std::mem::size_of::<GpuMaterial>() == 16);
const _: () = assert!(std::mem::size_of::<GpuChunk>() == 16);
const _: () = assert!(std::mem::size_of::<GpuActuator>() == 32);
const _: () = assert!(std::mem::size_of::<GpuOscillator>() == 16);
const _: () = assert!(std::mem::size_of::<GpuBody>() == 8);
const _: () = assert!(WORKGROUP_SIZE.is_power_of_two() && CPU_WORKGROUP_SIZE.is_power_of_two());

/// A mirror's WGSL name, size in bytes and `(field, offset)` list.
#[cfg(test)]
pub(crate) type Mirror = (&'static str, usize, Vec<(&'static str, usize)>);

/// Size in bytes and field offsets of each mirror, by WGSL struct name, for the layout test.
#[cfg(test)]
pub(crate) fn mirrors() -> Vec<Mirror> {
    use std::mem::{offset_of, size_of};
    macro_rules! mirror {
        ($t:ident { $($f:ident),* }) => {
            (stringify!($t), size_of::<$t>(), vec![$((stringify!($f), offset_of!($t, $f))),*])
        };
    }
    vec![
        mirror!(GpuParams {
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
            pad0
        }),
        mirror!(GpuStep {
            time,
            index,
            pad0,
            pad1
        }),
        mirror!(GpuMass {
            external_force,
            mass,
            flags,
            oscillator,
            body,
            pad0
        }),
        mirror!(GpuLink { b, rest }),
        mirror!(GpuMaterial {
            stiffness,
            damping,
            law,
            pad0
        }),
        mirror!(GpuChunk {
            first,
            first_mass,
            end_mass,
            pad0
        }),
        mirror!(GpuActuator {
            base,
            amplitude,
            omega,
            phase,
            duty_active,
            duty_rest,
            duty_offset,
            current
        }),
        mirror!(GpuOscillator {
            min,
            max,
            omega,
            phase
        }),
        mirror!(GpuBody { first, count }),
    ]
}

/// What the pipelines of one World are specialised to (WGSL overrides).
#[derive(Clone, Copy, Debug)]
pub(crate) struct Specialization {
    /// Quanta per newton of the fixed-point encoding.
    pub(crate) fixed_scale: f64,
    /// Largest force component one spring may scatter, N.
    pub(crate) spring_force_limit: f64,
    /// Book dissipated and injected energy.
    pub(crate) track_energy: bool,
    /// The one material every spring shares, if there is only one.
    pub(crate) uniform_material: Option<GpuMaterial>,
    /// Whether any spring is driven by an actuator.
    pub(crate) has_actuators: bool,
    /// Whether any mass has a friction oscillator.
    pub(crate) has_oscillators: bool,
    /// Whether 32-bit force sums are packed in 64-bit atomics.
    pub(crate) packed_forces: bool,
    /// Work per invocation.
    pub(crate) granularity: Granularity,
}

/// The WGSL `override` constants, by name, passed to every pipeline.
pub(crate) fn constants(spec: &Specialization) -> Vec<(&'static str, f64)> {
    let material = spec.uniform_material.unwrap_or_default();
    vec![
        ("WORKGROUP_SIZE", f64::from(spec.granularity.workgroup_size)),
        (
            "SPRING_MASSES_PER_INVOCATION",
            f64::from(spec.granularity.spring_masses_per_invocation),
        ),
        (
            "MASSES_PER_INVOCATION",
            f64::from(spec.granularity.masses_per_invocation),
        ),
        ("LANE_GROUP", f64::from(LANE_GROUP)),
        ("FIXED_SCALE", spec.fixed_scale),
        ("SPRING_FORCE_LIMIT", spec.spring_force_limit),
        ("PACKED_FORCES", f64::from(u8::from(spec.packed_forces))),
        ("TRACK_ENERGY", f64::from(u8::from(spec.track_energy))),
        (
            "UNIFORM_MATERIAL",
            f64::from(u8::from(spec.uniform_material.is_some())),
        ),
        ("MATERIAL_STIFFNESS", f64::from(material.stiffness)),
        ("MATERIAL_DAMPING", f64::from(material.damping)),
        ("MATERIAL_LAW", f64::from(material.law)),
        ("HAS_ACTUATORS", f64::from(u8::from(spec.has_actuators))),
        ("HAS_OSCILLATORS", f64::from(u8::from(spec.has_oscillators))),
        ("MASS_FIXED", f64::from(MASS_FIXED)),
        ("LINK_ACTUATED", f64::from(LINK_ACTUATED)),
        ("LAW_HOOKE", f64::from(LAW_HOOKE)),
        ("LAW_MATERIAL", f64::from(LAW_MATERIAL)),
        ("LAW_ZERO_LENGTH", f64::from(LAW_ZERO_LENGTH)),
        ("CONTACT_NONE", f64::from(CONTACT_NONE)),
        ("CONTACT_PENALTY", f64::from(CONTACT_PENALTY)),
        ("CONTACT_RESTITUTION", f64::from(CONTACT_RESTITUTION)),
        (
            "INTEGRATOR_SEMI_IMPLICIT",
            f64::from(INTEGRATOR_SEMI_IMPLICIT),
        ),
        ("NONE", f64::from(NONE)),
        ("STATUS_BAD_STEP", f64::from(STATUS_BAD_STEP)),
        ("STATUS_BAD_MASS", f64::from(STATUS_BAD_MASS)),
        ("STATUS_OVERFLOW_STEP", f64::from(STATUS_OVERFLOW_STEP)),
        ("STATUS_OVERFLOW_SPRING", f64::from(STATUS_OVERFLOW_SPRING)),
    ]
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::gpu::pipelines::{bindings, kernel_file, source, KERNELS, SPRINGS_STENCIL};
    use crate::gpu::stencil::Stencil;

    /// The stencil variant of the spring pass for the SCENE lattice with n = 4 (13 offsets in
    /// five chains), with and without springs outside the stencil.
    fn stencil_sources() -> Vec<String> {
        let model = crate::builders::Lattice::scene(4).model().unwrap();
        let springs: Vec<GpuSpring> = model
            .springs
            .iter()
            .map(|s| GpuSpring {
                a: s.a,
                b: s.b,
                rest: (s.rest_length as f32).to_bits(),
                material: 0,
                actuated: false,
            })
            .collect();
        let material = GpuMaterial {
            stiffness: 1e4,
            damping: 1.0,
            law: LAW_HOOKE,
            pad0: 0,
        };
        let stencil = Stencil::find(&springs, model.masses.len(), &[material])
            .expect("the lattice is regular");
        assert_eq!(
            stencil.offsets(),
            [1, 3, 4, 5, 11, 12, 13, 15, 16, 17, 19, 20, 21]
        );
        [false, true]
            .map(|remainder| stencil.wgsl(SPRINGS_STENCIL, springs.len() as u32, remainder))
            .to_vec()
    }

    /// Every kernel parses and validates with naga, for both atomic widths, and every WGSL
    /// mirror struct has the size and field offsets of its Rust twin. No GPU needed.
    #[test]
    fn wgsl_structs_match_rust_mirrors() {
        for (bits, wide, packed) in [
            (32, false, false),
            (32, true, false),
            (32, true, true),
            (64, true, false),
        ] {
            let mut kernels: Vec<(&str, &str, String)> = KERNELS
                .iter()
                .map(|&(stem, body)| (stem, stem, body.to_string()))
                .collect();
            for body in stencil_sources() {
                kernels.push(("springs", "springs_stencil", body));
            }
            for (stem, layout, body) in &kernels {
                let (stem, layout) = (*stem, *layout);
                let src = source(stem, body, bits, wide, packed);
                let module = naga::front::wgsl::parse_str(&src).unwrap_or_else(|e| {
                    panic!("{stem}.wgsl ({bits}-bit): {}", e.emit_to_string(&src))
                });
                let mut validator = naga::valid::Validator::new(
                    naga::valid::ValidationFlags::all(),
                    naga::valid::Capabilities::all(),
                );
                validator.validate(&module).unwrap_or_else(|e| {
                    panic!("{stem}.wgsl ({bits}-bit): {}", e.emit_to_string(&src))
                });
                assert!(
                    module.entry_points.iter().any(|e| e.name == stem),
                    "{stem}.wgsl has no entry point named {stem}"
                );
                let mut layouter = naga::proc::Layouter::default();
                layouter.update(module.to_ctx()).unwrap();
                for (name, size, fields) in mirrors() {
                    let Some((handle, ty)) = module
                        .types
                        .iter()
                        .find(|(_, t)| t.name.as_deref() == Some(name))
                    else {
                        continue;
                    };
                    assert_eq!(layouter[handle].size as usize, size, "size of {name}");
                    let naga::TypeInner::Struct { members, .. } = &ty.inner else {
                        panic!("{name} is not a struct");
                    };
                    let wgsl: Vec<(String, usize)> = members
                        .iter()
                        .map(|m| (m.name.clone().unwrap_or_default(), m.offset as usize))
                        .collect();
                    let rust: Vec<(String, usize)> =
                        fields.iter().map(|(f, o)| (f.to_string(), *o)).collect();
                    assert_eq!(wgsl, rust, "fields of {name}");
                }
                // The bindings Rust builds match the WGSL declarations of group 0.
                let declared = module
                    .global_variables
                    .iter()
                    .filter(|(_, g)| g.binding.as_ref().is_some_and(|b| b.group == 0))
                    .count();
                assert_eq!(declared, bindings(layout).len(), "bindings of {layout}");
            }
        }
    }

    /// Every override the shaders declare is supplied by `constants`, and nothing more (both
    /// variants of the spring pass, which between them include every shared file).
    #[test]
    fn overrides_match_constants() {
        let spec = Specialization {
            fixed_scale: 1.0,
            spring_force_limit: 1.0,
            track_energy: true,
            uniform_material: None,
            has_actuators: true,
            has_oscillators: true,
            packed_forces: false,
            granularity: Granularity::for_device(wgpu::DeviceType::Cpu, 1 << 30),
        };
        let mut given: Vec<String> = constants(&spec)
            .iter()
            .map(|(n, _)| n.to_string())
            .collect();
        given.sort();
        for body in [kernel_file("springs").to_string()]
            .into_iter()
            .chain(stencil_sources())
        {
            let src = source("springs", &body, 32, false, false);
            let module = naga::front::wgsl::parse_str(&src).unwrap();
            let mut declared: Vec<String> = module
                .overrides
                .iter()
                .filter_map(|(_, o)| o.name.clone())
                .collect();
            declared.sort();
            assert_eq!(declared, given);
        }
    }
}
