//! A field that does not validate says what is wrong with it.

use wgpu_noise::field::{FlagField, NoiseKind};

#[test]
fn validation_names_the_problem() {
    let err = FlagField::new(NoiseKind::Simplex, &[0, 4])
        .validate()
        .unwrap_err();
    assert!(err.to_string().contains("size along x is 0"), "{err}");
    let err = FlagField::new(NoiseKind::Simplex, &[4, 4])
        .with_frequency(&[f64::NAN, 1.0])
        .validate()
        .unwrap_err();
    assert!(err.to_string().contains("frequency along x"), "{err}");
}
