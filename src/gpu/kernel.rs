//! What a kernel is made of and how it becomes a pipeline: its [`KernelSource`] (its own file
//! `shaders/<stem>.wgsl` after the shared fragments of `shaders/shared/` it uses, its entry
//! point and its bindings), the bind group layout and bind groups of a binding list, and the
//! compute pipeline. Each kernel's source, bindings and bind group are in its own module of
//! `kernels/`; this file is the machinery they share.

use crate::gpu::layout::GpuStep;
use crate::gpu::obstacles::shape_wgsl;
use crate::gpu::real::Precision;

/// A WGSL fragment of `shaders/shared/`, prepended to the kernels whose [`KernelSource`] lists
/// it.
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

/// One kernel: `shaders/<stem>.wgsl`, entry point `<stem>`, label `hooke::<stem>`, declared
/// in `kernels/<stem>.rs` (or its family's module) as `SOURCE`.
#[derive(Debug)]
pub(crate) struct KernelSource {
    pub(crate) stem: &'static str,
    /// The shared fragments it uses, in order, before its own file.
    pub(crate) fragments: &'static [Fragment],
    /// Its own file.
    pub(crate) body: &'static str,
    /// Whether it binds the per-step uniform as group 1.
    pub(crate) stepped: bool,
    /// What each binding of group 0 holds, in binding order; a unit test compares them with
    /// the WGSL declarations (`layout/tests.rs`).
    pub(crate) bindings: &'static [Slot],
    /// WGSL `u32` constants generated for it from Rust values: (name, value), appended to its
    /// source (module-scope declarations may follow their use).
    pub(crate) consts: &'static [(&'static str, u32)],
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
        if *fragment == Fragment::Obstacles {
            // The shape tags, from their one Rust list.
            out.push_str(&shape_wgsl());
        }
        out.push_str(fragment.wgsl(compile.wide, compile.packed, compile.precision));
        out.push('\n');
    }
    out.push_str(body);
    for (name, value) in kernel.consts {
        out.push_str(&format!("\nconst {name}: u32 = {value}u;"));
    }
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

/// The group-0 bind group layout entries of a kernel whose bindings hold `slots`.
pub(crate) fn entries(slots: &[Slot]) -> Vec<wgpu::BindGroupLayoutEntry> {
    slots
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
    /// The WGSL overrides ([`crate::gpu::layout::constants`]).
    pub(crate) constants: &'a [(&'a str, f64)],
}

/// The bind group layout of group 0 of a kernel whose bindings hold `slots`, labelled `label`.
pub(crate) fn group_layout(
    device: &wgpu::Device,
    label: &str,
    slots: &[Slot],
) -> wgpu::BindGroupLayout {
    device.create_bind_group_layout(&wgpu::BindGroupLayoutDescriptor {
        label: Some(label),
        entries: &entries(slots),
    })
}

/// The layout of group 1 of the stepped kernels: the per-step uniform in `precision`.
pub(crate) fn step_layout(device: &wgpu::Device, precision: Precision) -> wgpu::BindGroupLayout {
    device.create_bind_group_layout(&wgpu::BindGroupLayoutDescriptor {
        label: Some("hooke::step"),
        entries: &[step_entry(precision)],
    })
}

/// A bind group of `layout` with `resources` at bindings 0, 1, ...
pub(crate) fn bind(
    device: &wgpu::Device,
    layout: &wgpu::BindGroupLayout,
    label: &str,
    resources: Vec<wgpu::BindingResource<'_>>,
) -> wgpu::BindGroup {
    let entries: Vec<wgpu::BindGroupEntry> = resources
        .into_iter()
        .enumerate()
        .map(|(i, resource)| wgpu::BindGroupEntry {
            binding: i as u32,
            resource,
        })
        .collect();
    device.create_bind_group(&wgpu::BindGroupDescriptor {
        label: Some(label),
        layout,
        entries: &entries,
    })
}

/// Whole buffers as bindings.
pub(crate) fn whole<'a>(buffers: &[&'a wgpu::Buffer]) -> Vec<wgpu::BindingResource<'a>> {
    buffers.iter().map(|b| b.as_entire_binding()).collect()
}

/// `size` bytes of `buffer` from `offset`, as a binding.
pub(crate) fn range(buffer: &wgpu::Buffer, offset: u64, size: u64) -> wgpu::BindingResource<'_> {
    wgpu::BindingResource::Buffer(wgpu::BufferBinding {
        buffer,
        offset,
        size: wgpu::BufferSize::new(size),
    })
}

/// The pipeline of `kernel` with `body` as its own file (its file, or a generated variant),
/// its group 0 bound as `group0` and, when it is stepped, group 1 as `step_layout`; labelled
/// `hooke::<label>`.
pub(crate) fn pipeline(
    device: &wgpu::Device,
    compile: &Compile<'_>,
    kernel: &KernelSource,
    label: &str,
    body: &str,
    group0: &wgpu::BindGroupLayout,
    step_layout: &wgpu::BindGroupLayout,
) -> wgpu::ComputePipeline {
    let label = format!("hooke::{label}");
    let groups: Vec<Option<&wgpu::BindGroupLayout>> = if kernel.stepped {
        vec![Some(group0), Some(step_layout)]
    } else {
        vec![Some(group0)]
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
    device.create_compute_pipeline(&wgpu::ComputePipelineDescriptor {
        label: Some(&label),
        layout: Some(&pipeline_layout),
        module: &module,
        entry_point: Some(kernel.stem),
        compilation_options: wgpu::PipelineCompilationOptions {
            constants: compile.constants,
            zero_initialize_workgroup_memory: false,
        },
        cache: None,
    })
}

/// One compute pipeline and its group-0 layout, for the kernels a World compiles on first use
/// (the sensors').
#[derive(Debug)]
pub(crate) struct Kernel {
    pub(crate) pipeline: wgpu::ComputePipeline,
    pub(crate) layout: wgpu::BindGroupLayout,
}

impl Kernel {
    /// `kernel` compiled with its own file, its layout made from its bindings.
    pub(crate) fn new(
        device: &wgpu::Device,
        compile: &Compile<'_>,
        kernel: &KernelSource,
        step_layout: &wgpu::BindGroupLayout,
    ) -> Self {
        let layout = group_layout(device, &format!("hooke::{}", kernel.stem), kernel.bindings);
        let pipeline = pipeline(
            device,
            compile,
            kernel,
            kernel.stem,
            kernel.body,
            &layout,
            step_layout,
        );
        Self { pipeline, layout }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
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
