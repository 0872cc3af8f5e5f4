//! The render shader's interface and its pipelines: the bind group layout (from one table,
//! [`BINDINGS`], that the naga test checks against the WGSL), the numbers shared with the WGSL
//! (passed as `override` constants), one pipeline per entry-point pair of shaders/render.wgsl,
//! and the order they are drawn in.

use std::mem::size_of;

use super::drawing::{ObstacleBuffers, MASS_FIXED};
use super::obstacle_mesh::{GpuObstacleVertex, GpuPlane};
use super::targets::{DEPTH_FORMAT, SAMPLES, TARGET_FORMAT};
use super::view::GpuView;
use super::{Drawing, Style};

/// The WGSL source of every render pass.
pub(super) const SHADER: &str = include_str!("../../shaders/render.wgsl");

/// How a binding of group 0 is declared in shaders/render.wgsl.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Binding {
    /// `var<uniform>`, read by vertex and fragment stages.
    Uniform,
    /// `var<storage, read>`, read by vertex stages.
    StorageRead,
}

/// The bindings of group 0, in binding order: WGSL variable name and kind. The bind group of
/// a draw gives the buffers in this order.
pub(super) const BINDINGS: [(&str, Binding); 8] = [
    ("view", Binding::Uniform),
    ("positions", Binding::StorageRead),
    ("springs", Binding::StorageRead),
    ("rest_lengths", Binding::StorageRead),
    ("mass_flags", Binding::StorageRead),
    ("triangles", Binding::StorageRead),
    ("overlay", Binding::StorageRead),
    ("surface", Binding::StorageRead),
];

/// The WGSL `override` constants of shaders/render.wgsl, by name: the numbers Rust owns.
pub(super) const CONSTANTS: [(&str, f64); 1] = [("MASS_FIXED", MASS_FIXED as f64)];

/// The layout of [`BINDINGS`].
pub(super) fn bind_group_layout(device: &wgpu::Device) -> wgpu::BindGroupLayout {
    let entries = BINDINGS.iter().zip(0u32..).map(|(&(_, kind), binding)| {
        let (visibility, ty, min_binding_size) = match kind {
            Binding::Uniform => (
                wgpu::ShaderStages::VERTEX_FRAGMENT,
                wgpu::BufferBindingType::Uniform,
                wgpu::BufferSize::new(size_of::<GpuView>() as u64),
            ),
            Binding::StorageRead => (
                wgpu::ShaderStages::VERTEX,
                wgpu::BufferBindingType::Storage { read_only: true },
                None,
            ),
        };
        wgpu::BindGroupLayoutEntry {
            binding,
            visibility,
            ty: wgpu::BindingType::Buffer {
                ty,
                has_dynamic_offset: false,
                min_binding_size,
            },
            count: None,
        }
    });
    device.create_bind_group_layout(&wgpu::BindGroupLayoutDescriptor {
        label: Some("hooke::render::drawing"),
        entries: &entries.collect::<Vec<_>>(),
    })
}

/// The pipelines, one per entry-point pair in shaders/render.wgsl.
#[derive(Debug)]
pub(super) struct Pipelines {
    ground: wgpu::RenderPipeline,
    spring_shadows: wgpu::RenderPipeline,
    mass_shadows: wgpu::RenderPipeline,
    faces: wgpu::RenderPipeline,
    surface: wgpu::RenderPipeline,
    springs: wgpu::RenderPipeline,
    masses: wgpu::RenderPipeline,
    overlay: wgpu::RenderPipeline,
    /// Scenes with obstacles: the ground with shadows from the map, planes, other obstacles.
    ground_shadowed: wgpu::RenderPipeline,
    planes: wgpu::RenderPipeline,
    obstacles: wgpu::RenderPipeline,
    /// The shadow map pass.
    pub(super) map: MapPipelines,
}

/// The pipelines of the shadow map pass (depth only, one sample), `shadow_map.rs`.
#[derive(Debug)]
pub(super) struct MapPipelines {
    pub(super) springs: wgpu::RenderPipeline,
    pub(super) masses: wgpu::RenderPipeline,
    pub(super) obstacles: wgpu::RenderPipeline,
    pub(super) planes: wgpu::RenderPipeline,
}

