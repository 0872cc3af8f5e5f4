// hooke: the real type of every kernel in Precision::F64, prepended first by `source` in
// src/gpu/kernel.rs instead of real_f32.wgsl. Vulkan's GLSL.std.450 `Sin` and `Cos` take 16-
// and 32-bit floats only, so the f64 sine and cosine are computed here: reduction by multiples of
// pi/2 in three parts (Cody-Waite; the first two of 33 bits, so n * part is exact for |n| < 2^20,
// arguments below about 1.6e6 rad), then fdlibm's kernel polynomials on [-pi/4, pi/4] (errors
// below 1 ulp there). The CPU reference uses the platform's sin: they agree to a few ulp.
alias Real = f64;

// u32 words per real in a word table (the heightfield samples of `obstacle_words`).
const REAL_WORDS: u32 = 2u;

// The real of its words in a word table: f64 bits, low word first.
fn real_of_words(lo: u32, hi: u32) -> Real {
    return bitcast<f64>(u64(lo) | (u64(hi) << 32u));
}

const PIO2_1: f64 = 1.57079632673412561417e+00;
const PIO2_2: f64 = 6.07710050630396597660e-11;
const PIO2_3: f64 = 2.02226624871116645580e-21;
const INV_PIO2: f64 = 6.36619772367581382433e-01;

// sin on [-pi/4, pi/4].
fn sin_kernel(x: f64) -> f64 {
    let z = x * x;
    let p = -1.66666666666666324348e-01 + z * (8.33333333332248946124e-03
        + z * (-1.98412698298579493134e-04 + z * (2.75573137070700676789e-06
        + z * (-2.50507602534068634195e-08 + z * 1.58969099521155010221e-10))));
    return x + x * z * p;
}

// cos on [-pi/4, pi/4].
fn cos_kernel(x: f64) -> f64 {
    let z = x * x;
    let p = 4.16666666666666019037e-02 + z * (-1.38888888888741095749e-03
        + z * (2.48015872894767294178e-05 + z * (-2.75573143513906633035e-07
        + z * (2.08757232129817482790e-09 + z * -1.13596475577881948265e-11))));
    let hz = 0.5 * z;
    let w = 1.0 - hz;
    return w + (((1.0 - w) - hz) + z * z * p);
}

// x = n pi/2 + r, |r| <= pi/4: (r, n mod 4).
fn reduce_pio2(x: f64) -> vec2<f64> {
    let n = round(x * INV_PIO2);
    let r = ((x - n * PIO2_1) - n * PIO2_2) - n * PIO2_3;
    let quadrant = n - 4.0 * floor(n * 0.25);
    return vec2<f64>(r, quadrant);
}

fn sin_real(x: Real) -> Real {
    let rq = reduce_pio2(x);
    let q = u32(rq.y);
    if q == 0u {
        return sin_kernel(rq.x);
    }
    if q == 1u {
        return cos_kernel(rq.x);
    }
    if q == 2u {
        return -sin_kernel(rq.x);
    }
    return -cos_kernel(rq.x);
}

fn cos_real(x: Real) -> Real {
    let rq = reduce_pio2(x);
    let q = u32(rq.y);
    if q == 0u {
        return cos_kernel(rq.x);
    }
    if q == 1u {
        return -sin_kernel(rq.x);
    }
    if q == 2u {
        return -cos_kernel(rq.x);
    }
    return sin_kernel(rq.x);
}
