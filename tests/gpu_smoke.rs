mod common;
use wgpu_noise::{cpu, tables::LookupTables, Field, NoiseKind};

#[test]
fn smoke() {
    let Some(ctx) = common::gpu() else { return };
    eprintln!("adapter: {}", ctx.describe());
    let g = common::generator(&ctx, 0);
    let lut = LookupTables::new(0);
    for kind in NoiseKind::ALL {
        for size in [&[37u32, 5][..], &[9, 7, 5], &[5, 4, 3, 6]] {
            let field = Field::new(kind, size).with_frequency(&[3.0, 2.0, 1.5, 2.5]).with_offset(&[-3.2, 1.1, 300.0, -7.0]);
            let gpu = g.generate(&field).unwrap();
            let cpu = cpu::fill::generate_f32(&lut, &field).unwrap();
            let max = gpu.iter().zip(&cpu).map(|(a, b)| (a - b).abs()).fold(0.0f32, f32::max);
            eprintln!("{kind} {}D max err {max:e}", size.len());
        }
    }
}
