//! The rest lengths of bodies alike, formed in the lanes walk (`springs_alike.rs`).
//!
//! The muscles' share of a step (`actuation.rs`) stores each actuated spring's rest length,
//! `base (1 + amplitude sin)`, and the lanes walk then reads every rest length back, lane by
//! lane; on a herd of voxel blocks the two took a quarter of the step. A group of alike bodies
//! whose springs are driven by sine actuators only, with at most [`WAVES`] distinct waves among
//! them, instead keeps each spring's base length, amplitude and wave per lane
//! ([`GroupMuscles`]), and the walk forms `base (1 + amplitude sin)` in registers: the same
//! operations as `actuation.rs`, so the same bits. A spring without an actuator has amplitude 0
//! and its stored rest length as base (`base (1 + 0 sin) = base` exactly, the sines being
//! finite), a zero-length spring base 0.
//!
//! With energy booking off, the muscles' share of a step skips the springs formed here, so their
//! stored rest lengths fall behind; `CpuWorld::catch_up_rest` brings them up to date before
//! anything reads them (the energy, an edit, booking turned back on).

use super::formed_rest::Driver;
use super::integrate_simd::Wide;
use super::springs_alike::{Group, LANES};

/// Most distinct waves among one group's springs: one f64 lane each, picked by a permute.
pub(super) const WAVES: usize = 8;

/// Eight f64 lanes.
type Lanes = [f64; LANES];

/// One group's springs as the walk forms their rest lengths.
#[derive(Clone, Debug)]
pub(super) struct GroupMuscles {
    /// The wave (`waves.rs`) of each local wave index ([`NO_WAVE`] is none: sine 0).
    waves: Vec<u32>,
    layout: Layout,
}

/// Local wave index of a spring without an actuator.
const NO_WAVE: u8 = WAVES as u8 - 1;

/// Most distinct (base, amplitude, wave) of a group in [`Layout::Combos`].
pub(super) const COMBOS: usize = 16;

/// How a group keeps its springs' rest lengths.
#[derive(Clone, Debug)]
enum Layout {
    /// At most [`COMBOS`] distinct (base, amplitude, wave), each spring and lane an index into
    /// them: a voxel body's edges and diagonals, a few muscle kinds. Eight bytes per spring.
    Combos {
        combos: Vec<Combo>,
        index: Vec<[u8; LANES]>,
    },
    /// Each spring and lane its own base, amplitude and wave (136 bytes per spring).
    Lanes {
        base: Vec<Lanes>,
        amplitude: Vec<Lanes>,
        wave: Vec<[u8; LANES]>,
    },
}

/// A spring's base length (m), relative amplitude and local wave ([`NO_WAVE`]: base alone).
#[derive(Clone, Copy, Debug)]
struct Combo {
    base: f64,
    amplitude: f64,
    wave: u8,
}

impl Combo {
    /// A spring of length 0 without a wave.
    const NONE: Self = Self {
        base: 0.0,
        amplitude: 0.0,
        wave: NO_WAVE,
    };

    /// The same bits.
    fn same(&self, o: &Self) -> bool {
        self.base.to_bits() == o.base.to_bits()
            && self.amplitude.to_bits() == o.amplitude.to_bits()
            && self.wave == o.wave
    }

    /// The rest length, m, for the group's local sines `sines`: `base (1 + amplitude sin)` as
    /// `Drive::set_muscles` forms it, or `base` without a wave.
    fn rest(&self, sines: &Lanes) -> f64 {
        if self.wave == NO_WAVE {
            self.base
        } else {
            self.base * (1.0 + self.amplitude * sines[usize::from(self.wave)])
        }
    }
}

/// The rest lengths of one step, by [`Layout::Combos`].
pub(super) struct CombosRest<'a> {
    values: [f64; COMBOS],
    index: &'a [[u8; LANES]],
    wide: Wide,
}

/// The rest lengths of one step, by [`Layout::Lanes`].
pub(super) struct LanesRest<'a> {
    /// The local waves' sines (then zeros, for the permute).
    sines: [f64; COMBOS],
    base: &'a [Lanes],
    amplitude: &'a [Lanes],
    wave: &'a [[u8; LANES]],
    wide: Wide,
}

