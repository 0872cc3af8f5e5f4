//! The continuum cases on the GPU World, in f32 and in f64, against the CPU reference: the same
//! case code (`cases::Backend`), so what differs is the arithmetic alone. Tension and compression
//! (`E_eff`, the lateral strain ratio) and the free bar's first longitudinal mode (the wave speed)
//! at 1, 2 and 4 cells across, each GPU figure held to the CPU reference's within a bound derived
//! below, and the mode's error against `c / (2 L)` required to fall as on the CPU. f64 needs the
//! adapter's `SHADER_F64` (lavapipe has it, the OpenGL backend has not): there the f64 tests check
//! that an f64 World is refused naming it, and say that the comparison did not run.
//!
//! The bending cases are not run here: their settling takes 10^5 steps and more per spacing, minutes
//! on a software adapter (the example runs them: `--backend gpu --cases bending`).
//!
//! # Static cases: how far a settled GPU state may lie from the CPU's
//! Each arithmetic settles to an equilibrium of a slightly different lattice, and two effects move
//! it (u: unit roundoff, `2^-24` in f32, `2^-52` in f64 to cover a rounding of rounded inputs):
//! - **Force errors.** Each spring's force is off by its length's rounding (difference, squares,
//!   sum, square root: `4 u L`), its rest length's (`u L`) and, on the GPU, the fixed-point sum's
//!   half quantum `q / 2`: the spring acts as if its rest length were off by `eta L`,
//!   `eta = 5 u + q / (2 min k L)`. By virtual work the elongation then moves by at most
//!   `eta sum |t_s| L_s`, `t_s` the spring forces under a unit load pair; under the uniform stress
//!   of the loads every cell's bonds give `sum |t_s| L_s = (69 / 35) L` (edges `1.5 k1 a^2`, face
//!   diagonals `4 k2 a^2`, body diagonals `2 k3 a^2` per node, in units of `E a^3 / 35`), and the
//!   face means weigh every face node alike where the stress weighs them by their share: a
//!   self-equilibrated difference at the end cells, taken as at most doubling it. So
//!   `|d eps| <= 4 eta`, for `eps_x` and (by the cubic symmetry) `eps_y`.
//! - **Stalling.** A mass stops moving when its step `v dt` rounds away, `|v dt| < u X` (`X` the
//!   largest coordinate, 0.04 m: the bar's corner is at the origin); under the velocity damping
//!   `gamma` a residual force `F` drives `v = F / (m gamma)`, so a stalled mass may keep a residual
//!   force up to `m gamma u X / dt` per coordinate. By virtual work with the uniform state's
//!   displacements (`|u_x| <= |x - L / 2|` per unit strain, and `nu` of that across) the
//!   elongation moves by at most `(gamma u X / (c^2 dt)) (L / 4 + nu b / 2) L` and the width by
//!   `(gamma u X / (c^2 dt)) (b / 4 + nu L / 4 + nu b / 4) b`, doubled as above for the face means.
//!
//! With both backends' errors added (the CPU's with its f64 `u` and no quantum),
//! `|E_gpu / E_cpu - 1| <= d eps_x / eps + 2 u` (the stiffness and the load rounded once) and
//! `|nu_gpu - nu_cpu| <= (d eps_y + nu d eps_x) / eps + 2 u`. In f32 the stall dominates (the
//! settled bar stops short of equilibrium, `E` comes out 0.4 % to 0.5 % high in both tension and
//! compression); in f64 the quantum does (`q / (2 min k L)` about `2e-15`).
//!
//! # The bar's mode: how far the GPU's frequency may lie from the CPU's
//! The frequency comes from the first and the last of 21 zero crossings of the elongation `s`
//! (amplitude `A = 2 U`, `U = 1e-4 L / pi` at each end), ten periods apart: a crossing moves by
//! `ds / (A omega)` when `s` is off by `ds`, so `df / f <= (ds_first + ds_last) / (20 pi A)`.
//! - **f64**: the parity suite's linear bound (`common::parity`, "In f64"): each step perturbs each
//!   position by at most `R u X` and each velocity by `R u V + dv_q` (`dv_q = n_max q dt /
//!   m_min`, the quantum), which the undamped lattice carries on without growth (a velocity error
//!   moves a mode by at most `dv / omega_1`); over `N` steps `ds <= 2 N (R u X + (R u V + dv_q) /
//!   omega_1)` (two faces), for each backend.
//! - **f32**: that linear bound exceeds the amplitude itself (each step rounds an end position by
//!   up to `u X = 4.8e-9 m`, 2e-3 of `U`, over thousands of steps), so the f32 bound is
//!   probabilistic: rounding to nearest leaves independent errors uniform within `+-u X` (standard
//!   deviation `u X / sqrt 3`) for each position coordinate each step, and the force roundings
//!   (`k 4 u L + q / 2` per spring, through `dt / m` and `1 / omega_1`) add their own; projected
//!   on the first mode (`phi = cos(pi x / L)`, mass-weighted) they random-walk its phase by
//!   `sigma = sqrt(N var(dq)) / U` over `N` steps. The test allows 6 standard deviations of the
//!   frequency (`6 sqrt 2 sigma / (20 pi)`, first and last crossing) plus `2 u` (stiffness and
//!   mass rounded once), and the f64 bound of the CPU's own rounding.

