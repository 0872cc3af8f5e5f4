//! How the springs are laid out for the spring pass: the stencil variant's table when the World
//! runs it, which end of each spring the link walk takes, the link table's order and records,
//! and the stencil's muscle lists. Part of the plan: it depends on the device (binding sizes),
//! the options (variant, energy booking) and the model's spring table.

use crate::gpu::kernels::springs_stencil::{MuscleSlots, Stencil};
use crate::gpu::layout::{self, array_bytes, GpuLink, GpuLink64, GpuSpring, Run, Vec4, NONE};
use crate::gpu::orient;
use crate::gpu::real::Precision;
use crate::gpu::tables::SpringTable;

/// What the plan decided that the spring layout follows.
#[derive(Clone, Copy, Debug)]
pub(crate) struct SpringChoice {
    /// Whether to look for a stencil (see `SpringPass`), and why (logged with the variant).
    pub(crate) want_stencil: bool,
    pub(crate) reason: &'static str,
    /// Energy booked on the device (the walk then evaluates the stencil's muscles itself).
    pub(crate) track_energy: bool,
    /// Whether the device's limits allow the stencil variant with a muscle list.
    pub(crate) muscles_fit: bool,
    pub(crate) precision: Precision,
}

/// The springs as the spring pass reads them.
#[derive(Debug, Default)]
pub(crate) struct SpringLayout {
    pub(crate) links: Links,
    /// The spring pass's stencil, when the World runs that variant.
    pub(crate) stencil: Option<Stencil>,
    /// With a stencil: (first, end) link of each mass's springs outside it, and whether there
    /// are any.
    pub(crate) outside: Option<(Vec<Run>, bool)>,
    /// With a stencil whose slots hold muscles and no energy booking: the muscles each
    /// spring-pass invocation sets before its walk (see `shaders/springs_stencil_muscles.wgsl`;
    /// an empty list when the World fuses its steps and there is none). With booking (or a list
    /// too large for one binding) the slots evaluate their actuators as they go, to book each
    /// one's work.
    pub(crate) muscles: Option<MuscleSlots>,
    /// Whether the springs share one material (no per-link material table then).
    pub(crate) one_material: bool,
}

impl SpringLayout {
    /// The layout of `springs` over `masses` masses as `choice` says, with tables of at most
    /// what `binding_fits` allows; the muscle list as the walk alone needs it (see
    /// [`SpringLayout::fused`] for the fused steps').
    pub(crate) fn new(
        springs: &SpringTable,
        masses: usize,
        choice: &SpringChoice,
        binding_fits: impl Fn(u64) -> bool,
    ) -> Self {
        let sp = &springs.springs;
        let precision = choice.precision;
        // The stencil variant of the spring pass (see `SpringPass`): a table that fits one
        // binding, and slot codes (after the link indices) that fit the u32 overflow report
        // below `NONE`.
        let stencil = if choice.want_stencil {
            Stencil::find(sp, masses, &springs.materials).filter(|st| {
                let bytes = precision.bytes::<Vec4>(u64::from(st.words()) * masses as u64);
                binding_fits(bytes) && sp.len() as u64 + st.codes() < u64::from(NONE)
            })
        } else {
            None
        };
        log_spring_pass(stencil.as_ref(), choice, sp.len());
        let held = stencil.as_ref().map(|st| st.membership(sp.len()));
        // Each spring the link table walks is walked from the end that evens out the runs.
        let from_b = orient::balance(sp, masses, held.as_deref());
        let links = Links::new(sp, masses, held.as_deref(), from_b);
        let outside = held.as_ref().map(|h| links.runs_outside(h));
        let muscles = stencil
            .as_ref()
            .filter(|_| !choice.track_energy && choice.muscles_fit)
            .and_then(|st| st.muscles(sp))
            .filter(|m| binding_fits(std::mem::size_of_val(m.slots.as_slice()) as u64));
        Self {
            links,
            stencil,
            outside,
            muscles,
            one_material: springs.materials.len() <= 1,
        }
    }

    /// The link table's bytes in `precision`, in link order (`springs` as the tables hold
    /// them).
    pub(crate) fn link_records(&self, springs: &[GpuSpring], precision: Precision) -> Vec<u8> {
        let links = &self.links;
        links
            .model_order()
            .flat_map(|i| links.record(i as usize, &springs[i as usize], precision))
            .collect()
    }

    /// The material index of each link, in link order (empty when there is one material).
    pub(crate) fn link_materials(&self, springs: &[GpuSpring]) -> Vec<u32> {
        if self.one_material {
            return Vec::new();
        }
        self.links
            .model_order()
            .map(|i| springs[i as usize].material)
            .collect()
    }

    /// This layout for a World that fuses its steps (when `fused`): the fused kernel sets the
    /// stencil's muscles before each walk, so it gets a muscle list, empty when there is none.
    pub(crate) fn fused(self, fused: bool, masses: usize) -> Self {
        if !fused || self.muscles.is_some() {
            return self;
        }
        Self {
            muscles: Some(MuscleSlots {
                starts: vec![0; masses + 1],
                slots: Vec::new(),
            }),
            ..self
        }
    }
}

/// Logs which variant of the spring pass runs and why (`info`).
fn log_spring_pass(stencil: Option<&Stencil>, choice: &SpringChoice, springs: usize) {
    match stencil {
        Some(st) => log::info!(
            "spring pass: stencil variant ({}), offsets {:?} hold {} of {springs} springs",
            choice.reason,
            st.offsets(),
            st.held()
        ),
        None if choice.want_stencil => log::info!(
            "spring pass: link variant (no stencil fits the model, {})",
            choice.reason
        ),
        None => log::info!("spring pass: link variant ({})", choice.reason),
    }
}

