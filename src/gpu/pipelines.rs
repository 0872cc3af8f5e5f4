//! Shader modules and compute pipelines: one WGSL file, entry point, label and field per kernel.

use super::layout;

/// The shared WGSL prelude (structs, overrides, helpers).
pub(crate) const COMMON: &str = include_str!("../../shaders/common.wgsl");

/// Helpers of the kernels that walk the spring table, prepended after [`COMMON`] for them.
pub(crate) const SPRING_COMMON: &str = include_str!("../../shaders/spring_common.wgsl");

/// How the spring and integrate passes access 16-byte records: as two 64-bit words (devices with `SHADER_INT64`)
/// or as four 32-bit words.
pub(crate) const WORDS_WIDE: &str = include_str!("../../shaders/words_wide.wgsl");
pub(crate) const WORDS_NARROW: &str = include_str!("../../shaders/words_narrow.wgsl");

/// The bindings and per-spring helpers of both variants of the spring pass, prepended after the
/// scatter file.
pub(crate) const SPRING_PASS: &str = include_str!("../../shaders/spring_pass.wgsl");

/// The stencil variant of the spring pass, a template whose `//@` lines
/// [`super::stencil::Stencil::wgsl`] generates.
pub(crate) const SPRINGS_STENCIL: &str = include_str!("../../shaders/springs_stencil.wgsl");

/// The spring pass's force-sum binding and `scatter`: one atomic per component, or 32-bit x and y
/// packed in one 64-bit atomic.
pub(crate) const SCATTER_WORDS: &str = include_str!("../../shaders/scatter_words.wgsl");
pub(crate) const SCATTER_PACKED: &str = include_str!("../../shaders/scatter_packed.wgsl");

/// The kernels, by stem: `shaders/<stem>.wgsl`, entry point `<stem>`, label `hooke::<stem>`.
pub(crate) const KERNELS: [(&str, &str); 6] = [
    ("springs", include_str!("../../shaders/springs.wgsl")),
    ("integrate", include_str!("../../shaders/integrate.wgsl")),
    (
        "energy_masses",
        include_str!("../../shaders/energy_masses.wgsl"),
    ),
    (
        "energy_springs",
        include_str!("../../shaders/energy_springs.wgsl"),
    ),
    ("bodies", include_str!("../../shaders/bodies.wgsl")),
    ("publish", include_str!("../../shaders/publish.wgsl")),
];

/// The WGSL of kernel `stem` as `shaders/<stem>.wgsl` has it.
pub(crate) fn kernel_file(stem: &str) -> &'static str {
    KERNELS
        .iter()
        .find(|(s, _)| *s == stem)
        .map(|(_, src)| *src)
        .expect("unknown kernel stem")
}

/// The full WGSL source of kernel `stem` whose own file is `body`, with fixed-point integers of
/// `bits` bits, reading records as 64-bit words when `wide` (the device has `SHADER_INT64`), and
/// 32-bit force sums packed in 64-bit atomics when `packed`.
pub(crate) fn source(stem: &str, body: &str, bits: u32, wide: bool, packed: bool) -> String {
    let alias = if bits == 64 { "i64" } else { "i32" };
    let springs = if stem == "springs" || stem == "energy_springs" {
        SPRING_COMMON
    } else {
        ""
    };
    let words = match (stem, wide) {
        ("springs" | "energy_springs" | "integrate" | "publish", true) => WORDS_WIDE,
        ("springs" | "energy_springs" | "integrate" | "publish", false) => WORDS_NARROW,
        _ => "",
    };
    let scatter = match (stem, packed) {
        ("springs", true) => SCATTER_PACKED,
        ("springs", false) => SCATTER_WORDS,
        _ => "",
    };
    let pass = if stem == "springs" { SPRING_PASS } else { "" };
    format!("alias Fixed = {alias};\n{COMMON}\n{springs}\n{words}\n{scatter}\n{pass}\n{body}")
}

/// What a binding of a kernel holds.
#[derive(Clone, Copy)]
pub(crate) enum Slot {
    Uniform,
    Read,
    ReadWrite,
}

/// The bindings of group 0 of each kernel, in binding order (mirrors the WGSL declarations).
pub(crate) fn bindings(stem: &str) -> &'static [Slot] {
    use Slot::{Read, ReadWrite, Uniform};
    match stem {
        "springs" => &[
            Uniform, Read, Read, Read, ReadWrite, Read, Read, ReadWrite, ReadWrite, ReadWrite,
            Uniform,
        ],
        // The stencil variant adds its table of rest lengths.
        "springs_stencil" => &[
            Uniform, Read, Read, Read, ReadWrite, Read, Read, ReadWrite, ReadWrite, ReadWrite,
            Uniform, Read,
        ],
        "integrate" => &[
            Uniform, Read, Read, ReadWrite, ReadWrite, ReadWrite, ReadWrite,
        ],
        "energy_masses" => &[Uniform, Read, Read, Read, Read, ReadWrite],
        "energy_springs" => &[
            Uniform, Read, Read, Read, Read, Read, Read, Read, ReadWrite, Uniform,
        ],
        "bodies" => &[Uniform, Read, Read, Read, Read, ReadWrite],
        "publish" => &[Uniform, Read, ReadWrite, ReadWrite],
        _ => unreachable!("unknown kernel stem {stem}"),
    }
}