use std::f64::consts::PI;

use hooke::prelude::*;
use hooke::Precision;

use super::cases::bar_mode::{self, chain_error, first_longitudinal_mode, LENGTH, SIDE};
use super::cases::{bar, wave_speed, Backend};
use super::{
    cpu_bar_modes, cpu_tensions, tension_pair, BAR_SPACINGS as SPACINGS, TENSION_STRAIN as STRAIN,
};
use crate::common;
use crate::common::parity::{R, U, U64};

/// The lattice's Poisson's ratio.
const NU: f64 = 0.25;

/// The shared device as a case backend in `precision`.
fn gpu(precision: Precision) -> Backend {
    let (device, queue) = common::gpu();
    Backend::Gpu {
        device: device.clone(),
        queue: queue.clone(),
        precision,
    }
}

/// The unit roundoff of `precision` (see the module docs).
fn unit(precision: Precision) -> f64 {
    match precision {
        Precision::F32 => U,
        Precision::F64 => U64,
    }
}

/// Whether the shared device runs f64. Where it does not, checks that an f64 World is refused
/// naming `SHADER_F64` and says that the f64 comparison did not run.
fn f64_or_refusal() -> bool {
    let (device, queue) = common::gpu();
    if device.features().contains(wgpu::Features::SHADER_F64) {
        return true;
    }
    let options = WorldOptions {
        precision: Precision::F64,
        ..WorldOptions::default()
    };
    let refused = World::with_device(device.clone(), queue.clone(), &tension_model(1), options);
    let message = refused.err().map(|e| e.to_string()).unwrap_or_default();
    assert!(message.contains("SHADER_F64"), "{message}");
    eprintln!(
        "f64 comparison not run: {} has no SHADER_F64 (its refusal checked)",
        device.adapter_info().name
    );
    false
}

/// The force quantum (N) of a `precision` World of `model` on the shared device (0 for the CPU).
fn quantum(model: &Model, backend: &Backend) -> f64 {
    let Backend::Gpu { precision, .. } = backend else {
        return 0.0;
    };
    let options = WorldOptions {
        precision: *precision,
        ..WorldOptions::default()
    };
    common::world_with(model, options).fixed_point().quantum
}

/// The largest coordinate of `model`'s masses, m.
fn largest_coordinate(model: &Model) -> f64 {
    model
        .masses
        .iter()
        .map(|m| m.position.abs().max_element())
        .fold(0.0, f64::max)
}

/// The tension bar of `across` cells across as `tension` builds it, and its damping (1/s).
fn tension_model(across: u32) -> Model {
    let omega_1 = PI * wave_speed() / 0.04;
    bar(
        [2 * across, across, across],
        0.02 / f64::from(across),
        2.0 * omega_1,
    )
}

