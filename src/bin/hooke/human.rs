//! Numbers as a person writes them in messages: simulated times without float noise
//! (`0.0003`, not `0.00030000000000000003`), wall times to a sensible precision.

/// `x` to 6 significant digits, in the shortest form that reads back as that (`0.0003`, `2`,
/// `1e-9`, `123456.8`).
pub(crate) fn number(x: f64) -> String {
    if !x.is_finite() {
        return x.to_string();
    }
    let rounded: f64 = format!("{x:.5e}").parse().unwrap_or(x);
    let plain = rounded.to_string();
    let scientific = format!("{rounded:e}");
    if plain.len() <= scientific.len() + 2 {
        plain
    } else {
        scientific
    }
}

/// A wall time for a person: `0.82 s`, `12.3 s`, `4 min 05 s`, `2 h 03 min`.
pub(crate) fn duration(seconds: f64) -> String {
    if !seconds.is_finite() || seconds < 0.0 {
        return format!("{seconds} s");
    }
    if seconds < 10.0 {
        return format!("{seconds:.2} s");
    }
    if seconds < 60.0 {
        return format!("{seconds:.1} s");
    }
    let whole = seconds.round() as u64;
    if whole < 3600 {
        return format!("{} min {:02} s", whole / 60, whole % 60);
    }
    format!("{} h {:02} min", whole / 3600, (whole % 3600) / 60)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn times_print_without_float_noise() {
        assert_eq!(number(0.000_300_000_000_000_000_03), "0.0003");
        assert_eq!(number(3.0 * 1e-4), "0.0003");
        assert_eq!(number(0.1 + 0.2), "0.3");
        assert_eq!(number(2.0), "2");
        assert_eq!(number(1e-4), "0.0001");
        assert_eq!(number(1e-9), "1e-9");
        assert_eq!(number(123_456.78), "123457");
        assert_eq!(number(-0.05), "-0.05");
        assert_eq!(duration(0.8234), "0.82 s");
        assert_eq!(duration(12.34), "12.3 s");
        assert_eq!(duration(245.0), "4 min 05 s");
        assert_eq!(duration(7380.0), "2 h 03 min");
    }
}
