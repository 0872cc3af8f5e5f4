//! [`split_share`]: the contiguous share of a batch that one of several evaluators takes, the
//! one cut of `hooke eval --split K/N` and of `hooke.ray` in Python.

use std::ops::Range;

/// The positions of share `k` of `n` of a batch of `total` robots: `[k total / n, (k + 1)
/// total / n)`. The `n` shares are contiguous, cover every robot once in input order and differ
/// in size by at most one; a share may be empty (when `n > total`). `k` counts from 0.
///
/// # Panics
/// If `n` is 0 or `k >= n` (`hooke eval` checks `--split` before calling it).
///
/// # Examples
///
/// ```
/// use hooke::population::split_share;
///
/// let shares: Vec<_> = (0..3).map(|k| split_share(10, k, 3)).collect();
/// assert_eq!(shares, [0..3, 3..6, 6..10]);
/// ```
#[must_use]
pub fn split_share(total: usize, k: usize, n: usize) -> Range<usize> {
    assert!(k < n, "share {k} of {n}: shares count from 0 to {n} - 1");
    // u128: k * total cannot overflow for any batch that fits in memory.
    let at = |i: usize| (i as u128 * total as u128 / n as u128) as usize;
    at(k)..at(k + 1)
}

#[cfg(test)]
mod tests {
    use super::split_share;

    #[test]
    fn shares_cover_every_robot_once_in_order() {
        for total in [0, 1, 5, 7, 100] {
            for n in 1..=9 {
                let mut next = 0;
                for k in 0..n {
                    let s = split_share(total, k, n);
                    assert_eq!(s.start, next, "total {total}, share {k}/{n}");
                    assert!(s.len() >= total / n && s.len() <= total / n + 1);
                    next = s.end;
                }
                assert_eq!(next, total);
            }
        }
    }
}
