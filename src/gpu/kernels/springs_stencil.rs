//! The stencil variant of the spring pass (`shaders/springs_stencil.wgsl`).
//!
//! Lattices, cloth grids, ropes and voxel bodies number their masses so that most springs join
//! masses a fixed index offset apart: the benchmark lattice's 13 offsets are 1, n - 1, n, n + 1,
//! n^2 - n - 1, ... A [`Stencil`] lists those offsets; the device keeps one rest length per
//! (mass, offset) slot, and the spring pass walks consecutive masses keeping, per chain of
//! consecutive offsets, the states and force sums of the masses ahead in registers (see the
//! shader's header). Springs outside the stencil stay in the link table, which also keeps every
//! spring for the energy pass and `set_rest_length`.

use std::fmt::Write;

use crate::gpu::layout::{GpuMaterial, GpuSpring, NONE};
use crate::gpu::real::Precision;

/// The stencil variant of the `springs` kernel (same fragments, same entry point): a template
/// whose `//@` lines [`Stencil::wgsl`] generates.
pub(crate) const SPRINGS_STENCIL: &str = include_str!("../../../shaders/springs_stencil.wgsl");

/// Rest-length slots per `Words` of the device table (the lanes of a `vec4<Real>`).
const SLOTS_PER_WORD: usize = 4;

/// Most offsets (slots per mass) a stencil holds: each costs registers in the spring pass.
pub(crate) const MAX_OFFSETS: usize = 16;

/// The regular part of a model's springs.
#[derive(Debug)]
pub(crate) struct Stencil {
    /// Mass-index offsets `b - a` of the slots, ascending, all at least 1.
    offsets: Vec<u32>,
    /// The material of each offset's springs (compiled into the kernel).
    materials: Vec<GpuMaterial>,
    /// Model index of the spring in slot `k` of mass `a` at `a * offsets.len() + k`, or [`NONE`].
    owner: Vec<u32>,
    /// Springs held in slots.
    held: usize,
}

/// Actuator indices below this fit a slot's code `-(2 + i)` exactly in f32 (2^24 - 2).
const SLOT_ACTUATORS: u32 = (1 << f32::MANTISSA_DIGITS) - 2;

/// Whether spring `sp` may sit in a stencil slot: a spring between two different masses, plain
/// with a finite, non-negative rest length or actuated by an actuator whose index fits a slot
/// code (below [`SLOT_ACTUATORS`]).
fn eligible(sp: &GpuSpring) -> bool {
    if sp.a == sp.b {
        return false;
    }
    if sp.actuated {
        return sp.actuator < SLOT_ACTUATORS;
    }
    sp.rest.is_finite() && sp.rest >= 0.0
}

/// What a slot holding `sp` holds on the device in `precision`: a plain spring's rest length
/// (m, as the device holds it), or `-(2 + i)` for the spring actuator `i` drives (exact in f32
/// for an eligible spring; -1 is an empty slot).
pub(crate) fn slot_code(sp: &GpuSpring, precision: Precision) -> f64 {
    if sp.actuated {
        -f64::from(sp.actuator + 2)
    } else {
        precision.round(sp.rest)
    }
}

/// The lower mass index of `sp` (the mass whose slot holds it) and the offset to the higher one.
/// A spring listed from the higher mass is computed from the lower one: `p_lo - p_hi` is exactly
/// `-(p_hi - p_lo)` in f32, so its force is exactly the negated one and the sums are the same.
fn slot_of(sp: &GpuSpring) -> (u32, u32) {
    (sp.a.min(sp.b), sp.a.abs_diff(sp.b))
}

