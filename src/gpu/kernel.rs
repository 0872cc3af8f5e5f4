//! Shader modules and compute pipelines: one WGSL file, entry point, label and field per kernel.
//!
//! A kernel's source is its own file `shaders/<stem>.wgsl` after the shared fragments of
//! `shaders/shared/` it uses, listed once per kernel in [`KERNELS`].

use super::layout::GpuStep;
use super::real::Precision;

/// A WGSL fragment of `shaders/shared/`, prepended to the kernels that list it in [`KERNELS`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Fragment {
    /// `common.wgsl`: the overrides, the `Gpu*` mirrors and helpers every kernel uses.
    Common,
    /// `spring_common.wgsl`: helpers of the kernels that walk the link table.
    SpringCommon,
    /// In f32, `words_wide.wgsl` on devices with `SHADER_INT64`, else `words_narrow.wgsl`; in
    /// f64, `words_f64.wgsl`: how 16-byte records, links and states are read.
    Words,
    /// `scatter_packed.wgsl` when 32-bit force sums ride in 64-bit atomics, else
    /// `scatter_words.wgsl`: the force-sum binding and `scatter`.
    Scatter,
    /// `spring_pass.wgsl`: the bindings and per-spring helpers of both spring-pass variants.
    SpringPass,
    /// `integrate_mass.wgsl`: the per-mass update of the integrate pass (`ground`,
    /// `integrate_mass`).
    IntegrateMass,
    /// `obstacles.wgsl`: the friction rule, the obstacle table's record, each shape's distance
    /// and normal, contact with the obstacles and their penalty energy.
    Obstacles,
    /// `collisions.wgsl`: the collision kernels' bindings, records, grid and pair force.
    Collisions,
    /// `sense.wgsl`: the sensor kernels' bindings and layout.
    Sense,
}

impl Fragment {
    /// The WGSL of this fragment for records read as 64-bit words when `wide`, 32-bit force sums
    /// packed in 64-bit atomics when `packed`, and kernels computing in `precision`.
    fn wgsl(self, wide: bool, packed: bool, precision: Precision) -> &'static str {
        match self {
            Self::Common => include_str!("../../shaders/shared/common.wgsl"),
            Self::SpringCommon => include_str!("../../shaders/shared/spring_common.wgsl"),
            Self::Words if precision == Precision::F64 => {
                include_str!("../../shaders/shared/words_f64.wgsl")
            }
            Self::Words if wide => include_str!("../../shaders/shared/words_wide.wgsl"),
            Self::Words => include_str!("../../shaders/shared/words_narrow.wgsl"),
            Self::Scatter if packed => include_str!("../../shaders/shared/scatter_packed.wgsl"),
            Self::Scatter => include_str!("../../shaders/shared/scatter_words.wgsl"),
            Self::SpringPass => include_str!("../../shaders/shared/spring_pass.wgsl"),
            Self::IntegrateMass => include_str!("../../shaders/shared/integrate_mass.wgsl"),
            Self::Obstacles => include_str!("../../shaders/shared/obstacles.wgsl"),
            Self::Collisions => include_str!("../../shaders/shared/collisions.wgsl"),
            Self::Sense => include_str!("../../shaders/shared/sense.wgsl"),
        }
    }
}

/// One kernel: `shaders/<stem>.wgsl`, entry point `<stem>`, label `hooke::<stem>`, the
/// [`Pipelines`] field `<stem>`.
#[derive(Debug)]
pub(crate) struct KernelSource {
    pub(crate) stem: &'static str,
    /// The shared fragments it uses, in order, before its own file.
    pub(crate) fragments: &'static [Fragment],
    /// Its own file.
    pub(crate) body: &'static str,
    /// Whether it binds the per-step uniform as group 1.
    pub(crate) stepped: bool,
}

/// A kernel of the collision pass (they share one fragment and one bind group layout).
const fn collision_kernel(stem: &'static str, body: &'static str) -> KernelSource {
    KernelSource {
        stem,
        fragments: &[Fragment::Common, Fragment::Words, Fragment::Collisions],
        body,
        stepped: false,
    }
}

/// The collision pass's kernels, in the order one step dispatches them.
pub(crate) const COLLISION_STEMS: [&str; 8] = [
    "grid_bounds",
    "grid_frame",
    "grid_count",
    "grid_scan",
    "grid_scan_blocks",
    "grid_scatter",
    "grid_sort",
    "collide",
];