/// A group's rest lengths for one step.
pub(super) enum Rests<'a> {
    Combos(CombosRest<'a>),
    Lanes(LanesRest<'a>),
}

impl GroupMuscles {
    /// The rest lengths of group `g`'s springs (`springs` per body), or `None` when one of them
    /// is commanded or they have more than `WAVES - 1` distinct waves.
    pub(super) fn new(g: &Group, springs: usize, drivers: &[Driver]) -> Option<Self> {
        Self::of_lanes(springs, |j, l| Some(g.first_spring[l] + j), drivers)
    }

    /// The rest lengths of `springs` template springs whose spring in lane `l` is
    /// `spring_of(j, l)` (`None`: the lane has none there, and any rest length will do).
    pub(super) fn of_lanes(
        springs: usize,
        spring_of: impl Fn(usize, usize) -> Option<usize>,
        drivers: &[Driver],
    ) -> Option<Self> {
        let mut waves = Vec::new();
        let mut all = Vec::with_capacity(springs);
        for j in 0..springs {
            let mut row = [Combo::NONE; LANES];
            for (l, r) in row.iter_mut().enumerate() {
                if let Some(s) = spring_of(j, l) {
                    *r = combo(drivers[s], &mut waves)?;
                }
            }
            all.push(row);
        }
        let layout = Layout::combos(&all).unwrap_or_else(|| Layout::lanes(&all));
        Some(Self { layout, waves })
    }

    /// Sets template spring `j`'s driver in lane `l`; `None` when the group cannot form it
    /// as it is laid out (then a new [`GroupMuscles::new`]).
    pub(super) fn set(&mut self, j: usize, l: usize, driver: Driver) -> Option<()> {
        let c = combo(driver, &mut self.waves)?;
        match &mut self.layout {
            Layout::Combos { combos, index } => index[j][l] = add_combo(combos, c)?,
            Layout::Lanes {
                base,
                amplitude,
                wave,
            } => (base[j][l], amplitude[j][l], wave[j][l]) = (c.base, c.amplitude, c.wave),
        }
        Some(())
    }

    /// The group's rest lengths for a step whose waves' sines are `sines` (`Waves::sines`).
    pub(super) fn rests(&self, sines: &[f64], wide: Wide) -> Rests<'_> {
        let local: Lanes =
            std::array::from_fn(|k| self.waves.get(k).map_or(0.0, |&w| sines[w as usize]));
        match &self.layout {
            Layout::Combos { combos, index } => Rests::Combos(CombosRest {
                values: std::array::from_fn(|k| combos.get(k).map_or(0.0, |c| c.rest(&local))),
                index,
                wide,
            }),
            Layout::Lanes {
                base,
                amplitude,
                wave,
            } => Rests::Lanes(LanesRest {
                sines: std::array::from_fn(|k| local.get(k).copied().unwrap_or(0.0)),
                base,
                amplitude,
                wave,
                wide,
            }),
        }
    }
}

/// The combination a spring's driver gives, its wave given a local index in `waves` (`None`
/// for a commanded spring or past `WAVES - 1` waves).
fn combo(driver: Driver, waves: &mut Vec<u32>) -> Option<Combo> {
    match driver {
        Driver::Fixed(base) => Some(Combo {
            base,
            amplitude: 0.0,
            wave: NO_WAVE,
        }),
        Driver::Sine {
            base,
            amplitude,
            wave,
        } => {
            let k = match waves.iter().position(|&w| w == wave) {
                Some(k) => k,
                None if waves.len() < usize::from(NO_WAVE) => {
                    waves.push(wave);
                    waves.len() - 1
                }
                None => return None,
            };
            Some(Combo {
                base,
                amplitude,
                wave: u8::try_from(k).ok()?,
            })
        }
        Driver::Other => None,
    }
}

/// The index of `c` in `combos`, added if new; `None` past [`COMBOS`].
fn add_combo(combos: &mut Vec<Combo>, c: Combo) -> Option<u8> {
    let k = match combos.iter().position(|o| o.same(&c)) {
        Some(k) => k,
        None if combos.len() < COMBOS => {
            combos.push(c);
            combos.len() - 1
        }
        None => return None,
    };
    u8::try_from(k).ok()
}

impl Layout {
    /// Indices into at most [`COMBOS`] combinations, if `all` has no more.
    fn combos(all: &[[Combo; LANES]]) -> Option<Self> {
        let mut combos = Vec::new();
        let mut index = Vec::with_capacity(all.len());
        for lanes in all {
            let mut row = [0; LANES];
            for (r, &c) in row.iter_mut().zip(lanes) {
                *r = add_combo(&mut combos, c)?;
            }
            index.push(row);
        }
        Some(Self::Combos { combos, index })
    }

