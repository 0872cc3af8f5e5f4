// hooke: the real type of every kernel in Precision::F32, prepended first by `source` in
// src/gpu/pipelines.rs (real_f64.wgsl is its f64 twin). Kernels compute in `Real` and call
// `sin_real` and `cos_real`, never `sin` and `cos` (SPIR-V's GLSL.std.450 has no f64 sine).
alias Real = f32;

fn sin_real(x: Real) -> Real {
    return sin(x);
}

fn cos_real(x: Real) -> Real {
    return cos(x);
}
