//! The benchmark harness (`cli::bench::harness`): medians, dates, the standard workloads.

use wgpu_noise::cli::bench::harness::{civil_from_days, median, Workload, TEXELS_PER_CELL};
use wgpu_noise::NoiseKind;

#[test]
fn median_of_odd_and_even_counts() {
    assert_eq!(median(&[3.0, 1.0, 2.0]), 2.0);
    assert_eq!(median(&[4.0, 1.0, 3.0, 2.0]), 2.5);
    assert!(median(&[]).is_nan());
}

#[test]
fn civil_dates_of_known_days() {
    assert_eq!(civil_from_days(0), (1970, 1, 1));
    assert_eq!(civil_from_days(11_016), (2000, 2, 29));
    assert_eq!(civil_from_days(20_415), (2025, 11, 23));
}

#[test]
fn standard_workloads_have_the_issue_sizes() {
    let samples: Vec<u64> = Workload::STANDARD.iter().map(Workload::samples).collect();
    assert_eq!(samples, [2048 * 2048, 256 * 256 * 256, 64 * 64 * 64 * 64]);
    // Same step per texel everywhere: the peers' coordinates match the field's.
    for w in Workload::STANDARD {
        let c = w.coordinates();
        assert_eq!(c[1], 1.0 / TEXELS_PER_CELL as f64);
        assert_eq!(w.field(NoiseKind::Simplex).step()[0], c[1]);
    }
}