    /// Every spring and lane its own combination.
    fn lanes(all: &[[Combo; LANES]]) -> Self {
        Self::Lanes {
            base: all.iter().map(|r| r.map(|c| c.base)).collect(),
            amplitude: all.iter().map(|r| r.map(|c| c.amplitude)).collect(),
            wave: all.iter().map(|r| r.map(|c| c.wave)).collect(),
        }
    }
}

impl CombosRest<'_> {
    /// Template spring `j`'s rest length in every lane, m.
    #[inline(always)]
    pub(super) fn rest(&self, j: usize) -> Lanes {
        pick16(&self.values, &self.index[j], self.wide)
    }
}

impl LanesRest<'_> {
    /// Template spring `j`'s rest length in every lane, m: `base (1 + amplitude sin)`, as
    /// `Drive::set_muscles` forms it (a spring without a wave has amplitude 0 and sine 0, so
    /// `base` exactly).
    #[inline(always)]
    pub(super) fn rest(&self, j: usize) -> Lanes {
        let (base, amplitude) = (&self.base[j], &self.amplitude[j]);
        let sin = pick16(&self.sines, &self.wave[j], self.wide);
        std::array::from_fn(|l| base[l] * (1.0 + amplitude[l] * sin[l]))
    }
}

/// `values[index[l]]` for every lane: one two-source permute with AVX-512, lane by lane
/// otherwise (the same values).
#[inline(always)]
pub(super) fn pick16(values: &[f64; COMBOS], index: &[u8; LANES], wide: Wide) -> Lanes {
    #[cfg(target_arch = "x86_64")]
    if let Some(simd) = wide {
        use std::arch::x86_64::{__m512d, __m512i};
        let [lo, hi]: [Lanes; 2] = bytemuck::cast(*values);
        let (lo, hi): (__m512d, __m512d) = (bytemuck::cast(lo), bytemuck::cast(hi));
        let index: __m512i = bytemuck::cast(index.map(i64::from));
        return bytemuck::cast(simd.avx512f._mm512_permutex2var_pd(lo, index, hi));
    }
    let _ = wide;
    std::array::from_fn(|l| values[usize::from(index[l]) % COMBOS])
}

#[cfg(test)]
mod tests {
    use super::super::CpuWorld;
    use super::Layout;
    use crate::creatures::Inchworm;
    use crate::model::{Actuator, Model};

    /// How each group of the world keeps its rest lengths.
    fn layouts(w: &CpuWorld) -> Vec<&'static str> {
        let plans = w.chunks.iter().filter_map(|c| c.alike.as_ref());
        plans
            .flat_map(|p| p.group_muscles())
            .map(|m| match m.map(|m| &m.layout) {
                None => "stored",
                Some(Layout::Combos { .. }) => "combos",
                Some(Layout::Lanes { .. }) => "lanes",
            })
            .collect()
    }

    fn herd() -> Model {
        Inchworm::default().build().unwrap().herd(16, 0.6).unwrap()
    }

    #[test]
    fn groups_form_rest_lengths_by_combinations_by_lanes_or_not_at_all() {
        // 16 inchworms, two groups of eight: a few (base, amplitude, wave) combinations each.
        let w = CpuWorld::new(&herd()).unwrap();
        assert_eq!(layouts(&w), ["combos", "combos"]);
        // Every muscle its own amplitude: more combinations than a permute picks from.
        let mut model = herd();
        for (i, a) in model.actuators.iter_mut().enumerate() {
            a.amplitude *= 1.0 + 0.001 * (i % 97) as f64;
        }
        assert_eq!(layouts(&CpuWorld::new(&model).unwrap()), ["lanes", "lanes"]);
        // A commanded muscle in the second group: that group's rest lengths stay stored.
        let mut model = herd();
        let per = model.springs.len() / 16;
        model
            .actuators
            .push(Actuator::commanded((12 * per) as u32, 0.1));
        let mut w = CpuWorld::new(&model).unwrap();
        assert_eq!(layouts(&w), ["combos", "stored"]);
        // Booking off: the muscles' share skips the formed muscles until something reads them.
        w.set_track_energy(false);
        w.step(3).unwrap();
        assert!(w.rest_behind);
        let stored = w.springs.rest.clone();
        let in_force = w.rest_in_force().into_owned();
        assert!(
            stored != in_force,
            "the formed muscles' stored lengths are behind"
        );
        w.set_track_energy(true);
        assert!(!w.rest_behind && w.springs.rest == in_force);
    }
}