impl MapPipelines {
    fn new(maker: &Maker<'_>) -> Self {
        let make = |name, vertex, fragment, buffers| {
            maker.make(&Spec {
                name,
                vertex,
                fragment,
                buffers,
                state: MAP,
                target: Target::Map,
            })
        };
        Self {
            springs: make("hooke::render::map_springs", "map_springs_vs", None, &[]),
            masses: make(
                "hooke::render::map_masses",
                "map_masses_vs",
                Some("map_disc_fs"),
                &[],
            ),
            obstacles: make(
                "hooke::render::map_obstacles",
                "map_obstacles_vs",
                None,
                OBSTACLES,
            ),
            planes: make("hooke::render::map_planes", "map_planes_vs", None, PLANES),
        }
    }
}

/// How one pipeline treats depth and blends its colour.
#[derive(Clone, Copy)]
struct PassState {
    depth_write: bool,
    depth_compare: wgpu::CompareFunction,
    blend: Option<wgpu::BlendState>,
}

/// Drawn over what is there, depth neither tested nor written.
const OVER: PassState = PassState {
    depth_write: false,
    depth_compare: wgpu::CompareFunction::Always,
    blend: None,
};

/// Shadows: flattened onto the ground, darkest wins (`min` blending), no depth.
const SHADOW: PassState = PassState {
    blend: Some(wgpu::BlendState {
        color: MIN_BLEND,
        alpha: MIN_BLEND,
    }),
    ..OVER
};

/// Solid geometry: depth tested and written.
const SOLID: PassState = PassState {
    depth_write: true,
    depth_compare: wgpu::CompareFunction::LessEqual,
    blend: None,
};

const MIN_BLEND: wgpu::BlendComponent = wgpu::BlendComponent {
    src_factor: wgpu::BlendFactor::One,
    dst_factor: wgpu::BlendFactor::One,
    operation: wgpu::BlendOperation::Min,
};

/// The obstacle triangle list: `GpuObstacleVertex` (position, normal), WGSL `ObstacleIn`.
const OBSTACLE_VERTICES: wgpu::VertexBufferLayout<'static> = wgpu::VertexBufferLayout {
    array_stride: size_of::<GpuObstacleVertex>() as u64,
    step_mode: wgpu::VertexStepMode::Vertex,
    attributes: &wgpu::vertex_attr_array![0 => Float32x3, 1 => Float32x3],
};

/// One `GpuPlane` per instance, WGSL `PlaneIn`.
const PLANE_INSTANCES: wgpu::VertexBufferLayout<'static> = wgpu::VertexBufferLayout {
    array_stride: size_of::<GpuPlane>() as u64,
    step_mode: wgpu::VertexStepMode::Instance,
    attributes: &wgpu::vertex_attr_array![0 => Float32x4],
};

/// The vertex buffers of obstacle and plane pipelines.
const OBSTACLES: &[Option<wgpu::VertexBufferLayout<'static>>] = &[Some(OBSTACLE_VERTICES)];
const PLANES: &[Option<wgpu::VertexBufferLayout<'static>>] = &[Some(PLANE_INSTANCES)];

/// What a pipeline draws into.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Target {
    /// The image: [`SAMPLES`]x multisampled colour and depth; bind group 0 only.
    Image,
    /// The image, also reading the shadow map (bind group 1).
    ImageShadowed,
    /// The shadow map: depth only, one sample; bind group 0 only.
    Map,
}

/// One pipeline to make: entry points, vertex buffers, depth and blend state, target.
struct Spec<'a> {
    name: &'a str,
    vertex: &'a str,
    fragment: Option<&'a str>,
    buffers: &'a [Option<wgpu::VertexBufferLayout<'a>>],
    state: PassState,
    target: Target,
}

/// Makes pipelines of shaders/render.wgsl.
struct Maker<'a> {
    device: &'a wgpu::Device,
    module: wgpu::ShaderModule,
    plain: wgpu::PipelineLayout,
    shadowed: wgpu::PipelineLayout,
}