/// Bytes of one link of the device's link table in `precision`.
pub(crate) fn link_bytes(precision: Precision) -> u64 {
    match precision {
        Precision::F32 => array_bytes::<GpuLink>(1),
        Precision::F64 => array_bytes::<GpuLink64>(1),
    }
}

impl GpuSpring {
    /// The device's link record of this spring in `precision`: a [`GpuLink`] (the rest length
    /// rounded to f32, or the actuator index) or a [`GpuLink64`].
    pub(crate) fn link(&self, precision: Precision) -> Vec<u8> {
        let b = self.b
            | if self.actuated {
                layout::LINK_ACTUATED
            } else {
                0
            };
        match precision {
            Precision::F32 => {
                let rest = if self.actuated {
                    self.actuator
                } else {
                    (self.rest as f32).to_bits()
                };
                bytemuck::bytes_of(&GpuLink { b, rest }).to_vec()
            }
            Precision::F64 => {
                let bits = self.rest.to_bits();
                let link: GpuLink64 = [b, self.actuator, bits as u32, (bits >> 32) as u32];
                bytemuck::bytes_of(&link).to_vec()
            }
        }
    }
}

/// Where each spring sits in the device's link table, which groups the springs by their first
/// mass (stable: springs of one mass keep model order). Builders emit springs mass by mass, so the
/// order is usually the model's own and no permutation is stored.
#[derive(Debug, Default)]
pub(crate) struct Links {
    /// The links of mass `m` are `offsets[m]..offsets[m + 1]` (masses + 1 entries).
    pub(crate) offsets: Vec<u32>,
    /// Model index of each link, when the order differs from the model's.
    model_of: Option<Vec<u32>>,
    /// Link index of each model spring, when the order differs from the model's.
    link_of: Option<Vec<u32>>,
    /// Whether each model spring is walked from its second mass `b` (its link then names `a`),
    /// when some are (see `orient.rs`).
    from_b: Option<Vec<bool>>,
}

impl Links {
    /// The table of `springs` over `masses` masses, each spring walked from its first mass `a`,
    /// or from `b` where `from_b` says so; with `held` (springs in the stencil), each mass's
    /// springs outside the stencil come first, so that they form a run of their own.
    pub(crate) fn new(
        springs: &[GpuSpring],
        masses: usize,
        held: Option<&[bool]>,
        from_b: Option<Vec<bool>>,
    ) -> Self {
        let walker = |i: usize| match &from_b {
            Some(f) if f[i] => springs[i].b,
            _ => springs[i].a,
        };
        let mut offsets = vec![0u32; masses + 1];
        for i in 0..springs.len() {
            offsets[walker(i) as usize + 1] += 1;
        }
        for m in 0..masses {
            offsets[m + 1] += offsets[m];
        }
        let key = |i: usize| (walker(i), held.is_some_and(|h| h[i]));
        if (1..springs.len()).all(|i| key(i - 1) <= key(i)) {
            return Self {
                offsets,
                model_of: None,
                link_of: None,
                from_b,
            };
        }
        let mut next = offsets.clone();
        let mut model_of = vec![0u32; springs.len()];
        let mut link_of = vec![0u32; springs.len()];
        for pass in [false, true] {
            for i in 0..springs.len() {
                if held.is_some_and(|h| h[i]) != pass {
                    continue;
                }
                let slot = &mut next[walker(i) as usize];
                model_of[*slot as usize] = i as u32;
                link_of[i] = *slot;
                *slot += 1;
            }
        }
        Self {
            offsets,
            model_of: Some(model_of),
            link_of: Some(link_of),
            from_b,
        }
    }

    /// The link record of model spring `s` (`sp`, as the device holds it) in `precision`: its
    /// other end than the mass that walks it, and its rest length or actuator.
    pub(crate) fn record(&self, s: usize, sp: &GpuSpring, precision: Precision) -> Vec<u8> {
        match &self.from_b {
            Some(f) if f[s] => GpuSpring { b: sp.a, ..*sp }.link(precision),
            _ => sp.link(precision),
        }
    }

    /// Model indices of the springs in link-table order.
    pub(crate) fn model_order(&self) -> impl Iterator<Item = u32> + '_ {
        let count = self.offsets.last().copied().unwrap_or(0);
        (0..count).map(|i| self.model_of.as_ref().map_or(i, |m| m[i as usize]))
    }

    /// Link index of model spring `s`.
    pub(crate) fn link(&self, s: usize) -> u64 {
        u64::from(self.link_of.as_ref().map_or(s as u32, |l| l[s]))
    }

    /// (first, end) link of every mass's springs.
    pub(crate) fn runs(&self) -> Vec<Run> {
        self.offsets.windows(2).map(|w| [w[0], w[1]]).collect()
    }

    /// (first, end) link of every mass's springs that are not `held` (they come first in each
    /// mass's run), and whether there are any.
    pub(crate) fn runs_outside(&self, held: &[bool]) -> (Vec<Run>, bool) {
        let mut any = false;
        let runs = self
            .offsets
            .windows(2)
            .map(|w| {
                let outside = (w[0]..w[1])
                    .take_while(|&i| !held[self.spring(i) as usize])
                    .count() as u32;
                any |= outside > 0;
                [w[0], w[0] + outside]
            })
            .collect();
        (runs, any)
    }

    /// Model index of link `i`.
    pub(crate) fn spring(&self, i: u32) -> u32 {
        self.model_of.as_ref().map_or(i, |m| m[i as usize])
    }
}