/// How far one backend's settled strains may lie from the exact lattice's, `[d eps_x, d eps_y]`
/// (module docs, "Static cases"), for the tension bar `model` with unit roundoff `u` and quantum
/// `q` (N).
fn settled_strain_error(model: &Model, u: f64, q: f64) -> [f64; 2] {
    let min_kl = model
        .springs
        .iter()
        .map(|s| s.stiffness * s.rest_length)
        .fold(f64::INFINITY, f64::min);
    let eta = 5.0 * u + q / (2.0 * min_kl);
    let (l, b) = (0.04, 0.02);
    let c2 = wave_speed().powi(2);
    let stall =
        model.params.velocity_damping * u * largest_coordinate(model) / (c2 * model.params.dt);
    [
        4.0 * eta + 2.0 * stall * (l / 4.0 + NU * b / 2.0),
        4.0 * eta + 2.0 * stall * (b / 4.0 + NU * l / 4.0 + NU * b / 4.0),
    ]
}

/// Tension and compression on `backend` against the CPU reference within the module docs' bound.
fn check_tension(backend: &Backend) {
    let u = match backend {
        Backend::Gpu { precision, .. } => unit(*precision),
        Backend::Cpu => U64,
    };
    println!(
        "| cells across | load | E: {0} / cpu - 1 | bound | nu: {0} - cpu | bound |",
        backend.name()
    );
    for (&across, cpu) in SPACINGS.iter().zip(cpu_tensions()) {
        let model = tension_model(across);
        let [gx, gy] = settled_strain_error(&model, u, quantum(&model, backend));
        let [cx, cy] = settled_strain_error(&model, U64, 0.0);
        let (dx, dy) = (gx + cx, gy + cy);
        let bound_e = dx / STRAIN + 2.0 * u;
        let bound_nu = (dy + NU * dx) / STRAIN + 2.0 * u;
        let runs = tension_pair(backend, across);
        for ((g, c), load) in runs.iter().zip(cpu).zip(["tension", "compression"]) {
            let de = g.young_modulus / c.young_modulus - 1.0;
            let dnu = g.poisson_ratio - c.poisson_ratio;
            println!(
                "| {across} | {load} | {de:.2e} | {bound_e:.1e} | {dnu:.2e} | {bound_nu:.1e} |"
            );
            assert!(
                de.abs() < bound_e,
                "{across} across, {load}: {g:?}, CPU {c:?}"
            );
            assert!(
                dnu.abs() < bound_nu,
                "{across} across, {load}: {g:?}, CPU {c:?}"
            );
        }
    }
}

#[test]
#[cfg_attr(skip_gpu_tests, ignore = "HOOKE_SKIP_GPU_TESTS=1")]
fn gpu_f32_tension_gives_the_cpu_reference_young_modulus_and_lateral_ratio() {
    check_tension(&gpu(Precision::F32));
}

#[test]
#[cfg_attr(skip_gpu_tests, ignore = "HOOKE_SKIP_GPU_TESTS=1")]
fn gpu_f64_tension_gives_the_cpu_reference_young_modulus_and_lateral_ratio() {
    if f64_or_refusal() {
        check_tension(&gpu(Precision::F64));
    }
}

/// The free bar of `across` cells across as `first_longitudinal_mode` builds it (before the
/// mode's shape is applied), and the steps its run may take (to 11 periods).
fn mode_model(across: u32) -> (Model, f64) {
    let model = bar([8 * across, across, across], SIDE / f64::from(across), 0.0);
    let steps = 11.0 * 2.0 * LENGTH / wave_speed() / model.params.dt;
    (model, steps)
}

/// The mode's amplitude at the bar's ends, m.
fn amplitude() -> f64 {
    1e-4 * LENGTH / PI
}