/// The kernels, and which shared fragments each uses.
pub(crate) const KERNELS: [KernelSource; 16] = {
    use Fragment::{
        Common, IntegrateMass, Obstacles, Scatter, Sense, SpringCommon, SpringPass, Words,
    };
    [
        KernelSource {
            stem: "springs",
            fragments: &[Common, SpringCommon, Words, Scatter, SpringPass],
            body: include_str!("../../shaders/springs.wgsl"),
            stepped: true,
        },
        KernelSource {
            stem: "integrate",
            fragments: &[Common, Words, Obstacles, IntegrateMass],
            body: include_str!("../../shaders/integrate.wgsl"),
            stepped: true,
        },
        KernelSource {
            stem: "energy_masses",
            fragments: &[Common, Obstacles],
            body: include_str!("../../shaders/energy_masses.wgsl"),
            stepped: false,
        },
        KernelSource {
            stem: "energy_springs",
            fragments: &[Common, SpringCommon, Words],
            body: include_str!("../../shaders/energy_springs.wgsl"),
            stepped: false,
        },
        KernelSource {
            stem: "bodies",
            fragments: &[Common],
            body: include_str!("../../shaders/bodies.wgsl"),
            stepped: false,
        },
        KernelSource {
            stem: "publish",
            fragments: &[Common, Words],
            body: include_str!("../../shaders/publish.wgsl"),
            stepped: false,
        },
        collision_kernel(
            "grid_bounds",
            include_str!("../../shaders/grid_bounds.wgsl"),
        ),
        collision_kernel("grid_frame", include_str!("../../shaders/grid_frame.wgsl")),
        collision_kernel("grid_count", include_str!("../../shaders/grid_count.wgsl")),
        collision_kernel("grid_scan", include_str!("../../shaders/grid_scan.wgsl")),
        collision_kernel(
            "grid_scan_blocks",
            include_str!("../../shaders/grid_scan_blocks.wgsl"),
        ),
        collision_kernel(
            "grid_scatter",
            include_str!("../../shaders/grid_scatter.wgsl"),
        ),
        collision_kernel("grid_sort", include_str!("../../shaders/grid_sort.wgsl")),
        collision_kernel("collide", include_str!("../../shaders/collide.wgsl")),
        KernelSource {
            stem: "sense_bodies",
            fragments: &[Common, Sense],
            body: include_str!("../../shaders/sense_bodies.wgsl"),
            stepped: false,
        },
        KernelSource {
            stem: "sense_gather",
            fragments: &[Common, Sense],
            body: include_str!("../../shaders/sense_gather.wgsl"),
            stepped: false,
        },
    ]
};

/// The fused steps kernel: the fragments of `springs` and `integrate_mass`, then the stencil
/// variant generated for it ([`super::stencil::Stencil::wgsl`] with `fused`) and
/// [`STEPS_BODY`]. Not stepped: its step records are a storage table in group 0.
pub(crate) const STEPS: KernelSource = {
    use Fragment::{Common, IntegrateMass, Obstacles, Scatter, SpringCommon, SpringPass, Words};
    KernelSource {
        stem: "steps",
        fragments: &[
            Common,
            SpringCommon,
            Words,
            Scatter,
            SpringPass,
            Obstacles,
            IntegrateMass,
        ],
        body: "",
        stepped: false,
    }
};

/// `shaders/steps.wgsl`, appended to the generated stencil variant.
pub(crate) const STEPS_BODY: &str = include_str!("../../shaders/steps.wgsl");

/// The stencil variant of the `springs` kernel (same fragments, same entry point): a template
/// whose `//@` lines [`super::stencil::Stencil::wgsl`] generates.
pub(crate) const SPRINGS_STENCIL: &str = include_str!("../../shaders/springs_stencil.wgsl");

/// The kernel of stem `stem` (the fused steps kernel included).
pub(crate) fn kernel(stem: &str) -> &'static KernelSource {
    KERNELS
        .iter()
        .chain(std::iter::once(&STEPS))
        .find(|k| k.stem == stem)
        .expect("unknown kernel stem")
}

