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

/// The full WGSL source of kernel `stem` with fixed-point integers of `bits` bits, reading records
/// as 64-bit words when `wide` (the device has `SHADER_INT64`), and 32-bit force sums packed in
/// 64-bit atomics when `packed`.
pub(crate) fn source(stem: &str, bits: u32, wide: bool, packed: bool) -> String {
    let body = KERNELS
        .iter()
        .find(|(s, _)| *s == stem)
        .map(|(_, src)| *src)
        .expect("unknown kernel stem");
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
    format!("alias Fixed = {alias};\n{COMMON}\n{springs}\n{words}\n{scatter}\n{body}")
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
        let kernel = |stem: &'static str, stepped: bool| {
            let label = format!("hooke::{stem}");
            let entries: Vec<wgpu::BindGroupLayoutEntry> = bindings(stem)
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
                source: wgpu::ShaderSource::Wgsl(source(stem, bits, wide, packed).into()),
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
        Self {
            springs: kernel("springs", true),
            integrate: kernel("integrate", true),
            energy_masses: kernel("energy_masses", false),
            energy_springs: kernel("energy_springs", false),
            bodies: kernel("bodies", false),
            publish: kernel("publish", false),
            step_layout,
        }
    }
}