impl Maker<'_> {
    fn make(&self, spec: &Spec<'_>) -> wgpu::RenderPipeline {
        let compilation_options = wgpu::PipelineCompilationOptions {
            constants: &CONSTANTS,
            ..Default::default()
        };
        let map = spec.target == Target::Map;
        let color = [Some(wgpu::ColorTargetState {
            format: TARGET_FORMAT,
            blend: spec.state.blend,
            write_mask: wgpu::ColorWrites::ALL,
        })];
        let fragment = spec.fragment.map(|entry| wgpu::FragmentState {
            module: &self.module,
            entry_point: Some(entry),
            compilation_options: compilation_options.clone(),
            targets: if map { &[] } else { &color },
        });
        self.device
            .create_render_pipeline(&wgpu::RenderPipelineDescriptor {
                label: Some(spec.name),
                layout: Some(if spec.target == Target::ImageShadowed {
                    &self.shadowed
                } else {
                    &self.plain
                }),
                vertex: wgpu::VertexState {
                    module: &self.module,
                    entry_point: Some(spec.vertex),
                    compilation_options,
                    buffers: spec.buffers,
                },
                primitive: wgpu::PrimitiveState::default(),
                depth_stencil: Some(wgpu::DepthStencilState {
                    format: DEPTH_FORMAT,
                    depth_write_enabled: Some(spec.state.depth_write),
                    depth_compare: Some(spec.state.depth_compare),
                    stencil: wgpu::StencilState::default(),
                    bias: wgpu::DepthBiasState::default(),
                }),
                multisample: wgpu::MultisampleState {
                    count: if map { 1 } else { SAMPLES },
                    ..Default::default()
                },
                fragment,
                multiview_mask: None,
                cache: None,
            })
    }
}

/// The map keeps the highest occluder: nearest to its eye looking down.
const MAP: PassState = PassState {
    depth_write: true,
    depth_compare: wgpu::CompareFunction::Less,
    blend: None,
};

impl Pipelines {
    /// Compiles shaders/render.wgsl and makes every pipeline on `layout` (group 0) and
    /// `map_layout` (group 1, the shadow map).
    pub(super) fn new(
        device: &wgpu::Device,
        layout: &wgpu::BindGroupLayout,
        map_layout: &wgpu::BindGroupLayout,
    ) -> Self {
        let module = device.create_shader_module(wgpu::ShaderModuleDescriptor {
            label: Some("hooke::render"),
            source: wgpu::ShaderSource::Wgsl(SHADER.into()),
        });
        let pipeline_layout = |label, groups: &[Option<&wgpu::BindGroupLayout>]| {
            device.create_pipeline_layout(&wgpu::PipelineLayoutDescriptor {
                label: Some(label),
                bind_group_layouts: groups,
                immediate_size: 0,
            })
        };
        let maker = Maker {
            device,
            module,
            plain: pipeline_layout("hooke::render", &[Some(layout)]),
            shadowed: pipeline_layout("hooke::render::shadowed", &[Some(layout), Some(map_layout)]),
        };
        let make = |name, vertex, fragment, state, target, buffers| {
            maker.make(&Spec {
                name,
                vertex,
                fragment,
                buffers,
                state,
                target,
            })
        };
        use Target::{Image, ImageShadowed};
        Self {
            ground: make(
                "hooke::render::ground",
                "ground_vs",
                Some("ground_fs"),
                OVER,
                Image,
                &[],
            ),
            spring_shadows: make(
                "hooke::render::spring_shadows",
                "spring_shadows_vs",
                Some("flat_fs"),
                SHADOW,
                Image,
                &[],
            ),
            mass_shadows: make(
                "hooke::render::mass_shadows",
                "mass_shadows_vs",
                Some("disc_fs"),
                SHADOW,
                Image,
                &[],
            ),
            faces: make(
                "hooke::render::faces",
                "faces_vs",
                Some("flat_fs"),
                SOLID,
                Image,
                &[],
            ),
            surface: make(
                "hooke::render::surface",
                "surface_vs",
                Some("flat_fs"),
                SOLID,
                Image,
                &[],
            ),
            springs: make(
                "hooke::render::springs",
                "springs_vs",
                Some("flat_fs"),
                SOLID,
                Image,
                &[],
            ),
            masses: make(
                "hooke::render::masses",
                "masses_vs",
                Some("disc_fs"),
                SOLID,
                Image,
                &[],
            ),
            overlay: make(
                "hooke::render::overlay",
                "overlay_vs",
                Some("flat_fs"),
                OVER,
                Image,
                &[],
            ),
            ground_shadowed: make(
                "hooke::render::ground_shadowed",
                "ground_vs",
                Some("ground_shadowed_fs"),
                SOLID,
                ImageShadowed,
                &[],
            ),
            planes: make(
                "hooke::render::planes",
                "planes_vs",
                Some("planes_fs"),
                SOLID,
                ImageShadowed,
                PLANES,
            ),
            obstacles: make(
                "hooke::render::obstacles",
                "obstacles_vs",
                Some("obstacles_fs"),
                SOLID,
                ImageShadowed,
                OBSTACLES,
            ),
            map: MapPipelines::new(&maker),
        }
    }