/// The full WGSL source of `kernel` with `body` as its own file (its file, or the generated
/// stencil variant), with fixed-point integers of `bits` bits, reading records as 64-bit words
/// when `wide` (the device has `SHADER_INT64`), and 32-bit force sums packed in 64-bit atomics
/// when `packed`. Every kernel computes in the type `Real`, which the first fragment,
/// [`real_fragment`] of `precision`, sets: one source for both precisions.
pub(crate) fn source(kernel: &KernelSource, body: &str, compile: &Compile<'_>) -> String {
    let alias = if compile.bits == 64 { "i64" } else { "i32" };
    let mut out = format!(
        "{}alias Fixed = {alias};\n",
        real_fragment(compile.precision)
    );
    for fragment in kernel.fragments {
        out.push_str(fragment.wgsl(compile.wide, compile.packed, compile.precision));
        out.push('\n');
    }
    out.push_str(body);
    out
}

/// The fragment that sets the kernels' real type (`alias Real = f32;` or `f64;`) and its sine
/// and cosine: `shaders/shared/real_f32.wgsl` or `real_f64.wgsl`.
pub(crate) fn real_fragment(precision: Precision) -> &'static str {
    match precision {
        Precision::F32 => include_str!("../../shaders/shared/real_f32.wgsl"),
        Precision::F64 => include_str!("../../shaders/shared/real_f64.wgsl"),
    }
}

/// What a binding of a kernel holds.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Slot {
    Uniform,
    Read,
    ReadWrite,
}

/// The bindings of group 0 of each kernel, in binding order (`springs_stencil` for the stencil
/// variant of `springs`); a unit test compares them with the WGSL declarations.
pub(crate) fn bindings(layout: &str) -> &'static [Slot] {
    use Slot::{Read, ReadWrite, Uniform};
    match layout {
        "springs" => &[
            Uniform, Read, Read, Read, ReadWrite, Read, Read, ReadWrite, ReadWrite, ReadWrite,
            Uniform, Read,
        ],
        // The stencil variant adds its table of rest lengths.
        "springs_stencil" => &[
            Uniform, Read, Read, Read, ReadWrite, Read, Read, ReadWrite, ReadWrite, ReadWrite,
            Uniform, Read, Read,
        ],
        // With the muscles set before the walk: the table is written, and the muscle lists.
        "springs_stencil_muscles" => &[
            Uniform, Read, Read, Read, ReadWrite, Read, Read, ReadWrite, ReadWrite, ReadWrite,
            Uniform, Read, ReadWrite, Read, Read,
        ],
        "integrate" => &[
            Uniform, Read, Read, ReadWrite, ReadWrite, ReadWrite, ReadWrite, Read, Read, Read,
            ReadWrite,
        ],
        // The fused steps kernel: the muscles variant's bindings with `state` written, then the
        // integrate pass's tables, the islands, the step table and the call uniform.
        "steps" => &[
            Uniform, Read, Read, Read, ReadWrite, Read, ReadWrite, ReadWrite, ReadWrite, ReadWrite,
            Uniform, Read, ReadWrite, Read, Read, Read, Read, Read, Read, Read, ReadWrite, Read,
            Read, Uniform,
        ],
        "energy_masses" => &[Uniform, Read, Read, Read, Read, ReadWrite, Read, Read, Read],
        "energy_springs" => &[
            Uniform, Read, Read, Read, Read, Read, Read, Read, ReadWrite, Uniform,
        ],
        "bodies" => &[Uniform, Read, Read, Read, Read, ReadWrite],
        "publish" => &[Uniform, Read, ReadWrite, ReadWrite],
        // Both sensor kernels: shared/sense.wgsl's bindings.
        "sense_bodies" | "sense_gather" => &[Read, Read, Read, Read, Read, Read, ReadWrite],
        // Every collision kernel: shared/collisions.wgsl's bindings.
        "grid_bounds" | "grid_frame" | "grid_count" | "grid_scan" | "grid_scan_blocks"
        | "grid_scatter" | "grid_sort" | "collide" => &[
            Uniform, Read, Read, Read, Read, ReadWrite, ReadWrite, ReadWrite, ReadWrite, ReadWrite,
            ReadWrite, Uniform,
        ],
        _ => unreachable!("unknown kernel layout {layout}"),
    }
}

