//! CPU time of the process, shared by the CPU-rate tools (`cpu_rate`, `cpu_scenes`).

/// User + system CPU time of this process so far, s (NaN where `/proc` is missing).
pub fn cpu_seconds() -> f64 {
    let Ok(stat) = std::fs::read_to_string("/proc/self/stat") else {
        return f64::NAN;
    };
    // Fields after the command name (which may hold spaces) start at the last ')'.
    let fields: Vec<&str> = stat
        .rsplit(')')
        .next()
        .unwrap_or("")
        .split_whitespace()
        .collect();
    let ticks = |i: usize| {
        fields
            .get(i)
            .and_then(|f| f.parse::<f64>().ok())
            .unwrap_or(f64::NAN)
    };
    // utime and stime are fields 14 and 15 of the line, indices 11 and 12 after the name;
    // USER_HZ = 100.
    (ticks(11) + ticks(12)) / 100.0
}