    /// Records the draws of `scene` in `style` into `pass` (its bind groups set: group 1, the
    /// shadow map, when the scene's obstacles are drawn), in drawing order: either the ground
    /// and the spring and mass shadows flattened onto it or (scenes whose obstacles are drawn)
    /// the planes, the other obstacles and the ground, shadowed from the map; then faces,
    /// mesh surfaces, springs, masses, overlay lines. Each quad is 6 vertices (two triangles), one instance per spring, mass,
    /// line or plane.
    pub(super) fn record(&self, pass: &mut wgpu::RenderPass<'_>, scene: &Drawing, style: &Style) {
        let masses = style.show_masses && style.mass_radius > 0.0 && scene.masses > 0;
        let springs = style.show_springs && scene.springs > 0;
        let ground = scene.ground && style.show_ground;
        if let Some(obstacles) = shadow_mapped(scene, style) {
            // Obstacles first: the ground behind them then fails the depth test before its
            // fragment shader runs (a slope covers half the ground).
            if obstacles.plane_count > 0 {
                pass.set_pipeline(&self.planes);
                pass.set_vertex_buffer(0, obstacles.planes.slice(..));
                pass.draw(0..6, 0..obstacles.plane_count);
            }
            if obstacles.vertex_count > 0 {
                pass.set_pipeline(&self.obstacles);
                pass.set_vertex_buffer(0, obstacles.vertices.slice(..));
                pass.draw(0..obstacles.vertex_count, 0..1);
            }
            if ground {
                pass.set_pipeline(&self.ground_shadowed);
                pass.draw(0..6, 0..1);
            }
        } else if ground {
            pass.set_pipeline(&self.ground);
            pass.draw(0..6, 0..1);
            if style.shadows {
                if springs {
                    pass.set_pipeline(&self.spring_shadows);
                    pass.draw(0..6, 0..scene.springs);
                }
                if masses {
                    pass.set_pipeline(&self.mass_shadows);
                    pass.draw(0..6, 0..scene.masses);
                }
            }
        }
        if style.show_faces && scene.triangles > 0 {
            pass.set_pipeline(&self.faces);
            pass.draw(0..3 * scene.triangles, 0..1);
        }
        if style.show_faces && scene.surface_corners > 0 {
            pass.set_pipeline(&self.surface);
            pass.draw(0..scene.surface_corners, 0..1);
        }
        if springs {
            pass.set_pipeline(&self.springs);
            pass.draw(0..6, 0..scene.springs);
        }
        if masses {
            pass.set_pipeline(&self.masses);
            pass.draw(0..6, 0..scene.masses);
        }
        if scene.overlay_lines > 0 {
            pass.set_pipeline(&self.overlay);
            pass.draw(0..6, 0..scene.overlay_lines);
        }
    }
}

/// The obstacles of `scene` when `style` draws them: then shadows come from the shadow map
/// (`shadow_map.rs`) and the ground is depth-written; otherwise the scene is drawn as one
/// without obstacles, pixel for pixel.
pub(super) fn shadow_mapped<'a>(scene: &'a Drawing, style: &Style) -> Option<&'a ObstacleBuffers> {
    scene.obstacles.as_ref().filter(|_| style.show_obstacles)
}