/// The f64 linear bound on `df / f` of one backend (module docs, "The bar's mode").
fn linear_frequency_error(model: &Model, steps: f64, u: f64, q: f64) -> f64 {
    let omega = PI * wave_speed() / LENGTH;
    let m_min = model
        .masses
        .iter()
        .map(|m| m.mass)
        .fold(f64::INFINITY, f64::min);
    let dv_q = 26.0 * q * model.params.dt / m_min;
    let v = omega * amplitude();
    let ds = 2.0 * steps * (R * u * largest_coordinate(model) + (R * u * v + dv_q) / omega);
    2.0 * ds / (20.0 * PI * 2.0 * amplitude())
}

/// The f32 probabilistic bound on `df / f` (module docs, "The bar's mode"): six standard
/// deviations of the first mode's phase walk, plus `2 u`.
fn random_walk_frequency_error(model: &Model, steps: f64, u: f64, q: f64) -> f64 {
    let omega = PI * wave_speed() / LENGTH;
    let x = largest_coordinate(model);
    // Each mass's springs: the sum of their force rounding bounds, N.
    let mut force = vec![0.0; model.masses.len()];
    for s in &model.springs {
        let e = s.stiffness * 4.0 * u * s.rest_length + q / 2.0;
        force[s.a as usize] += e;
        force[s.b as usize] += e;
    }
    let (mut weighted, mut modal) = (0.0, 0.0);
    for (m, f) in model.masses.iter().zip(&force) {
        let phi = (PI * m.position.x / LENGTH).cos();
        let variance = ((u * x).powi(2) + (f * model.params.dt / m.mass / omega).powi(2)) / 3.0;
        weighted += (m.mass * phi).powi(2) * variance;
        modal += m.mass * phi * phi;
    }
    let sigma = (steps * weighted).sqrt() / modal / amplitude();
    6.0 * 2f64.sqrt() * sigma / (20.0 * PI) + 2.0 * u
}

/// The bar's mode on `backend` at [`SPACINGS`]: each frequency within the bound of the CPU
/// reference's, and its error against `c / (2 L)` falling by at least 2 at each halving of the
/// spacing, as the CPU test asks (`continuum::bar_longitudinal_mode_converges_to_the_wave_speed`).
fn check_modes(precision: Precision) {
    let backend = gpu(precision);
    let u = unit(precision);
    let reference = bar_mode::reference();
    println!(
        "| cells across | f {} (Hz) | / cpu - 1 | bound | f / f_ref - 1 | chain |",
        backend.name()
    );
    let mut errors = Vec::new();
    for (&across, &cpu) in SPACINGS.iter().zip(cpu_bar_modes()) {
        let (model, steps) = mode_model(across);
        let q = quantum(&model, &backend);
        let own = match precision {
            Precision::F32 => random_walk_frequency_error(&model, steps, u, q),
            Precision::F64 => linear_frequency_error(&model, steps, u, q),
        };
        let bound = own + linear_frequency_error(&model, steps, U64, 0.0);
        let f = first_longitudinal_mode(&backend, across);
        let (d, error) = (f / cpu - 1.0, f / reference - 1.0);
        println!(
            "| {across} | {f:.4} | {d:.2e} | {bound:.1e} | {error:.2e} | {:.2e} |",
            -chain_error(across)
        );
        assert!(d.abs() < bound, "{across} across: {f} Hz, CPU {cpu} Hz");
        errors.push(error);
    }
    for pair in errors.windows(2) {
        assert!(pair[1].abs() < pair[0].abs() / 2.0, "errors {errors:?}");
    }
}

#[test]
#[cfg_attr(skip_gpu_tests, ignore = "HOOKE_SKIP_GPU_TESTS=1")]
fn gpu_f32_bar_mode_gives_the_cpu_reference_wave_speed() {
    check_modes(Precision::F32);
}

#[test]
#[cfg_attr(skip_gpu_tests, ignore = "HOOKE_SKIP_GPU_TESTS=1")]
fn gpu_f64_bar_mode_gives_the_cpu_reference_wave_speed() {
    if f64_or_refusal() {
        check_modes(Precision::F64);
    }
}
