//! Times in messages as a person writes them: `t = 0.0003 s`, not the float noise of
//! `step * dt` (`0.00030000000000000003`).

/// `t` rounded to 12 significant digits, which `{}` then prints as the shortest decimal that
/// reads back to it: `3 * 1e-4` (`0.00030000000000000003`) becomes `0.0003`. Twelve digits keep
/// every step of any run apart (a run of 10^9 steps needs 10) and drop the last bits of
/// rounding that a product of step and dt carries. Non-finite values pass through unchanged.
pub(crate) fn readable_time(t: f64) -> f64 {
    format!("{t:.11e}").parse().unwrap_or(t)
}

#[cfg(test)]
mod tests {
    use super::readable_time;

    #[test]
    fn float_noise_of_step_times_dt_is_dropped() {
        assert_eq!(format!("{}", readable_time(3.0 * 1e-4)), "0.0003");
        assert_eq!(format!("{}", 3.0 * 1e-4), "0.00030000000000000003");
        assert_eq!(format!("{}", readable_time(0.1 + 0.2)), "0.3");
    }

    #[test]
    fn times_that_differ_in_the_twelfth_digit_stay_apart() {
        assert_eq!(format!("{}", readable_time(1234.56789012)), "1234.56789012");
        assert_eq!(format!("{}", readable_time(2.5e-7)), "0.00000025");
        assert_eq!(format!("{}", readable_time(0.0)), "0");
        assert!(readable_time(f64::NAN).is_nan());
        assert_eq!(readable_time(f64::INFINITY), f64::INFINITY);
    }
}