/// One compute pipeline and its group-0 layout.
#[derive(Debug)]
pub(crate) struct Kernel {
    pub(crate) pipeline: wgpu::ComputePipeline,
    pub(crate) layout: wgpu::BindGroupLayout,
}

/// Every pipeline of a World.
#[derive(Debug)]
pub(crate) struct Pipelines {
    pub(crate) springs: Kernel,
    pub(crate) integrate: Kernel,
    pub(crate) energy_masses: Kernel,
    pub(crate) energy_springs: Kernel,
    pub(crate) bodies: Kernel,
    pub(crate) publish: Kernel,
    /// Group 1 of `springs` and `integrate`: the per-step uniform with a dynamic offset.
    pub(crate) step_layout: wgpu::BindGroupLayout,
}

impl Pipelines {
    pub(crate) fn new(
        device: &wgpu::Device,
        bits: u32,
        packed: bool,
        constants: &[(&str, f64)],
        stencil: Option<&str>,
    ) -> Self {
        let wide = device.features().contains(wgpu::Features::SHADER_INT64);
        let step_layout = device.create_bind_group_layout(&wgpu::BindGroupLayoutDescriptor {
            label: Some("hooke::step"),
            entries: &[wgpu::BindGroupLayoutEntry {
                binding: 0,
                visibility: wgpu::ShaderStages::COMPUTE,
                ty: wgpu::BindingType::Buffer {
                    ty: wgpu::BufferBindingType::Uniform,
                    has_dynamic_offset: true,
                    min_binding_size: wgpu::BufferSize::new(
                        std::mem::size_of::<layout::GpuStep>() as u64
                    ),
                },
                count: None,
            }],
        });
        // `layout` names the bindings (`springs_stencil` for the stencil variant), `body` the
        // kernel's own WGSL.
        let kernel = |stem: &'static str, layout: &str, body: &str, stepped: bool| {
            let label = format!("hooke::{layout}");
            let entries: Vec<wgpu::BindGroupLayoutEntry> = bindings(layout)
                .iter()
                .enumerate()
                .map(|(i, slot)| wgpu::BindGroupLayoutEntry {
                    binding: i as u32,
                    visibility: wgpu::ShaderStages::COMPUTE,
                    ty: wgpu::BindingType::Buffer {
                        ty: match slot {
                            Slot::Uniform => wgpu::BufferBindingType::Uniform,
                            Slot::Read => wgpu::BufferBindingType::Storage { read_only: true },
                            Slot::ReadWrite => {
                                wgpu::BufferBindingType::Storage { read_only: false }
                            }
                        },
                        has_dynamic_offset: false,
                        min_binding_size: None,
                    },
                    count: None,
                })
                .collect();
            let layout = device.create_bind_group_layout(&wgpu::BindGroupLayoutDescriptor {
                label: Some(&label),
                entries: &entries,
            });
            let groups: Vec<Option<&wgpu::BindGroupLayout>> = if stepped {
                vec![Some(&layout), Some(&step_layout)]
            } else {
                vec![Some(&layout)]
            };
            let pipeline_layout = device.create_pipeline_layout(&wgpu::PipelineLayoutDescriptor {
                label: Some(&label),
                bind_group_layouts: &groups,
                immediate_size: 0,
            });
            let module = device.create_shader_module(wgpu::ShaderModuleDescriptor {
                label: Some(&label),
                source: wgpu::ShaderSource::Wgsl(source(stem, body, bits, wide, packed).into()),
            });
            let pipeline = device.create_compute_pipeline(&wgpu::ComputePipelineDescriptor {
                label: Some(&label),
                layout: Some(&pipeline_layout),
                module: &module,
                entry_point: Some(stem),
                compilation_options: wgpu::PipelineCompilationOptions {
                    constants,
                    zero_initialize_workgroup_memory: false,
                },
                cache: None,
            });
            Kernel { pipeline, layout }
        };
        let plain =
            |stem: &'static str, stepped: bool| kernel(stem, stem, kernel_file(stem), stepped);
        Self {
            springs: match stencil {
                Some(body) => kernel("springs", "springs_stencil", body, true),
                None => plain("springs", true),
            },
            integrate: plain("integrate", true),
            energy_masses: plain("energy_masses", false),
            energy_springs: plain("energy_springs", false),
            bodies: plain("bodies", false),
            publish: plain("publish", false),
            step_layout,
        }
    }
}