impl Stencil {
    /// The stencil of `springs` over `masses` masses, or `None` when the springs are not regular
    /// enough to gain from one.
    ///
    /// An offset joins the stencil when at least a quarter of the masses have a spring at that
    /// offset (a slot costs every mass some arithmetic and 4 bytes of table even when empty,
    /// where a spring outside the stencil costs a link load, a state load and a scatter); of
    /// those, the [`MAX_OFFSETS`] most frequent. The stencil is used when its slots hold at least
    /// half of the springs. Each offset takes the material most of its springs have
    /// (`materials` is the material table), and each slot the first eligible spring of that
    /// material in model order; duplicates and the rest stay in the link table.
    pub(crate) fn find(
        springs: &[GpuSpring],
        masses: usize,
        materials: &[GpuMaterial],
    ) -> Option<Self> {
        if masses < 2 || springs.is_empty() {
            return None;
        }
        let mut counts = vec![0u32; masses];
        for sp in springs.iter().filter(|sp| eligible(sp)) {
            counts[slot_of(sp).1 as usize] += 1;
        }
        let mut offsets: Vec<u32> = (1..masses as u32)
            .filter(|&d| 4 * u64::from(counts[d as usize]) >= masses as u64)
            .collect();
        offsets.sort_by_key(|&d| (std::cmp::Reverse(counts[d as usize]), d));
        offsets.truncate(MAX_OFFSETS);
        offsets.sort_unstable();
        if offsets.is_empty() {
            return None;
        }
        let k = offsets.len();
        // Each offset's material: the most common among its springs (lowest index on ties).
        let mut by_material = vec![vec![0u32; materials.len()]; k];
        for sp in springs.iter().filter(|sp| eligible(sp)) {
            if let Ok(slot) = offsets.binary_search(&slot_of(sp).1) {
                by_material[slot][sp.material as usize] += 1;
            }
        }
        let slot_material: Vec<u32> = by_material
            .iter()
            .map(|counts| {
                let best = counts.iter().copied().max().unwrap_or(0);
                counts.iter().position(|&c| c == best).unwrap_or(0) as u32
            })
            .collect();
        let mut owner = vec![NONE; masses * k];
        let mut held = 0;
        for (i, sp) in springs.iter().enumerate() {
            if !eligible(sp) {
                continue;
            }
            let (lo, offset) = slot_of(sp);
            if let Ok(slot) = offsets.binary_search(&offset) {
                let o = &mut owner[lo as usize * k + slot];
                if *o == NONE && sp.material == slot_material[slot] {
                    *o = i as u32;
                    held += 1;
                }
            }
        }
        (2 * held >= springs.len()).then(|| Self {
            offsets,
            materials: slot_material
                .iter()
                .map(|&m| materials[m as usize])
                .collect(),
            owner,
            held,
        })
    }

    /// The slot offsets, ascending.
    pub(crate) fn offsets(&self) -> &[u32] {
        &self.offsets
    }

    /// Springs held in slots.
    pub(crate) fn held(&self) -> usize {
        self.held
    }

    /// Entries of [`Stencil::table`]: per mass, [`Stencil::words`] words of `SLOTS_PER_WORD`
    /// rest lengths.
    pub(crate) fn table_len(&self) -> u64 {
        let masses = (self.owner.len() / self.slots()) as u64;
        masses * SLOTS_PER_WORD as u64 * u64::from(self.words())
    }

    /// `Words` (4 reals) of rest lengths per mass.
    pub(crate) fn words(&self) -> u32 {
        self.offsets.len().div_ceil(SLOTS_PER_WORD) as u32
    }

    /// Slots per mass.
    fn slots(&self) -> usize {
        self.offsets.len()
    }

    /// Whether each of `count` model springs sits in a slot.
    pub(crate) fn membership(&self, count: usize) -> Vec<bool> {
        let mut held = vec![false; count];
        for &o in self.owner.iter().filter(|&&o| o != NONE) {
            held[o as usize] = true;
        }
        held
    }

    /// The device table: `words()` x 4 slot codes per mass ([`slot_code`]: rest length in m,
    /// -1 for an empty slot, `-(2 + i)` for actuator `i`'s spring), taken from `springs`, for
    /// kernels in `precision`.
    pub(crate) fn table(&self, springs: &[GpuSpring], precision: Precision) -> Vec<f64> {
        let k = self.slots();
        let width = SLOTS_PER_WORD * self.words() as usize;
        let masses = self.owner.len() / k;
        let mut table = vec![-1.0f64; masses * width];
        for (a, owners) in self.owner.chunks_exact(k).enumerate() {
            for (slot, &o) in owners.iter().enumerate() {
                if o != NONE {
                    table[a * width + slot] = slot_code(&springs[o as usize], precision);
                }
            }
        }
        table
    }

    /// Index (in reals) in the device table of model spring `index` (`sp`), if it sits in
    /// a slot.
    pub(crate) fn element(&self, index: usize, sp: &GpuSpring) -> Option<u64> {
        let (lo, offset) = slot_of(sp);
        let slot = self.offsets.binary_search(&offset).ok()?;
        let at = lo as usize * self.slots() + slot;
        (self.owner[at] == index as u32).then(|| {
            u64::from(lo) * (SLOTS_PER_WORD as u64) * u64::from(self.words()) + slot as u64
        })
    }

