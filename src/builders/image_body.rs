//! 2D bodies from a picture (Anderson).

use std::path::{Path, PathBuf};

use glam::DVec3;
use image::DynamicImage;
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use super::{fits_u32, Material};
use crate::error::{Error, Result};
use crate::model::{Contact, Friction, Integrator, Mass, Params, Part, Spring, STANDARD_GRAVITY};
use crate::validate::{finite, non_negative, positive, require};

/// A flat body drawn as a picture (Anderson): every black pixel is a mass, joined by springs to
/// its 8 neighbours (Anderson Figs. 1 and 2: right, down and both diagonals, each pair once).
///
/// # Layout
/// The body lies in the vertical x-z plane (y = 0) so that gravity acts in its plane. With
/// `(u_min, r_max)` the left column and bottom row of the black pixels' bounding box, the pixel in
/// column `u` and row `r` (rows counted downward, as images store them) starts at
/// `x = (u - u_min) s`, `z = (r_max - r) s`: image rows map to -z, so the picture stands upright,
/// and the bottom-left corner of the bounding box is the local origin. The body is then rotated by
/// `theta0` about that origin (positive `theta0` turns +x toward +z, i.e. `(x, z)` becomes
/// `(x cos - z sin, x sin + z cos)`; Anderson also rotates about its origin) and lifted by `h0`
/// along z. Masses are numbered row by row from the top, left to right.
///
/// A pixel is black when its luminance is below `threshold`; luminance is the `image` crate's
/// (Rec. 709 weights) on a 0..1 scale, after compositing any transparency over white (so a
/// transparent pixel is white).
///
/// Springs are Hooke springs with rest length the initial distance (`s` or `s sqrt 2`).
///
/// # Examples
///
/// From a picture in memory ([`ImageBody::from_path`] reads a file instead):
///
/// ```
/// use hooke::ImageBody;
/// use image::{DynamicImage, GrayImage, Luma};
///
/// // 3 x 2 pixels, white, with a 2 x 2 black square on the left.
/// let mut picture = GrayImage::from_pixel(3, 2, Luma([255]));
/// for (u, r) in [(0, 0), (1, 0), (0, 1), (1, 1)] {
///     picture.put_pixel(u, r, Luma([0]));
/// }
/// let body = ImageBody { theta0: 0.0, h0: 0.5, ..ImageBody::anderson_table1() };
/// let part = body.from_image(&DynamicImage::ImageLuma8(picture))?;
/// // A mass per black pixel; springs to the neighbours, each pair once: 2 across, 2 down and
/// // the 2 diagonals.
/// assert_eq!((part.masses.len(), part.springs.len()), (4, 6));
/// // Upright in the x-z plane, the bottom row lifted by h0, pixels s = 0.15 m apart.
/// assert_eq!(part.min_z(), Some(0.5));
/// let top_left = part.masses[0].position;
/// assert!((top_left.z - 0.65).abs() < 1e-12 && top_left.y == 0.0);
/// # Ok::<(), hooke::Error>(())
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(default, deny_unknown_fields)]
pub struct ImageBody {
    /// Pixel spacing `s` in m. Finite and > 0.
    pub spacing: f64,
    /// Mass of each pixel in kg. Finite and > 0.
    pub mass: f64,
    /// Spring stiffness `k` in N/m. Finite and >= 0.
    pub stiffness: f64,
    /// Axial spring damping `c` in N*s/m. Finite and >= 0.
    pub damping: f64,
    /// Luminance threshold in (0, 1]: pixels darker than this are masses (default 0.5).
    pub threshold: f64,
    /// Initial angle `theta0` in rad about the local origin (see the type's docs). Finite.
    pub theta0: f64,
    /// Initial lift `h0` in m along z. Finite.
    pub h0: f64,
    /// The material the body is made of (default `None`). When given, it replaces `mass`,
    /// `stiffness` and `damping`: each pixel is a square of side `spacing` and thickness
    /// `spacing` (mass `rho spacing^3`), and the springs make an isotropic sheet of the
    /// material's Young's modulus in the picture's plane: edge springs `3 E spacing / 4`,
    /// diagonals `3 E spacing / 8` (N/m), Poisson's ratio the lattice's 1/3, damped as
    /// [`Material::bond_damping`] says. The derivation and what a pixel sheet cannot represent
    /// are in the guide (`hooke::guide::materials`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub material: Option<Material>,
}

impl Default for ImageBody {
    fn default() -> Self {
        Self::anderson_table1()
    }
}

impl ImageBody {
    /// The body parameters of Anderson's Table I: `k = 5000 N/m` (the table prints N*s/m by
    /// mistake), `m = 0.2 kg`, `c = 10 N*s/m`, `theta0 = 0.5 rad`, `h0 = 1 m`, `s = 0.15 m`, with
    /// threshold 0.5. The global parameters of that table are [`ImageBody::anderson_params`].
    #[must_use]
    pub fn anderson_table1() -> Self {
        Self {
            spacing: 0.15,
            mass: 0.2,
            stiffness: 5000.0,
            damping: 10.0,
            threshold: 0.5,
            theta0: 0.5,
            h0: 1.0,
            material: None,
        }
    }

    /// The global parameters of Anderson's Table I: `dt = 0.001 s`, air drag `c_air = 0.9 N*s/m`,
    /// restitution contact with `epsilon = 0.7`, friction `mu = 0.6` (static = kinetic: Anderson
    /// has one coefficient), standard gravity, semi-implicit Euler (Anderson's eqs. 12 and 13).
    #[must_use]
    pub fn anderson_params() -> Params {
        Params {
            gravity: STANDARD_GRAVITY,
            dt: 0.001,
            integrator: Integrator::SemiImplicitEuler,
            velocity_damping: 0.0,
            air_drag: 0.9,
            contact: Contact::Restitution { restitution: 0.7 },
            friction: Friction::coulomb(0.6, 0.6),
            collision: crate::Collision::default(),
        }
    }

