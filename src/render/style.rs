//! Colours and sizes of a rendering.

/// An sRGB colour with straight alpha, 8 bits per channel: `[r, g, b, a]`.
pub type Srgba = [u8; 4];

/// How a scene is drawn: colours (sRGB), sizes (pixels) and which layers are shown.
///
/// Springs are coloured by strain `e = (L - L0) / L0` (SDL): [`Style::neutral`] at rest,
/// blending toward [`Style::tension`] (blue) when stretched and toward [`Style::compression`]
/// (red) when squeezed, fully saturated at `|e| >= strain_scale`. A spring whose rest length is 0
/// (the zero-length law) is drawn neutral.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Style {
    /// Background (sky) colour.
    pub background: Srgba,
    /// Ground plane colour.
    pub ground: Srgba,
    /// Ground grid line colour.
    pub grid: Srgba,
    /// Colour of the shadows cast straight down onto the ground (blended with `min`, so
    /// overlapping shadows do not darken further; should be darker than `ground`).
    pub shadow: Srgba,
    /// Spring colour at rest.
    pub neutral: Srgba,
    /// Spring colour at full tension (stretched by `strain_scale` or more).
    pub tension: Srgba,
    /// Spring colour at full compression (squeezed by `strain_scale` or more).
    pub compression: Srgba,
    /// Colour of a free mass.
    pub mass: Srgba,
    /// Colour of a fixed mass (drawn as a square).
    pub fixed_mass: Srgba,
    /// Colour of the highlighted mass (the one picked or dragged), drawn larger.
    pub highlight: Srgba,
    /// Base colour of shaded faces (solid look of voxel bodies).
    pub face: Srgba,
    /// Base colour of obstacles ([`crate::Obstacle`]), lit by the renderer's
    /// [`LIGHT`](crate::render::LIGHT).
    pub obstacle: Srgba,
    /// Brightness of an obstacle in shadow, as a fraction of its lit colour, in [0, 1].
    pub obstacle_shadow: f32,
    /// Strain (dimensionless, > 0) at which a spring reaches its full tension or compression
    /// colour.
    pub strain_scale: f32,
    /// Width of spring lines, in pixels (> 0).
    pub line_width: f32,
    /// Radius of mass discs, in pixels (>= 0; 0 hides the masses).
    pub mass_radius: f32,
    /// Ground grid spacing in m; `None` picks a power of ten from the camera distance (the grid
    /// also has major lines every ten cells).
    pub grid_spacing: Option<f32>,
    /// Draw the ground plane `z = 0` (only for scenes that have a ground, see
    /// [`crate::render::Drawing::set_ground`]).
    pub show_ground: bool,
    /// Draw shadows of springs and masses on the ground and on obstacles (in a scene with
    /// obstacles also those of the obstacles, all cast straight down).
    pub shadows: bool,
    /// Draw the springs.
    pub show_springs: bool,
    /// Draw the masses.
    pub show_masses: bool,
    /// Draw the scene's shaded triangles, if it has any.
    pub show_faces: bool,
    /// Draw the model's obstacles, if it has any.
    pub show_obstacles: bool,
}

impl Default for Style {
    fn default() -> Self {
        Self {
            background: [236, 239, 243, 255],
            ground: [212, 215, 221, 255],
            grid: [168, 173, 184, 255],
            shadow: [178, 181, 189, 255],
            neutral: [88, 88, 96, 255],
            tension: [20, 80, 255, 255],
            compression: [235, 30, 30, 255],
            mass: [24, 24, 30, 255],
            fixed_mass: [210, 120, 0, 255],
            highlight: [255, 196, 0, 255],
            face: [232, 196, 150, 255],
            obstacle: [150, 178, 160, 255],
            obstacle_shadow: 0.6,
            strain_scale: 0.02,
            line_width: 2.5,
            mass_radius: 4.0,
            grid_spacing: None,
            show_ground: true,
            shadows: true,
            show_springs: true,
            show_masses: true,
            show_faces: true,
            show_obstacles: true,
        }
    }
}

/// sRGB channel (0..=255) to linear (0..=1).
#[must_use]
pub(crate) fn srgb_to_linear(c: u8) -> f32 {
    let c = f32::from(c) / 255.0;
    if c <= 0.04045 {
        c / 12.92
    } else {
        ((c + 0.055) / 1.055).powf(2.4)
    }
}

/// An sRGB colour as linear RGBA for the shaders (alpha stays linear).
#[must_use]
pub(crate) fn linear(c: Srgba) -> [f32; 4] {
    [
        srgb_to_linear(c[0]),
        srgb_to_linear(c[1]),
        srgb_to_linear(c[2]),
        f32::from(c[3]) / 255.0,
    ]
}
