//! Turns `HOOKE_SKIP_GPU_TESTS=1` into the `skip_gpu_tests` cfg, so that GPU tests show as
//! ignored (never silently passed) on machines asked not to run them.

fn main() {
    println!("cargo::rustc-check-cfg=cfg(skip_gpu_tests)");
    println!("cargo::rerun-if-env-changed=HOOKE_SKIP_GPU_TESTS");
    if std::env::var("HOOKE_SKIP_GPU_TESTS").is_ok_and(|v| v == "1") {
        println!("cargo::rustc-cfg=skip_gpu_tests");
    }
}