/// The group-0 bind group layout entries Rust builds for `layout` (see [`bindings`]).
pub(crate) fn layout_entries(layout: &str) -> Vec<wgpu::BindGroupLayoutEntry> {
    bindings(layout)
        .iter()
        .enumerate()
        .map(|(i, slot)| wgpu::BindGroupLayoutEntry {
            binding: i as u32,
            visibility: wgpu::ShaderStages::COMPUTE,
            ty: wgpu::BindingType::Buffer {
                ty: match slot {
                    Slot::Uniform => wgpu::BufferBindingType::Uniform,
                    Slot::Read => wgpu::BufferBindingType::Storage { read_only: true },
                    Slot::ReadWrite => wgpu::BufferBindingType::Storage { read_only: false },
                },
                has_dynamic_offset: false,
                min_binding_size: None,
            },
            count: None,
        })
        .collect()
}

/// The group-1 layout entry of the stepped kernels: the per-step uniform in `precision`, bound
/// with a dynamic offset.
pub(crate) fn step_entry(precision: Precision) -> wgpu::BindGroupLayoutEntry {
    wgpu::BindGroupLayoutEntry {
        binding: 0,
        visibility: wgpu::ShaderStages::COMPUTE,
        ty: wgpu::BindingType::Buffer {
            ty: wgpu::BufferBindingType::Uniform,
            has_dynamic_offset: true,
            min_binding_size: wgpu::BufferSize::new(precision.bytes::<GpuStep>(1)),
        },
        count: None,
    }
}

/// One compute pipeline and its group-0 layout.
#[derive(Debug)]
pub(crate) struct Kernel {
    pub(crate) pipeline: wgpu::ComputePipeline,
    pub(crate) layout: wgpu::BindGroupLayout,
}

/// Every pipeline of a World, one field per kernel stem.
#[derive(Debug)]
pub(crate) struct Pipelines {
    pub(crate) springs: Kernel,
    pub(crate) integrate: Kernel,
    pub(crate) energy_masses: Kernel,
    pub(crate) energy_springs: Kernel,
    pub(crate) bodies: Kernel,
    pub(crate) publish: Kernel,
    /// The collision pass's kernels, in [`COLLISION_STEMS`] order, when a mass collides.
    pub(crate) collisions: Option<Vec<Kernel>>,
    /// The fused steps kernel, when the World fuses its steps (see `super::steps`).
    pub(crate) steps: Option<Kernel>,
    /// Group 1 of `springs` and `integrate`: the per-step uniform with a dynamic offset.
    pub(crate) step_layout: wgpu::BindGroupLayout,
}

/// How a World's kernels are compiled.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Compile<'a> {
    /// Fixed-point width, 32 or 64.
    pub(crate) bits: u32,
    /// Records read as 64-bit words.
    pub(crate) wide: bool,
    /// 32-bit force sums packed in 64-bit atomics.
    pub(crate) packed: bool,
    /// The kernels' real type.
    pub(crate) precision: Precision,
    /// The WGSL overrides ([`layout::constants`]).
    pub(crate) constants: &'a [(&'a str, f64)],
}

impl Pipelines {
    /// Compiles every kernel; `stencil` is the generated stencil variant of `springs` and its
    /// bind group layout, if the World runs it; `steps` the generated body of the fused steps
    /// kernel, if the World fuses its steps; the collision kernels when `collisions`.
    pub(crate) fn new(
        device: &wgpu::Device,
        compile: &Compile<'_>,
        stencil: Option<(&str, &str)>,
        steps: Option<&str>,
        collisions: bool,
    ) -> Self {
        let step_layout = device.create_bind_group_layout(&wgpu::BindGroupLayoutDescriptor {
            label: Some("hooke::step"),
            entries: &[step_entry(compile.precision)],
        });
        let build = |stem: &str, variant: Option<(&str, &str)>| {
            let kernel = kernel(stem);
            let (layout, body) = variant.unwrap_or((stem, kernel.body));
            build_kernel(device, compile, &step_layout, kernel, layout, body)
        };
        Self {
            springs: build("springs", stencil),
            integrate: build("integrate", None),
            energy_masses: build("energy_masses", None),
            energy_springs: build("energy_springs", None),
            bodies: build("bodies", None),
            publish: build("publish", None),
            collisions: collisions
                .then(|| COLLISION_STEMS.iter().map(|s| build(s, None)).collect()),
            steps: steps
                .map(|body| build_kernel(device, compile, &step_layout, &STEPS, "steps", body)),
            step_layout,
        }
    }
}