    /// The model spring of overflow code `code` (relative to the link count: `a * slots + k`).
    pub(crate) fn spring_of(&self, code: u32) -> u32 {
        self.owner.get(code as usize).copied().unwrap_or(NONE)
    }

    /// Slot codes the spring pass may report: masses x slots.
    pub(crate) fn codes(&self) -> u64 {
        self.owner.len() as u64
    }

    /// The chains of consecutive offsets, as (base, width): the first has base 0 (the walked mass
    /// itself, then offsets 1, 2, ... if present).
    fn chains(&self) -> Vec<(u32, u32)> {
        let mut chains = vec![(0u32, 1u32)];
        for &d in &self.offsets {
            let last = chains.last_mut().expect("one chain");
            if d == last.0 + last.1 {
                last.1 += 1;
            } else {
                chains.push((d, 1));
            }
        }
        chains
    }

    /// The muscles held in slots, for kernels that set their rest lengths before the walk
    /// (`shaders/springs_stencil_muscles.wgsl`), or `None` when no slot holds one.
    pub(crate) fn muscles(&self, springs: &[GpuSpring]) -> Option<MuscleSlots> {
        let k = self.slots();
        let width = SLOTS_PER_WORD as u32 * self.words();
        let mut starts = Vec::with_capacity(self.owner.len() / k + 1);
        let mut slots = Vec::new();
        for (a, owners) in self.owner.chunks_exact(k).enumerate() {
            starts.push(slots.len() as u32);
            for (slot, &o) in owners.iter().enumerate() {
                let sp = springs.get(o as usize).filter(|sp| sp.actuated);
                if let Some(sp) = sp {
                    slots.push([sp.actuator, a as u32 * width + slot as u32]);
                }
            }
        }
        starts.push(slots.len() as u32);
        (!slots.is_empty()).then_some(MuscleSlots { starts, slots })
    }

