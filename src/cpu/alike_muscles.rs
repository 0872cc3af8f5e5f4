//! The rest lengths of groups of bodies walked side by side, formed in the lanes walk
//! (`springs_lanes.rs`: bodies alike and bodies on a template).
//!
//! The muscles' share of a step (`actuation.rs`) stores each actuated spring's rest length,
//! `base (1 + amplitude sin)`, and the lanes walk then reads every rest length back, lane by
//! lane; on a herd of voxel blocks the two took a quarter of the step. A group of alike bodies
//! whose springs are driven by sine actuators only, with at most [`WAVES`] distinct waves among
//! them, instead keeps each spring's base length, amplitude and wave per lane
//! ([`GroupMuscles`]), and the walk forms `base (1 + amplitude sin)` in registers
//! (`spring_law::formed_rest`, as `actuation.rs`), so the same bits. A spring without an actuator has amplitude 0
//! and its stored rest length as base (`base (1 + 0 sin) = base` exactly, the sines being
//! finite), a zero-length spring base 0.
//!
//! With energy booking off, the muscles' share of a step skips the springs formed here, so their
//! stored rest lengths fall behind; `CpuWorld::catch_up_rest` brings them up to date before
//! anything reads them (the energy, an edit, booking turned back on).

use super::formed_rest::Driver;
use super::lanes::{pick16, F64x8, Lanes, Wide, COMBOS, LANES};
use crate::model::spring_law::formed_rest;

/// Most distinct waves among one group's springs: one f64 lane each, picked by a permute.
pub(super) const WAVES: usize = 8;

/// One group's springs as the walk forms their rest lengths.
#[derive(Clone, Debug)]
pub(super) struct GroupMuscles {
    /// The wave (`waves.rs`) of each local wave index ([`NO_WAVE`] is none: sine 0).
    waves: Vec<u32>,
    layout: Layout,
}

/// Local wave index of a spring without an actuator.
const NO_WAVE: u8 = WAVES as u8 - 1;

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
            formed_rest(self.base, self.amplitude, sines[usize::from(self.wave)])
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
    /// The rest lengths of `springs` template springs whose spring in lane `l` is
    /// `spring_of(j, l)` (`None`: the lane has none there, and any rest length will do), or
    /// `None` when one of them is commanded or they have more than `WAVES - 1` distinct waves.
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

    /// How the group keeps its rest lengths: `"combos"` or `"lanes"`.
    #[cfg(test)]
    pub(super) fn layout_name(&self) -> &'static str {
        match self.layout {
            Layout::Combos { .. } => "combos",
            Layout::Lanes { .. } => "lanes",
        }
    }

    /// Sets template spring `j`'s driver in lane `l`; `None` when the group cannot form it
    /// as it is laid out (then a new [`GroupMuscles::of_lanes`]).
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
        formed_rest(F64x8(*base), F64x8(*amplitude), F64x8(sin)).0
    }
}