/// The pipeline of `kernel` with `body` as its own file, bound as `layout` (see [`bindings`]).
pub(crate) fn build_kernel(
    device: &wgpu::Device,
    compile: &Compile<'_>,
    step_layout: &wgpu::BindGroupLayout,
    kernel: &KernelSource,
    layout: &str,
    body: &str,
) -> Kernel {
    let label = format!("hooke::{layout}");
    let group0 = device.create_bind_group_layout(&wgpu::BindGroupLayoutDescriptor {
        label: Some(&label),
        entries: &layout_entries(layout),
    });
    let groups: Vec<Option<&wgpu::BindGroupLayout>> = if kernel.stepped {
        vec![Some(&group0), Some(step_layout)]
    } else {
        vec![Some(&group0)]
    };
    let pipeline_layout = device.create_pipeline_layout(&wgpu::PipelineLayoutDescriptor {
        label: Some(&label),
        bind_group_layouts: &groups,
        immediate_size: 0,
    });
    let wgsl = source(kernel, body, compile);
    let module = device.create_shader_module(wgpu::ShaderModuleDescriptor {
        label: Some(&label),
        source: wgpu::ShaderSource::Wgsl(wgsl.into()),
    });
    let pipeline = device.create_compute_pipeline(&wgpu::ComputePipelineDescriptor {
        label: Some(&label),
        layout: Some(&pipeline_layout),
        module: &module,
        entry_point: Some(kernel.stem),
        compilation_options: wgpu::PipelineCompilationOptions {
            constants: compile.constants,
            zero_initialize_workgroup_memory: false,
        },
        cache: None,
    });
    Kernel {
        pipeline,
        layout: group0,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::gpu::layout::{constants, GpuMaterial, Specialization};
    use crate::gpu::plan::Granularity;

    /// A specialisation that turns every optional branch on (actuators, commands, oscillators,
    /// obstacles, collisions, contacts), so that every line of every kernel is compiled.
    fn everything() -> Specialization {
        Specialization {
            fixed_scale: 2f64.powi(40),
            spring_force_limit: 1e6,
            track_energy: true,
            uniform_material: Some(GpuMaterial::default()),
            has_actuators: true,
            has_commands: true,
            has_oscillators: true,
            packed_forces: false,
            obstacles: 1,
            grid_origin: [0.0, 0.0],
            grid_inverse_cell: 1.0,
            grid_columns: 1,
            grid_rows: 1,
            collisions: true,
            contacts: true,
            granularity: Granularity::for_device(wgpu::DeviceType::Cpu, 1 << 16),
        }
    }

    /// Every kernel compiles to a pipeline in f64 on the test adapter (lavapipe: its SPIR-V
    /// compiler takes the f64 sine of real_f64.wgsl, `bitcast<f64>(u64)` and f64 overrides).
    /// Skipped, saying so, on an adapter without `SHADER_F64`.
    #[test]
    fn every_kernel_compiles_in_f64_on_the_device() {
        let (device, _queue) = crate::gpu::request_device().expect("a test adapter");
        if !device.features().contains(wgpu::Features::SHADER_F64) {
            eprintln!("skipped: {} has no SHADER_F64", device.adapter_info().name);
            return;
        }
        let constants = constants(&everything());
        let compile = Compile {
            bits: 64,
            wide: true,
            packed: false,
            precision: Precision::F64,
            constants: &constants,
        };
        let step_layout = device.create_bind_group_layout(&wgpu::BindGroupLayoutDescriptor {
            label: Some("hooke::step"),
            entries: &[step_entry(Precision::F64)],
        });
        for kernel in &KERNELS {
            let scope = device.push_error_scope(wgpu::ErrorFilter::Validation);
            let _ = build_kernel(
                &device,
                &compile,
                &step_layout,
                kernel,
                kernel.stem,
                kernel.body,
            );
            let error = pollster::block_on(scope.pop());
            assert!(error.is_none(), "{} in f64: {error:?}", kernel.stem);
        }
    }

    /// `sin_real` and `cos_real` of real_f64.wgsl run on the device in f64 and match the CPU's
    /// `sin` and `cos`. Bound: fdlibm's kernels err below 1 ulp on [-pi/4, pi/4]; for
    /// |x| <= 1e4 the reduction's multiples n < 2^14 make `n * PIO2_1` and `n * PIO2_2` exact, so
    /// the reduced argument is off by about 1 ulp of itself; the CPU's own result by up to 1 ulp:
    /// at most 4 ulp of 1, 4 * 2^-52. An f32 sine would be off by about 1e-8: the bound also shows
    /// the kernel computes in f64. Skipped, saying so, on an adapter without `SHADER_F64`.
    #[test]
    fn f64_sine_and_cosine_on_the_device_match_the_cpu() {
        use wgpu::util::DeviceExt;
        let (device, queue) = crate::gpu::request_device().expect("a test adapter");
        if !device.features().contains(wgpu::Features::SHADER_F64) {
            eprintln!("skipped: {} has no SHADER_F64", device.adapter_info().name);
            return;
        }
        let xs: Vec<f64> = (0..4096)
            .map(|i| (f64::from(i) - 2048.0) * 4.883 + 1e-3 * f64::from(i % 7))
            .chain([
                0.0,
                1e-9,
                -std::f64::consts::FRAC_PI_4,
                std::f64::consts::FRAC_PI_2,
                std::f64::consts::PI,
            ])
            .collect();
        let data: Vec<[f64; 2]> = xs.iter().map(|&x| [x, 0.0]).collect();
        let wgsl = format!(
            "{}\n@group(0) @binding(0) var<storage, read_write> data: array<vec2<f64>>;\n\
             @compute @workgroup_size(64)\n\
             fn main(@builtin(global_invocation_id) id: vec3<u32>) {{\n\
                 if id.x < arrayLength(&data) {{\n\
                     let x = data[id.x].x;\n\
                     data[id.x] = vec2<f64>(sin_real(x), cos_real(x));\n\
                 }}\n\
             }}\n",
            real_fragment(Precision::F64)
        );
        let module = device.create_shader_module(wgpu::ShaderModuleDescriptor {
            label: Some("hooke::test_sine"),
            source: wgpu::ShaderSource::Wgsl(wgsl.into()),
        });
        let pipeline = device.create_compute_pipeline(&wgpu::ComputePipelineDescriptor {
            label: Some("hooke::test_sine"),
            layout: None,
            module: &module,
            entry_point: Some("main"),
            compilation_options: wgpu::PipelineCompilationOptions::default(),
            cache: None,
        });
        let buffer = device.create_buffer_init(&wgpu::util::BufferInitDescriptor {
            label: Some("hooke::test_sine"),
            contents: bytemuck::cast_slice(&data),
            usage: wgpu::BufferUsages::STORAGE | wgpu::BufferUsages::COPY_SRC,
        });
        let bind = device.create_bind_group(&wgpu::BindGroupDescriptor {
            label: None,
            layout: &pipeline.get_bind_group_layout(0),
            entries: &[wgpu::BindGroupEntry {
                binding: 0,
                resource: buffer.as_entire_binding(),
            }],
        });
        let size = buffer.size();
        let staging = crate::gpu::readback::staging(&device, "hooke::test_sine", size);
        let bytes = crate::gpu::readback::read_back(&device, &queue, &staging, size, |enc, st| {
            let mut pass = enc.begin_compute_pass(&wgpu::ComputePassDescriptor::default());
            pass.set_pipeline(&pipeline);
            pass.set_bind_group(0, &bind, &[]);
            pass.dispatch_workgroups((xs.len() as u32).div_ceil(64), 1, 1);
            drop(pass);
            enc.copy_buffer_to_buffer(&buffer, 0, st, 0, size);
        })
        .unwrap();
        let out: &[[f64; 2]] = bytemuck::cast_slice(&bytes);
        let bound = 4.0 * f64::EPSILON;
        for (x, [s, c]) in xs.iter().zip(out) {
            assert!(
                (s - x.sin()).abs() <= bound,
                "sin({x}) = {s} on the device, {}",
                x.sin()
            );
            assert!(
                (c - x.cos()).abs() <= bound,
                "cos({x}) = {c} on the device, {}",
                x.cos()
            );
        }
    }
}
