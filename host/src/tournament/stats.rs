//! Small statistics used by the summaries: means, medians and confidence intervals.

/// The arithmetic mean (0 for no values).
pub fn mean(values: &[f64]) -> f64 {
    if values.is_empty() {
        0.0
    } else {
        values.iter().sum::<f64>() / values.len() as f64
    }
}

/// The median (0 for no values); the mean of the middle two for an even count.
pub fn median(values: &[f64]) -> f64 {
    if values.is_empty() {
        return 0.0;
    }
    let mut v = values.to_vec();
    v.sort_by(f64::total_cmp);
    let m = v.len() / 2;
    if v.len() % 2 == 1 {
        v[m]
    } else {
        (v[m - 1] + v[m]) / 2.0
    }
}

/// The half width of the 95% confidence interval of the mean of `values` (normal approximation,
/// sample standard deviation); 0 for fewer than two values.
pub fn margin95(values: &[f64]) -> f64 {
    if values.len() < 2 {
        return 0.0;
    }
    let m = mean(values);
    let n = values.len() as f64;
    let variance = values.iter().map(|v| (v - m).powi(2)).sum::<f64>() / (n - 1.0);
    1.959_963_984_540_054 * (variance / n).sqrt()
}

/// The Wilson score interval for `successes` out of `n` at 95% confidence, as (low, high) shares.
/// Unlike the normal approximation it stays inside [0, 1] and behaves at 0% and 100%.
pub fn wilson95(successes: usize, n: usize) -> (f64, f64) {
    if n == 0 {
        return (0.0, 1.0);
    }
    const Z: f64 = 1.959_963_984_540_054;
    let (n, p) = (n as f64, successes as f64 / n as f64);
    let denom = 1.0 + Z * Z / n;
    let centre = (p + Z * Z / (2.0 * n)) / denom;
    let half = Z * (p * (1.0 - p) / n + Z * Z / (4.0 * n * n)).sqrt() / denom;
    ((centre - half).max(0.0), (centre + half).min(1.0))
}

/// The Elo difference a score implies, with its 95% error margin, as chess engine testers such as
/// cutechess-cli report them: the score is `mu = (wins + draws / 2) / n`, the difference
/// `-400 log10(1 / mu - 1)`, and the margin half the Elo width of `mu ± 1.96 s`, where `s` is the
/// standard error of the per-game points (1, 1/2, 0). `None` where a value is unbounded (a score
/// of 0% or 100%, or an interval reaching them).
pub fn elo95(wins: usize, draws: usize, losses: usize) -> (Option<f64>, Option<f64>) {
    let n = (wins + draws + losses) as f64;
    if n == 0.0 {
        return (None, None);
    }
    let (w, d, l) = (wins as f64 / n, draws as f64 / n, losses as f64 / n);
    let mu = w + d / 2.0;
    // `+ 0.0` turns the -0 of an even score into 0.
    let elo = |p: f64| (p > 0.0 && p < 1.0).then(|| -400.0 * (1.0 / p - 1.0).log10() + 0.0);
    let variance = w * (1.0 - mu).powi(2) + d * (0.5 - mu).powi(2) + l * mu.powi(2);
    let stderr = variance.sqrt() / n.sqrt();
    const Z: f64 = 1.959_963_984_540_054;
    let margin = match (elo(mu - Z * stderr), elo(mu + Z * stderr)) {
        (Some(low), Some(high)) => Some((high - low) / 2.0),
        _ => None,
    };
    (elo(mu), margin)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn means_and_medians() {
        // 1, 2, 3, 4: sample variance 5/3, so 1.96 * sqrt(5/3 / 4).
        assert!((margin95(&[1.0, 2.0, 3.0, 4.0]) - 1.265_151).abs() < 1e-5);
        assert_eq!(margin95(&[5.0]), 0.0);
        assert_eq!(mean(&[]), 0.0);
        assert_eq!(mean(&[1.0, 2.0, 6.0]), 3.0);
        assert_eq!(median(&[5.0, 1.0, 3.0]), 3.0);
        assert_eq!(median(&[4.0, 1.0, 3.0, 2.0]), 2.5);
    }

    #[test]
    fn wilson_intervals_match_known_values() {
        // Reference values from the closed form, e.g. 50/100 gives [0.4038, 0.5962].
        let (lo, hi) = wilson95(50, 100);
        assert!(
            (lo - 0.4038).abs() < 1e-4 && (hi - 0.5962).abs() < 1e-4,
            "{lo} {hi}"
        );
        let (lo, hi) = wilson95(100, 100);
        assert!((lo - 0.9630).abs() < 1e-4 && hi == 1.0, "{lo} {hi}");
        assert_eq!(wilson95(0, 0), (0.0, 1.0));
    }

    #[test]
    fn elo_matches_cutechess() {
        // An even score is 0 Elo; 75% is +190.8; 60 wins, 20 draws and 20 losses score 70%,
        // +147.2, with a per-game standard error of 0.0387 points: 147.2 +/- 66.0.
        assert_eq!(elo95(10, 0, 10).0, Some(0.0));
        let (elo, _) = elo95(75, 0, 25);
        assert!((elo.unwrap() - 190.85).abs() < 0.01, "{elo:?}");
        let (elo, margin) = elo95(60, 20, 20);
        assert!((elo.unwrap() - 147.19).abs() < 0.01, "{elo:?}");
        assert!((margin.unwrap() - 66.01).abs() < 0.01, "{margin:?}");
        assert_eq!(elo95(5, 0, 0), (None, None));
        assert_eq!(elo95(0, 0, 0), (None, None));
    }
}
