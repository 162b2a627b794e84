//! `FillParams::boxes` cuts a field into boxes that cover it in memory order, each within
//! the sample budget.

use wgpu_noise::field::FlagField;
use wgpu_noise::params::FillParams;
use wgpu_noise::NoiseKind;

#[test]
fn boxes_cover_the_field_in_memory_order_within_the_budget() {
    for (size, budget) in [
        (&[7u32, 5][..], 1000u64),
        (&[7, 5], 16),
        (&[7, 5], 3),
        (&[4, 3, 5], 30),
        (&[4, 3, 5], 5),
        (&[4, 3, 5, 3], 100),
        (&[4, 3, 5, 3], 1000),
    ] {
        let field = FlagField::new(NoiseKind::Classic, size);
        let mut next = 0u64;
        for p in FillParams::boxes(&field, budget) {
            let [nx, ny, nz, _] = field.size.map(u64::from);
            let first = p.origin[0] as u64
                + nx * (p.origin[1] as u64 + ny * (p.origin[2] as u64 + nz * p.origin[3] as u64));
            assert_eq!(
                first, next,
                "{size:?} budget {budget}: boxes must be contiguous"
            );
            assert!(
                p.len() as u64 <= budget.max(nx),
                "{size:?} budget {budget}: {} samples",
                p.len()
            );
            next += p.len() as u64;
        }
        assert_eq!(next, field.len(), "{size:?} budget {budget}");
    }
}
