// hooke: the real type of every kernel in Precision::F32, prepended first by `source` in
// src/gpu/kernel.rs (real_f64.wgsl is its f64 twin). Kernels compute in `Real` and call
// `sin_real` and `cos_real`, never `sin` and `cos` (SPIR-V's GLSL.std.450 has no f64 sine).
alias Real = f32;

// u32 words per real in a word table (the heightfield samples of `obstacle_words`).
const REAL_WORDS: u32 = 1u;

// The real of its words in a word table (`hi` is `lo` in f32).
fn real_of_words(lo: u32, hi: u32) -> Real {
    return bitcast<f32>(lo);
}

fn sin_real(x: Real) -> Real {
    return sin(x);
}

fn cos_real(x: Real) -> Real {
    return cos(x);
}