    /// `template` (shaders/springs_stencil.wgsl) with its `//@` lines generated for this
    /// stencil; `links` is the link count (the first slot code), `remainder` whether some springs
    /// are outside the stencil, `muscles` whether each invocation sets the rest lengths of the
    /// muscles in its slots first (then `springs_stencil_muscles.wgsl` is appended, and the
    /// kernel's bind group layout is [`Stencil::layout`]`(true)`), `fused` whether the walk is
    /// part of the fused steps kernel (`state` written, `step` a private copy; see
    /// `shaders/steps.wgsl`).
    pub(crate) fn wgsl(
        &self,
        template: &str,
        links: u32,
        remainder: bool,
        precision: Precision,
        muscles: bool,
        fused: bool,
    ) -> String {
        let chains = self.chains();
        let mut constants = String::new();
        let _ = writeln!(
            constants,
            "const STENCIL_SLOTS: u32 = {}u;\nconst STENCIL_WORDS: u32 = {}u;\n\
             const STENCIL_CODE: u32 = {links}u;\nconst HAS_REMAINDER: bool = {remainder};\n\
             const MUSCLES_SET: bool = {muscles};",
            self.slots(),
            self.words()
        );
        // Each slot's material as WGSL constants (literals that round-trip exactly).
        for (k, m) in self.materials.iter().enumerate() {
            let _ = writeln!(
                constants,
                "const SLOT_MATERIAL_{k}: GpuMaterial = GpuMaterial({}, {}, {}u, 0u);",
                precision.wgsl_literal(m.stiffness),
                precision.wgsl_literal(m.damping),
                m.law
            );
        }
        let mut declare = String::new();
        for (c, &(base, width)) in chains.iter().enumerate() {
            for j in 0..width {
                let _ = writeln!(
                    declare,
                    "    var s{c}_{j} = state[min(a0 + {}u, last_mass)];\n    var f{c}_{j} = zero;",
                    base + j
                );
            }
        }
        let mut slots = String::new();
        for w in 0..self.words() {
            let _ = writeln!(
                slots,
                "        let r{w} = words_vec4(stencil[a * STENCIL_WORDS + {w}u]);"
            );
        }
        for (k, &d) in self.offsets.iter().enumerate() {
            let (c, &(base, _)) = chains
                .iter()
                .enumerate()
                .rev()
                .find(|(_, &(base, _))| base <= d)
                .expect("chain 0 has base 0");
            let j = d - base;
            let lane = ["x", "y", "z", "w"][k % 4];
            let _ = writeln!(
                slots,
                "        {{\n            let ss = stencil_slot(pa, va, s{c}_{j}, SLOT_MATERIAL_{k}, r{}.{lane});\n            \
                 let sf = ss.force;\n            \
                 if TRACK_ENERGY {{\n                dissipated += sf.power;\n                injected += ss.injected;\n            }}\n            \
                 overflow = select(min(overflow, code + {k}u), overflow, sf.ok);\n            \
                 f0_0 -= sf.q;\n            f{c}_{j} += sf.q;\n        }}",
                k / 4
            );
        }
        let mut shift = String::new();
        let mut finish = String::new();
        for (c, &(base, width)) in chains.iter().enumerate() {
            let _ = writeln!(
                shift,
                "        scatter(min(a + {base}u, last_mass), f{c}_0);"
            );
            for j in 1..width {
                let _ = writeln!(
                    shift,
                    "        f{c}_{} = f{c}_{j};\n        s{c}_{} = s{c}_{j};",
                    j - 1,
                    j - 1
                );
                let _ = writeln!(
                    finish,
                    "    scatter(min(next + {}u, last_mass), f{c}_{});",
                    base + j - 1,
                    j - 1
                );
            }
            let _ = writeln!(
                shift,
                "        f{c}_{last} = zero;\n        s{c}_{last} = state[min(a + {}u, last_mass)];",
                base + width,
                last = width - 1
            );
        }
        let access = if muscles { "read_write" } else { "read" };
        let mut bindings =
            format!("@group(0) @binding(12) var<storage, {access}> stencil: array<Words>;\n");
        bindings.push_str(if fused {
            "@group(0) @binding(6) var<storage, read_write> state: array<State>;\n\
             var<private> step: GpuStep;\n"
        } else {
            "@group(0) @binding(6) var<storage, read> state: array<State>;\n\
             @group(1) @binding(0) var<uniform> step: GpuStep;\n"
        });
        let set = if muscles {
            "    set_muscles(a0, count);\n"
        } else {
            ""
        };
        let mut out = String::with_capacity(template.len() + 4096);
        for line in template.lines() {
            match line.trim() {
                "//@ bindings" => out.push_str(&bindings),
                "//@ muscles" => out.push_str(set),
                "//@ constants" => out.push_str(&constants),
                "//@ declare" => out.push_str(&declare),
                "//@ slots" => out.push_str(&slots),
                "//@ shift" => out.push_str(&shift),
                "//@ finish" => out.push_str(&finish),
                _ => {
                    out.push_str(line);
                    out.push('\n');
                }
            }
        }
        if muscles {
            out.push_str(SPRINGS_STENCIL_MUSCLES);
        }
        out
    }

    /// The bind group layout (see `kernels::bindings`) of the stencil variant, with or without
    /// the muscles set before the walk.
    pub(crate) fn layout(muscles: bool) -> &'static str {
        if muscles {
            "springs_stencil_muscles"
        } else {
            "springs_stencil"
        }
    }
}

/// What the stencil variant appends when invocations set their muscles' rest lengths.
const SPRINGS_STENCIL_MUSCLES: &str = include_str!("../../../shaders/springs_stencil_muscles.wgsl");