#[cfg(test)]
mod tests {
    use std::mem::{align_of, offset_of, size_of};

    use super::super::drawing::{GpuOverlayLine, GpuSurfaceCorner};
    use super::*;

    /// A mirror's WGSL name, size and alignment in bytes, and `(field, offset)` list.
    type Mirror = (&'static str, usize, usize, Vec<(&'static str, usize)>);

    /// Every struct uploaded to shaders/render.wgsl, from `offset_of!` on the Rust mirror.
    fn mirrors() -> Vec<Mirror> {
        macro_rules! mirror {
            ($t:ident { $($f:ident),* }) => {
                (
                    stringify!($t),
                    size_of::<$t>(),
                    align_of::<$t>(),
                    vec![$((stringify!($f), offset_of!($t, $f))),*],
                )
            };
        }
        vec![
            mirror!(GpuView {
                view_proj,
                eye,
                viewport,
                neutral,
                tension,
                compression,
                mass,
                fixed_mass,
                highlight,
                face,
                shadow,
                ground,
                grid,
                background,
                sizes,
                ground_area,
                light,
                flags,
                obstacle,
                shadow_area,
                shadow_depth,
                shadow_sizes
            }),
            mirror!(GpuOverlayLine { a, b, color }),
            mirror!(GpuSurfaceCorner { masses, weights }),
        ]
    }

    fn module() -> naga::Module {
        let module = naga::front::wgsl::parse_str(SHADER)
            .unwrap_or_else(|e| panic!("render.wgsl: {}", e.emit_to_string(SHADER)));
        naga::valid::Validator::new(
            naga::valid::ValidationFlags::all(),
            naga::valid::Capabilities::all(),
        )
        .validate(&module)
        .unwrap_or_else(|e| panic!("render.wgsl: {}", e.emit_to_string(SHADER)));
        module
    }

    /// The WGSL struct named `name`.
    fn wgsl_struct(module: &naga::Module, name: &str) -> naga::Handle<naga::Type> {
        module
            .types
            .iter()
            .find(|(_, t)| t.name.as_deref() == Some(name))
            .unwrap_or_else(|| panic!("render.wgsl has no struct {name}"))
            .0
    }

    /// Each render mirror has a WGSL twin of the same name with the same size and field
    /// offsets, and a size that is a multiple of the WGSL alignment (so a Rust slice of mirrors
    /// has the stride of the WGSL array). No GPU needed.
    #[test]
    fn render_wgsl_structs_match_rust_mirrors() {
        let module = module();
        let mut layouter = naga::proc::Layouter::default();
        layouter.update(module.to_ctx()).unwrap();
        for (name, size, align, fields) in mirrors() {
            let handle = wgsl_struct(&module, name);
            let layout = &layouter[handle];
            let wgsl_align = layout.alignment.round_up(1) as usize;
            assert_eq!(layout.size as usize, size, "size of {name}");
            assert_eq!(
                size % wgsl_align,
                0,
                "{name}: size {size} is not a multiple of the WGSL alignment {wgsl_align} \
                 (Rust alignment {align})"
            );
            let naga::TypeInner::Struct { members, .. } = &module.types[handle].inner else {
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
    }

    /// The bind group layout Rust builds from [`BINDINGS`] matches the WGSL globals of group 0:
    /// same indices, names and kinds (uniform or read-only storage), the uniform block is
    /// `GpuView`, the overlay an array of `GpuOverlayLine` and the surface one of
    /// `GpuSurfaceCorner`; group 1 is the shadow map and
    /// its comparison sampler.
    #[test]
    fn render_bindings_match_wgsl_globals() {
        let module = module();
        let mut globals: Vec<(u32, String, naga::AddressSpace, naga::Handle<naga::Type>)> = module
            .global_variables
            .iter()
            .filter_map(|(_, g)| {
                let b = g.binding.as_ref()?;
                if b.group == 1 {
                    // The shadow map and its sampler, shadow_map.rs's map_layout.
                    let inner = &module.types[g.ty].inner;
                    let expected = match b.binding {
                        0 => naga::TypeInner::Image {
                            dim: naga::ImageDimension::D2,
                            arrayed: false,
                            class: naga::ImageClass::Depth { multi: false },
                        },
                        _ => naga::TypeInner::Sampler { comparison: true },
                    };
                    let name = ["shadow_map", "shadow_sampler"].get(b.binding as usize);
                    assert_eq!(g.name.as_ref(), name.map(|n| n.to_string()).as_ref());
                    assert_eq!(inner, &expected, "group 1 binding {}", b.binding);
                    return None;
                }
                assert_eq!(b.group, 0, "{:?} is outside groups 0 and 1", g.name);
                Some((b.binding, g.name.clone().unwrap_or_default(), g.space, g.ty))
            })
            .collect();
        globals.sort_by_key(|g| g.0);
        assert_eq!(globals.len(), BINDINGS.len(), "number of bindings");
        for ((index, name, space, _), (binding, (rust_name, kind))) in
            globals.iter().zip(BINDINGS.iter().enumerate())
        {
            assert_eq!(*index as usize, binding, "binding of {name}");
            assert_eq!(name, rust_name, "name of binding {binding}");
            let expected = match kind {
                Binding::Uniform => naga::AddressSpace::Uniform,
                Binding::StorageRead => naga::AddressSpace::Storage {
                    access: naga::StorageAccess::LOAD,
                },
            };
            assert_eq!(*space, expected, "kind of binding {binding} ({name})");
        }
        let ty = |name: &str| globals.iter().find(|g| g.1 == name).unwrap().3;
        assert_eq!(ty("view"), wgsl_struct(&module, "GpuView"));
        let naga::TypeInner::Array { base, .. } = module.types[ty("overlay")].inner else {
            panic!("overlay is not an array");
        };
        assert_eq!(base, wgsl_struct(&module, "GpuOverlayLine"));
        let naga::TypeInner::Array { base, .. } = module.types[ty("surface")].inner else {
            panic!("surface is not an array");
        };
        assert_eq!(base, wgsl_struct(&module, "GpuSurfaceCorner"));
    }

    /// The vertex buffer layouts read the obstacle mirrors at their Rust offsets, and WGSL
    /// `ObstacleIn` / `PlaneIn` take them at the same locations as vectors of as many floats.
    #[test]
    fn obstacle_vertex_layouts_match_mirrors_and_wgsl() {
        let at = |layout: &wgpu::VertexBufferLayout<'_>| {
            layout
                .attributes
                .iter()
                .map(|a| {
                    (
                        a.shader_location,
                        a.offset as usize,
                        a.format.size() as usize,
                    )
                })
                .collect::<Vec<_>>()
        };
        assert_eq!(
            at(&OBSTACLE_VERTICES),
            vec![
                (0, offset_of!(GpuObstacleVertex, position), 12),
                (1, offset_of!(GpuObstacleVertex, normal), 12)
            ]
        );
        assert_eq!(
            at(&PLANE_INSTANCES),
            vec![(0, offset_of!(GpuPlane, plane), 16)]
        );
        let module = module();
        for (name, expected) in [
            ("ObstacleIn", vec![(0, 3), (1, 3)]),
            ("PlaneIn", vec![(0, 4)]),
        ] {
            let naga::TypeInner::Struct { members, .. } =
                &module.types[wgsl_struct(&module, name)].inner
            else {
                panic!("{name} is not a struct");
            };
            let wgsl: Vec<(u32, u8)> = members
                .iter()
                .map(|m| {
                    let Some(naga::Binding::Location { location, .. }) = m.binding else {
                        panic!("{name} member without a location");
                    };
                    let naga::TypeInner::Vector { size, .. } = module.types[m.ty].inner else {
                        panic!("{name} member is not a vector");
                    };
                    (location, size as u8)
                })
                .collect();
            assert_eq!(wgsl, expected, "{name}");
        }
    }

    /// Every override the render shader declares is supplied by [`CONSTANTS`], and nothing
    /// more.
    #[test]
    fn render_overrides_match_constants() {
        let declared = crate::gpu::layout::tests::declared_overrides(&module());
        let mut given: Vec<String> = CONSTANTS.iter().map(|(n, _)| n.to_string()).collect();
        given.sort();
        assert_eq!(declared, given);
    }
}
