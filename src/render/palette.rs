//! Colour quantisation for GIF frames: at most 255 colours for the pixels of one frame, chosen so
//! that no pixel moves far from its colour.
//!
//! A rendered frame has few colours in large areas (sky, ground, grid, shadows, faces) and many
//! rare ones (the antialiased edges of lines, and strain colours that vary from spring to spring).
//! Density-driven quantisers (NeuQuant, median cut) spend the palette on the large areas and can
//! miss a rare colour altogether: a red edge pixel comes out grey. Here the most frequent colours
//! are kept as they are, and the rest of the palette is filled by farthest-point clustering in
//! CIELAB (Gonzalez, 1985: repeatedly add the colour farthest from every entry so far), which keeps
//! the largest colour error small, not only the mean.

use std::collections::HashMap;

use super::style::srgb_to_linear;

/// Palette entries taken as they are, most frequent first, before farthest-point clustering
/// fills the rest: the flat areas of a frame come out exact. At most an eighth of the palette.
const FREQUENT: usize = 32;

/// Colours chosen for one frame and the entry every colour of it maps to.
#[derive(Clone, Debug)]
pub(crate) struct Palette {
    /// `[r, g, b]` per entry, sRGB.
    rgb: Vec<[u8; 3]>,
    /// Entry of every colour the palette was made for.
    index: HashMap<[u8; 3], u8>,
}

impl Palette {
    /// A palette of at most `max` (1..=256) entries for the colours in `counts` (each distinct
    /// colour and how many pixels have it): every colour when there are at most `max`; otherwise
    /// the [`FREQUENT`] most frequent ones (at most `max / 8`), then farthest-point clustering in CIELAB, each colour
    /// mapped to its nearest entry. Deterministic (ties go by pixel count, then colour).
    pub(crate) fn new(counts: &HashMap<[u8; 3], u32>, max: usize) -> Self {
        let max = max.clamp(1, 256);
        let mut colours: Vec<([u8; 3], u32)> = counts.iter().map(|(&c, &n)| (c, n)).collect();
        colours.sort_unstable_by(|a, b| b.1.cmp(&a.1).then(a.0.cmp(&b.0)));
        if colours.len() <= max {
            let index = colours
                .iter()
                .enumerate()
                .map(|(i, (c, _))| (*c, i as u8))
                .collect();
            return Self {
                rgb: colours.into_iter().map(|(c, _)| c).collect(),
                index,
            };
        }
        let lab: Vec<[f32; 3]> = colours.iter().map(|(c, _)| cielab(*c)).collect();
        // Squared distance of every colour to its nearest entry so far, and that entry.
        let mut nearest = vec![(f32::INFINITY, 0u8); colours.len()];
        let mut entries: Vec<usize> = Vec::with_capacity(max);
        let add = |entry: usize, entries: &mut Vec<usize>, nearest: &mut [(f32, u8)]| {
            let slot = entries.len() as u8;
            entries.push(entry);
            for (near, l) in nearest.iter_mut().zip(&lab) {
                let d = distance2(*l, lab[entry]);
                if d < near.0 {
                    *near = (d, slot);
                }
            }
        };
        for entry in 0..FREQUENT.min(max / 8) {
            add(entry, &mut entries, &mut nearest);
        }
        while entries.len() < max {
            // The first colour among the farthest: the most frequent of them.
            let (far, _) = nearest
                .iter()
                .enumerate()
                .fold((0, -1.0f32), |best, (i, near)| {
                    if near.0 > best.1 {
                        (i, near.0)
                    } else {
                        best
                    }
                });
            add(far, &mut entries, &mut nearest);
        }
        let index = colours
            .iter()
            .zip(&nearest)
            .map(|((c, _), near)| (*c, near.1))
            .collect();
        Self {
            rgb: entries.iter().map(|&e| colours[e].0).collect(),
            index,
        }
    }

    /// Number of entries.
    pub(crate) fn len(&self) -> usize {
        self.rgb.len()
    }

    /// The entries as `[r, g, b, r, g, b, ...]`, the layout of a GIF colour table.
    pub(crate) fn table(&self) -> Vec<u8> {
        self.rgb.iter().flatten().copied().collect()
    }