/// The muscles held in stencil slots: those of mass `a` are `slots[starts[a]..starts[a + 1]]`,
/// each `[actuator index, element of the slot table (in reals)]`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct MuscleSlots {
    /// Masses + 1 entries, ascending.
    pub(crate) starts: Vec<u32>,
    pub(crate) slots: Vec<[u32; 2]>,
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::builders::{Builder, Cloth, Lattice, RandomStructure, Rope};
    use crate::model::SpringLaw;
    use crate::model::{Model, Params};

    /// The device's springs and material table of `model` (materials deduplicated by stiffness
    /// and damping, as the World does; every builder here uses one law).
    fn device_springs(model: &Model) -> (Vec<GpuSpring>, Vec<GpuMaterial>) {
        let mut materials: Vec<GpuMaterial> = Vec::new();
        let springs = model
            .springs
            .iter()
            .map(|s| {
                let m = GpuMaterial {
                    stiffness: s.stiffness,
                    damping: s.damping,
                    law: SpringLaw::Hooke.tag(),
                    pad0: 0,
                };
                let material = materials
                    .iter()
                    .position(|x| (x.stiffness, x.damping) == (m.stiffness, m.damping))
                    .unwrap_or_else(|| {
                        materials.push(m);
                        materials.len() - 1
                    });
                GpuSpring {
                    a: s.a,
                    b: s.b,
                    rest: s.rest_length,
                    actuator: 0,
                    material: material as u32,
                    actuated: false,
                }
            })
            .collect();
        (springs, materials)
    }

    fn part_model(part: crate::model::Part) -> Model {
        let mut model = Model::new(Params::default());
        model.add("body", part);
        model
    }

    #[test]
    fn the_scene_lattice_has_thirteen_offsets_in_five_chains() {
        let model = Lattice::benchmark(6).model().unwrap();
        let (springs, materials) = device_springs(&model);
        let st = Stencil::find(&springs, model.masses.len(), &materials).unwrap();
        assert_eq!(
            st.offsets(),
            [1, 5, 6, 7, 29, 30, 31, 35, 36, 37, 41, 42, 43]
        );
        assert_eq!(st.chains(), [(0, 2), (5, 3), (29, 3), (35, 3), (41, 3)]);
        assert_eq!(st.held(), springs.len());
        assert_eq!(st.words(), 4);
        // The last mass has no springs of its own: every slot empty.
        let table = st.table(&springs, Precision::F32);
        assert_eq!(table.len(), model.masses.len() * 16);
        assert!(table[table.len() - 16..].iter().all(|&r| r == -1.0));
        // Mass (1, 1, 1) = 43 has all 13 (edges 0.01 m, face diagonals, body diagonals); the
        // corner mass 0 lacks the offsets that step back in i or j; the padding is empty.
        let interior = &table[43 * 16..44 * 16];
        assert!(interior[..13].iter().all(|&r| r > 0.0), "{interior:?}");
        assert!(
            interior[13..].iter().all(|&r| r == -1.0),
            "padding {interior:?}"
        );
        assert_eq!(table[1], -1.0, "mass 0 has no spring to mass 5");
        for muscles in [false, true] {
            let wgsl = st.wgsl(SPRINGS_STENCIL, 999, false, Precision::F32, muscles, false);
            assert!(!wgsl.lines().any(|l| l.trim_start().starts_with("//@")));
            assert!(wgsl.contains("const STENCIL_CODE: u32 = 999u;"));
            assert!(wgsl.contains("const HAS_REMAINDER: bool = false;"));
            assert_eq!(wgsl.contains("set_muscles(a0, count);"), muscles);
        }
        assert_eq!(st.muscles(&springs), None, "no spring is actuated");
    }

    /// The muscle list names each muscle held in a slot once, under the mass whose slot holds
    /// it, with the slot's element in the table; muscles outside the stencil are not listed.
    #[test]
    fn muscle_slots_list_each_held_muscle_under_its_mass() {
        let model = Lattice::benchmark(4).model().unwrap();
        let (mut springs, materials) = device_springs(&model);
        // Every third spring actuated (actuator = its index / 3), one of them reversed.
        for (i, sp) in springs.iter_mut().enumerate().step_by(3) {
            sp.actuated = true;
            sp.actuator = i as u32 / 3;
        }
        let sp = &mut springs[3];
        (sp.a, sp.b) = (sp.b, sp.a);
        let st = Stencil::find(&springs, model.masses.len(), &materials).unwrap();
        let list = st.muscles(&springs).expect("muscles in slots");
        assert_eq!(list.starts.len(), model.masses.len() + 1);
        assert_eq!(list.starts[0], 0);
        assert!(list.starts.windows(2).all(|w| w[0] <= w[1]));
        assert_eq!(*list.starts.last().unwrap() as usize, list.slots.len());
        let table = st.table(&springs, Precision::F32);
        let mut listed = 0;
        for (i, sp) in springs.iter().enumerate() {
            let Some(at) = st.element(i, sp) else {
                continue;
            };
            assert_eq!(table[at as usize] < -1.5, sp.actuated, "spring {i}");
            if !sp.actuated {
                continue;
            }
            listed += 1;
            let lo = sp.a.min(sp.b) as usize;
            let own = &list.slots[list.starts[lo] as usize..list.starts[lo + 1] as usize];
            assert!(
                own.contains(&[sp.actuator, at as u32]),
                "spring {i}: {own:?}"
            );
        }
        assert_eq!(listed, list.slots.len());
        assert_eq!(listed, springs.len().div_ceil(3));
        springs.iter_mut().for_each(|sp| sp.actuated = false);
        assert_eq!(st.muscles(&springs), None);
    }

    #[test]
    fn a_cloth_takes_one_material_per_offset() {
        let cloth = Cloth {
            nx: 9,
            ny: 7,
            ..Cloth::default()
        };
        let model = part_model(cloth.build().unwrap());
        let (springs, materials) = device_springs(&model);
        assert!(materials.len() > 1, "{materials:?}");
        let st = Stencil::find(&springs, model.masses.len(), &materials).unwrap();
        assert_eq!(st.held(), springs.len());
        // Every offset's springs share the material compiled in for it.
        for sp in &springs {
            let slot = st.offsets().binary_search(&slot_of(sp).1).unwrap();
            let (ours, theirs) = (st.materials[slot], materials[sp.material as usize]);
            assert_eq!(
                (ours.stiffness, ours.damping),
                (theirs.stiffness, theirs.damping)
            );
        }
    }

    #[test]
    fn reversed_and_duplicate_springs() {
        let rope = Rope {
            segments: 30,
            ..Rope::default()
        };
        let model = part_model(rope.build().unwrap());
        let (mut springs, materials) = device_springs(&model);
        let n = model.masses.len();
        // Spring 3 listed from its higher mass, spring 5 listed twice.
        let (a, b) = (springs[3].a, springs[3].b);
        springs[3].a = b;
        springs[3].b = a;
        springs.push(springs[5]);
        let st = Stencil::find(&springs, n, &materials).unwrap();
        assert_eq!(st.chains()[0].0, 0);
        let last = springs.len() - 1;
        assert_eq!(st.held(), last, "all but the duplicate");
        let held = st.membership(springs.len());
        assert!(held[3] && held[5] && !held[last]);
        let width = 4 * u64::from(st.words());
        let lo = u64::from(a.min(b));
        let slot = st.offsets().binary_search(&a.abs_diff(b)).unwrap() as u64;
        assert_eq!(st.element(3, &springs[3]), Some(lo * width + slot));
        assert_eq!(st.element(last, &springs[last]), None);
        assert_eq!(
            st.spring_of((lo * st.offsets().len() as u64 + slot) as u32),
            3
        );
    }

    /// An actuated spring sits in its slot under the code `-(2 + actuator)` (exact in f32 up to
    /// the largest index that fits); one whose actuator index does not fit stays in the links.
    #[test]
    fn actuated_springs_sit_in_slots_under_their_actuator_code() {
        let rope = Rope {
            segments: 30,
            ..Rope::default()
        };
        let model = part_model(rope.build().unwrap());
        let (mut springs, materials) = device_springs(&model);
        let (driven, far) = (4, 9);
        springs[driven].actuated = true;
        springs[driven].actuator = 7;
        springs[far].actuated = true;
        springs[far].actuator = SLOT_ACTUATORS;
        let st = Stencil::find(&springs, model.masses.len(), &materials).unwrap();
        assert_eq!(st.held(), springs.len() - 1, "all but the unfit index");
        let held = st.membership(springs.len());
        assert!(held[driven] && !held[far]);
        let table = st.table(&springs, Precision::F32);
        let at = st.element(driven, &springs[driven]).unwrap() as usize;
        assert_eq!(table[at], -9.0);
        // The largest index that fits round-trips through f32.
        let last = GpuSpring {
            actuator: SLOT_ACTUATORS - 1,
            ..springs[driven]
        };
        let code = slot_code(&last, Precision::F32) as f32;
        assert!(eligible(&last));
        assert_eq!((-code) as u32 - 2, SLOT_ACTUATORS - 1);
    }

    #[test]
    fn irregular_structures_have_no_stencil() {
        let random = RandomStructure {
            masses: 200,
            ..RandomStructure::default()
        };
        let model = part_model(random.build().unwrap());
        let (springs, materials) = device_springs(&model);
        assert!(Stencil::find(&springs, model.masses.len(), &materials).is_none());
        assert!(Stencil::find(&[], 10, &materials).is_none());
    }
}
