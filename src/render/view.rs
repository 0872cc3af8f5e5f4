//! The uniform block every render pass reads: [`GpuView`], the Rust mirror of WGSL `GpuView` in
//! shaders/render.wgsl, filled once per draw from the camera, the style and the drawing.

use bytemuck::{Pod, Zeroable};
use glam::Vec3;

use super::style::{linear, Style};
use super::{Camera, Drawing};

/// Direction toward the renderer's light (not normalised; the shaders get it normalised): from
/// the front (-y), right (+x) and above. Faces and obstacles are lit by it as
/// `colour (0.4 + 0.6 max(0, n . l))` (faces two-sided, `|n . l|`); shadows fall straight
/// down, not along it.
pub const LIGHT: Vec3 = Vec3::new(0.3, -0.5, 0.8);

/// `GpuView::flags[0]` meaning "no mass highlighted".
pub(super) const NO_HIGHLIGHT: u32 = u32::MAX;

/// The uniform block of every pass. Mirror of WGSL `GpuView` (the naga test in
/// `pipelines.rs` checks size and offsets). Colours are linear RGBA.
#[repr(C)]
#[derive(Clone, Copy, Debug, Pod, Zeroable)]
pub(super) struct GpuView {
    /// Column-major `projection * view`.
    pub(super) view_proj: [[f32; 4]; 4],
    /// xyz: eye position (m).
    pub(super) eye: [f32; 4],
    /// x, y: target size in pixels; z: world size of a pixel at unit depth (m per m).
    pub(super) viewport: [f32; 4],
    pub(super) neutral: [f32; 4],
    pub(super) tension: [f32; 4],
    pub(super) compression: [f32; 4],
    pub(super) mass: [f32; 4],
    pub(super) fixed_mass: [f32; 4],
    pub(super) highlight: [f32; 4],
    pub(super) face: [f32; 4],
    pub(super) shadow: [f32; 4],
    pub(super) ground: [f32; 4],
    pub(super) grid: [f32; 4],
    pub(super) background: [f32; 4],
    /// x: strain at full colour; y: half line width (px); z: mass radius (px); w: grid spacing (m).
    pub(super) sizes: [f32; 4],
    /// xy: centre of the ground disc (m); z: its radius (m).
    pub(super) ground_area: [f32; 4],
    /// xyz: unit direction toward the light.
    pub(super) light: [f32; 4],
    /// x: highlighted mass index ([`NO_HIGHLIGHT`] for none).
    pub(super) flags: [u32; 4],
    /// Base colour of obstacles.
    pub(super) obstacle: [f32; 4],
    /// The square the shadow map covers: xy centre (m), z half side (m), w side in texels.
    pub(super) shadow_area: [f32; 4],
    /// x: height of map depth 0 (m); y: height range of depth 0..1 (m); z: how far below a
    /// receiver an occluder still shadows it (m); w: how far obstacles are lowered in the map (m).
    pub(super) shadow_depth: [f32; 4],
    /// x: spring half width in the map (m); y: mass radius in the map (m); z: brightness of an
    /// obstacle in shadow; w: camera target height (m).
    pub(super) shadow_sizes: [f32; 4],
}
const _: () = assert!(std::mem::size_of::<GpuView>() == 64 + 21 * 16);

/// Half the side of the square the shadow map covers, in units of the camera's distance from
/// its target: the framing cameras ([`Camera::fit`]) sit about 3.5 bounding radii away, so the
/// map (2.6 radii each way) holds everything they frame, and its texels (1.5 distances / map
/// size) are about as fine as the image's pixels at the target.
pub(super) const SHADOW_REACH: f32 = 0.75;

impl GpuView {
    /// The block for drawing `scene` seen by `camera` in `style`, into a `width` x `height`
    /// image, with a shadow map of `map_size` x `map_size` texels.
    pub(super) fn new(
        style: &Style,
        scene: &Drawing,
        camera: &Camera,
        width: u32,
        height: u32,
        map_size: u32,
    ) -> Self {
        let s = style;
        let distance = camera.distance();
        // World size (m) of one image pixel at the target.
        let pixel = camera.pixel_size_at_unit_depth(height) * distance;
        let reach = SHADOW_REACH * distance;
        let texel = 2.0 * reach / map_size as f32;
        // A mass sunk into a surface by less than its drawn radius (or 2.5 texels, more than the
        // 1.5-texel normal offset of the lookup) still shadows it; obstacles are lowered twice
        // that in the map, so a surface never shadows itself.
        let tolerance = (s.mass_radius * pixel).max(2.5 * texel);
        let spacing = s
            .grid_spacing
            .unwrap_or_else(|| 10f32.powf((distance / 30.0).log10().floor()));
        let light = LIGHT.normalize();
        Self {
            view_proj: camera.view_projection(width, height).to_cols_array_2d(),
            eye: camera.eye.extend(1.0).to_array(),
            viewport: [
                width as f32,
                height as f32,
                camera.pixel_size_at_unit_depth(height),
                0.0,
            ],
            neutral: linear(s.neutral),
            tension: linear(s.tension),
            compression: linear(s.compression),
            mass: linear(s.mass),
            fixed_mass: linear(s.fixed_mass),
            highlight: linear(s.highlight),
            face: linear(s.face),
            shadow: linear(s.shadow),
            ground: linear(s.ground),
            grid: linear(s.grid),
            background: linear(s.background),
            sizes: [s.strain_scale, 0.5 * s.line_width, s.mass_radius, spacing],
            ground_area: [
                camera.target.x,
                camera.target.y,
                (camera.far * 0.9).min(distance * 12.0),
                0.0,
            ],
            light: light.extend(0.0).to_array(),
            flags: [scene.highlight.unwrap_or(NO_HIGHLIGHT), 0, 0, 0],
            obstacle: linear(s.obstacle),
            shadow_area: [camera.target.x, camera.target.y, reach, map_size as f32],
            shadow_depth: [
                camera.target.z + 2.0 * reach,
                4.0 * reach,
                tolerance,
                2.0 * tolerance,
            ],
            shadow_sizes: [
                0.5 * s.line_width * pixel,
                s.mass_radius * pixel,
                s.obstacle_shadow,
                camera.target.z,
            ],
        }
    }
}
