//! The skew and unskew constants of simplex noise are the Java reference's expressions.

use wgpu_noise::cpu::simplex::{SIMPLEX2_F, SIMPLEX2_G, SIMPLEX4_F, SIMPLEX4_G};

#[test]
fn constants_are_the_java_expressions() {
    assert_eq!(SIMPLEX2_F, 0.5 * (3f64.sqrt() - 1.0));
    assert_eq!(SIMPLEX2_G, (3.0 - 3f64.sqrt()) / 6.0);
    assert_eq!(SIMPLEX4_F, (5f64.sqrt() - 1.0) / 4.0);
    assert_eq!(SIMPLEX4_G, (5.0 - 5f64.sqrt()) / 20.0);
}