    /// The entry for `colour`, one of the colours the palette was made for (0 for any other).
    pub(crate) fn index_of(&self, colour: [u8; 3]) -> u8 {
        self.index.get(&colour).copied().unwrap_or(0)
    }
}

/// Squared CIELAB distance (CIE76 delta E squared).
fn distance2(a: [f32; 3], b: [f32; 3]) -> f32 {
    (a[0] - b[0]).powi(2) + (a[1] - b[1]).powi(2) + (a[2] - b[2]).powi(2)
}

/// CIELAB (D65 white) of an sRGB colour: `[L*, a*, b*]`, L* in 0..=100.
fn cielab([r, g, b]: [u8; 3]) -> [f32; 3] {
    let (r, g, b) = (srgb_to_linear(r), srgb_to_linear(g), srgb_to_linear(b));
    // Linear sRGB to XYZ (IEC 61966-2-1), normalised by the D65 white point.
    let x = (0.412_456_4 * r + 0.357_576_1 * g + 0.180_437_5 * b) / 0.950_47;
    let y = 0.212_672_9 * r + 0.715_152_2 * g + 0.072_175 * b;
    let z = (0.019_333_9 * r + 0.119_192 * g + 0.950_304_1 * b) / 1.088_83;
    let f = |t: f32| {
        if t > 216.0 / 24389.0 {
            t.cbrt()
        } else {
            (24389.0 / 27.0 * t + 16.0) / 116.0
        }
    };
    let (fx, fy, fz) = (f(x), f(y), f(z));
    [116.0 * fy - 16.0, 500.0 * (fx - fy), 200.0 * (fy - fz)]
}

#[cfg(test)]
mod tests {
    use super::*;

    fn counts(colours: impl IntoIterator<Item = ([u8; 3], u32)>) -> HashMap<[u8; 3], u32> {
        colours.into_iter().collect()
    }

    #[test]
    fn few_colours_are_kept_exactly() {
        let c = counts([([1, 2, 3], 5), ([200, 0, 0], 1), ([0, 0, 255], 9)]);
        let p = Palette::new(&c, 255);
        assert_eq!(p.len(), 3);
        for colour in c.keys() {
            let i = usize::from(p.index_of(*colour));
            assert_eq!(p.rgb[i], *colour);
        }
    }

    #[test]
    fn a_rare_colour_far_from_the_rest_gets_its_own_entry() {
        // 1000 shades of grey covering many pixels and one red pixel: a density-driven palette
        // would spend every entry on the greys.
        let mut c = counts((0..1000u32).map(|i| {
            let v = (i % 250) as u8;
            ([v, v, (i / 250) as u8], 100)
        }));
        c.insert([255, 0, 0], 1);
        let p = Palette::new(&c, 16);
        assert_eq!(p.len(), 16);
        assert_eq!(p.rgb[usize::from(p.index_of([255, 0, 0]))], [255, 0, 0]);
        // Farthest-point clustering is within twice the best largest error for its entries
        // (Gonzalez 1985; the two most frequent colours taken first cost it at most two
        // entries): compare with an explicit palette of 13 evenly spaced greys and the red, whose
        // largest error bounds the best one from above.
        let error = |colour: &[u8; 3], entries: &[[u8; 3]]| {
            entries
                .iter()
                .map(|e| distance2(cielab(*colour), cielab(*e)).sqrt())
                .fold(f32::INFINITY, f32::min)
        };
        let even: Vec<[u8; 3]> = (0..13u32)
            .map(|i| {
                let v = (i * 249 / 12) as u8;
                [v, v, 1]
            })
            .chain([[255, 0, 0]])
            .collect();
        let bound = c.keys().map(|k| error(k, &even)).fold(0.0, f32::max);
        let ours = c.keys().map(|k| {
            let e = p.rgb[usize::from(p.index_of(*k))];
            distance2(cielab(*k), cielab(e)).sqrt()
        });
        let ours = ours.fold(0.0, f32::max);
        assert!(ours <= 2.0 * bound, "largest error {ours} vs bound {bound}");
    }

    #[test]
    fn white_is_lightness_100() {
        let [l, a, b] = cielab([255, 255, 255]);
        assert!((l - 100.0).abs() < 1e-3 && a.abs() < 1e-2 && b.abs() < 1e-2);
        assert!(cielab([0, 0, 0])[0].abs() < 1e-4);
    }
}
