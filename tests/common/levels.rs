//! Gray levels of a picture against the CPU reference's (the preview's screenshots, the
//! web page's canvas).

/// A screenshot's levels (gray, or each RGBA channel) against the CPU reference's.
///
/// ±1 level is the quantisation: a value within f32 rounding of a level's boundary may
/// round either way (GPU coordinates are offset + step·i in f32, the reference rounds F·i/W
/// from f64). Measured on lavapipe: see the stderr line. More than 1 could only come from a
/// simplex 3D/4D r² = 0.6 boundary jump (~1e-3, a tenth of a gray level), so a handful of
/// such values is allowed, no more.
pub fn assert_levels_match(got: &[u8], expected: &[u8], what: &str) {
    assert_levels_match_within(got, expected, what, 100);
}

/// [`assert_levels_match`] with at most one value in `one_in` off by one level.
pub fn assert_levels_match_within(got: &[u8], expected: &[u8], what: &str, one_in: usize) {
    let diff = differences(got, expected);
    let max = diff.iter().copied().max().unwrap();
    let off_by_one = diff.iter().filter(|&&d| d == 1).count();
    let larger = diff.iter().filter(|&&d| d > 1).count();
    eprintln!(
        "{what}: max |level − cpu| = {max}, {off_by_one} of {} values off by 1, {larger} by more",
        diff.len()
    );
    assert!(
        larger <= 5,
        "{what}: {larger} values differ by more than one level (max {max})"
    );
    assert!(
        off_by_one <= diff.len() / one_in,
        "{what}: {off_by_one} values off by one level"
    );
}

/// Per-pixel |a − b| in gray levels.
pub fn differences(a: &[u8], b: &[u8]) -> Vec<u8> {
    assert_eq!(a.len(), b.len());
    a.iter().zip(b).map(|(&x, &y)| x.abs_diff(y)).collect()
}