    /// Builds the body from the picture in file `path` (any format the `image` crate reads with
    /// hooke's features: PNG, GIF). The file is read within the input-file size limit
    /// ([`read_input`](crate::read_input)) and its dimensions, from its header, are checked
    /// against [`MAX_IMAGE_PIXELS`](super::MAX_IMAGE_PIXELS) before it is decoded.
    ///
    /// # Errors
    /// [`Error::InputTooLarge`] for a file above the size limit; [`Error::ImageTooLarge`] for a
    /// picture of more pixels than [`MAX_IMAGE_PIXELS`](super::MAX_IMAGE_PIXELS);
    /// [`Error::Image`] if the file cannot be opened or decoded; otherwise as
    /// [`ImageBody::from_image`], with [`Error::EmptyImage`] naming `path`.
    pub fn from_path(&self, path: impl AsRef<Path>) -> Result<Part> {
        let path = path.as_ref();
        self.validate()?;
        let image = super::image_file::read_image(path)?;
        self.build_from(&image, path)
    }

    /// Builds the body from an in-memory picture.
    ///
    /// # Errors
    /// [`Error::InvalidParameter`] for a spacing or mass that is not finite and > 0, a negative or
    /// non-finite stiffness or damping, a threshold outside (0, 1], or a non-finite `theta0` or
    /// `h0`; [`Material::validate`]'s errors naming the field; [`Error::ImageTooLarge`] (path
    /// `"<memory>"`) for a picture of more than [`MAX_IMAGE_PIXELS`](super::MAX_IMAGE_PIXELS);
    /// [`Error::EmptyImage`] (path `"<memory>"`) if no pixel is black.
    pub fn from_image(&self, image: &DynamicImage) -> Result<Part> {
        self.validate()?;
        self.build_from(image, Path::new("<memory>"))
    }

    fn validate(&self) -> Result<()> {
        positive("image.spacing", self.spacing, "must be finite and > 0 (m)")?;
        positive("image.mass", self.mass, "must be finite and > 0 (kg)")?;
        non_negative(
            "image.stiffness",
            self.stiffness,
            "must be finite and >= 0 (N/m)",
        )?;
        non_negative(
            "image.damping",
            self.damping,
            "must be finite and >= 0 (N*s/m)",
        )?;
        require(
            self.threshold > 0.0 && self.threshold <= 1.0,
            "image.threshold",
            self.threshold,
            "must lie in (0, 1] (luminance)",
        )?;
        finite("image.theta0", self.theta0, "must be finite")?;
        finite("image.h0", self.h0, "must be finite")?;
        self.material.as_ref().map_or(Ok(()), Material::validate)
    }

    fn build_from(&self, image: &DynamicImage, path: &Path) -> Result<Part> {
        super::image_file::check_pixels(path, image.width(), image.height())?;
        let la = image.to_luma_alpha8();
        let (w, h) = la.dimensions();
        let black = |u: u32, r: u32| {
            let [l, a] = la.get_pixel(u, r).0;
            let (l, a) = (f64::from(l) / 255.0, f64::from(a) / 255.0);
            l * a + (1.0 - a) < self.threshold
        };
        // Mass index of every pixel, u32::MAX for white.
        let mut index = vec![u32::MAX; w as usize * h as usize];
        let (mut u_min, mut r_max) = (u32::MAX, 0);
        let mut count = 0usize;
        for r in 0..h {
            for u in 0..w {
                if black(u, r) {
                    index[(r * w + u) as usize] = count as u32;
                    count += 1;
                    u_min = u_min.min(u);
                    r_max = r_max.max(r);
                }
            }
        }
        if count == 0 {
            return Err(Error::EmptyImage {
                path: PathBuf::from(path),
            });
        }
        fits_u32("image", count)?;
        let (sin, cos) = self.theta0.sin_cos();
        let s = self.spacing;
        let mut part = Part::new();
        part.masses.reserve(count);
        for r in 0..h {
            for u in 0..w {
                if index[(r * w + u) as usize] != u32::MAX {
                    let x = f64::from(u - u_min) * s;
                    let z = f64::from(r_max - r) * s;
                    let p = DVec3::new(x * cos - z * sin, 0.0, x * sin + z * cos + self.h0);
                    part.add_mass(Mass::new(self.mass, p));
                }
            }
        }
        let at = |u: i64, r: i64| -> Option<u32> {
            if u < 0 || r < 0 || u >= i64::from(w) || r >= i64::from(h) {
                return None;
            }
            let i = index[(r * i64::from(w) + u) as usize];
            (i != u32::MAX).then_some(i)
        };
        // Forward neighbours: right, down-left, down, down-right. With their mirror images these
        // are the 8 neighbours, so every neighbouring pair gets exactly one spring.
        for r in 0..i64::from(h) {
            for u in 0..i64::from(w) {
                let Some(a) = at(u, r) else { continue };
                for (du, dr) in [(1, 0), (-1, 1), (0, 1), (1, 1)] {
                    if let Some(b) = at(u + du, r + dr) {
                        let rest = part.masses[a as usize]
                            .position
                            .distance(part.masses[b as usize].position);
                        part.add_spring(
                            Spring::hooke(a, b, self.stiffness, rest).with_damping(self.damping),
                        );
                    }
                }
            }
        }
        if let Some(material) = &self.material {
            self.apply_material(&mut part, material);
        }
        Ok(part)
    }
}
