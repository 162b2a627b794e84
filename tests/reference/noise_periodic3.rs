//! Tileable 3D simplex noise (`simplex3_periodic`, the lattice of psrdnoise): it repeats
//! with every whole-number period, its seams are no steeper than its inside, it has no
//! jumps (continuous kernel), its range is [-1, 1], and tileable 3D simplex fields use it.

use wgpu_noise::cpu::fill::generate_f64;
use wgpu_noise::cpu::simplex::{simplex3_periodic, SIMPLEX3_PERIODIC_SCALE};
use wgpu_noise::cpu::{IntegerHasher, NoiseHasher};
use wgpu_noise::field::{FlagField, Fractal};
use wgpu_noise::tables::PermutationTables;
use wgpu_noise::NoiseKind;

/// A tiny deterministic generator for test points (SplitMix64).
struct Rng(u64);

impl Rng {
    fn range(&mut self, lo: f64, hi: f64) -> f64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^= z >> 31;
        lo + (z >> 11) as f64 / (1u64 << 53) as f64 * (hi - lo)
    }
}

/// Points for the range measurement (`PERIODIC3_POINTS=1000000` for the documented figure).
fn point_count() -> usize {
    std::env::var("PERIODIC3_POINTS")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(100_000)
}

fn range_of(lut: &impl NoiseHasher) -> (f64, f64) {
    let mut rng = Rng(1);
    let (mut lo, mut hi) = (f64::MAX, f64::MIN);
    for _ in 0..point_count() {
        let p = [
            rng.range(-50.0, 50.0),
            rng.range(-50.0, 50.0),
            rng.range(-50.0, 50.0),
        ];
        let v = simplex3_periodic::<f64>(lut, p[0], p[1], p[2], [7, 16, 5]);
        lo = lo.min(v);
        hi = hi.max(v);
    }
    (lo, hi)
}

#[test]
fn the_range_is_within_minus_one_to_one() {
    for (name, (lo, hi)) in [
        ("textures", range_of(&PermutationTables::new(0))),
        ("hash", range_of(&IntegerHasher::new(0))),
    ] {
        eprintln!(
            "PERIODIC3 {name}: {lo:.4} … {hi:.4} over {} points (unscaled {:.5} … {:.5})",
            point_count(),
            lo / SIMPLEX3_PERIODIC_SCALE,
            hi / SIMPLEX3_PERIODIC_SCALE
        );
        assert!(lo >= -1.0 && hi <= 1.0, "{name}: {lo} … {hi}");
        assert!(
            lo < -0.7 && hi > 0.7,
            "{name}: the scale leaves the range unused: {lo} … {hi}"
        );
    }
}

#[test]
fn it_repeats_with_every_whole_number_period() {
    let lut = PermutationTables::new(3);
    let mut rng = Rng(2);
    for period in [[1, 1, 1], [2, 3, 5], [7, 16, 5], [255, 256, 300]] {
        for _ in 0..2000 {
            let p = [
                rng.range(-20.0, 20.0),
                rng.range(-20.0, 20.0),
                rng.range(-20.0, 20.0),
            ];
            let v = simplex3_periodic::<f64>(&lut, p[0], p[1], p[2], period);
            for a in 0..3 {
                let mut q = p;
                q[a] += period[a] as f64;
                let w = simplex3_periodic::<f64>(&lut, q[0], q[1], q[2], period);
                assert!(
                    (v - w).abs() < 1e-12,
                    "{period:?} axis {a} at {p:?}: {v} vs {w}"
                );
            }
        }
    }
}

/// Along random lines with steps of 1e-4 no difference exceeds the slope bound: the
/// r² = 0.5 kernel vanishes at the faces of the simplices, so the noise has no jumps (the
/// r² = 0.6 kernel of Gustavson's 3D code jumps by up to about 1e-3).
#[test]
fn it_has_no_jumps() {
    let lut = IntegerHasher::new(5);
    let mut rng = Rng(3);
    let h = 1e-4;
    let mut steepest = 0.0f64;
    for _ in 0..200 {
        let p = [
            rng.range(-9.0, 9.0),
            rng.range(-9.0, 9.0),
            rng.range(-9.0, 9.0),
        ];
        let d = [
            rng.range(-1.0, 1.0),
            rng.range(-1.0, 1.0),
            rng.range(-1.0, 1.0),
        ];
        let n = (d[0] * d[0] + d[1] * d[1] + d[2] * d[2]).sqrt();
        let mut last = simplex3_periodic::<f64>(&lut, p[0], p[1], p[2], [4, 4, 4]);
        for s in 1..20_000 {
            let t = s as f64 * h / n;
            let v = simplex3_periodic::<f64>(
                &lut,
                p[0] + d[0] * t,
                p[1] + d[1] * t,
                p[2] + d[2] * t,
                [4, 4, 4],
            );
            steepest = steepest.max((v - last).abs() / h);
            last = v;
        }
    }
    eprintln!("PERIODIC3 steepest slope along lines: {steepest:.2} per cell");
    // A jump of 1e-3 within one step would read as a slope of 10; the smooth noise's own
    // slope is measured at a few units.
    assert!(steepest < 10.0, "{steepest}");
}

/// A tileable 3D simplex field: the jump across each seam (last texel to first, as the
/// tile repeats) is no larger than the largest step between neighbours inside it.
#[test]
fn tileable_3d_simplex_fields_have_seamless_edges() {
    let lut = PermutationTables::new(0);
    for octaves in [1, 3] {
        let (nx, ny, nz) = (48usize, 40usize, 24usize);
        let field = FlagField::new(NoiseKind::Simplex, &[nx as u32, ny as u32, nz as u32])
            .with_frequency(&[6.0, 5.0, 3.0])
            .with_offset(&[-2.0, 0.5, 10.0])
            .with_tileable(true)
            .with_fractal(Fractal {
                octaves,
                ..Fractal::default()
            });
        let v = generate_f64(&lut, &field).unwrap();
        // One tile further along every axis: the same values.
        let shifted = generate_f64(&lut, &field.clone().with_offset(&[4.0, 5.5, 13.0])).unwrap();
        let moved = v
            .iter()
            .zip(&shifted)
            .map(|(a, b)| (a - b).abs())
            .fold(0.0, f64::max);
        assert!(
            moved < 1e-12,
            "{octaves} octaves: one tile on differs by {moved:e}"
        );
        let at = |x: usize, y: usize, z: usize| v[x + nx * (y + ny * z)];
        let size = [nx, ny, nz];
        for axis in 0..3 {
            let (mut inner, mut seam) = (0.0f64, 0.0f64);
            for z in 0..nz {
                for y in 0..ny {
                    for x in 0..nx {
                        let i = [x, y, z];
                        let mut j = i;
                        j[axis] = (i[axis] + 1) % size[axis];
                        let step = (at(i[0], i[1], i[2]) - at(j[0], j[1], j[2])).abs();
                        if j[axis] == 0 {
                            seam = seam.max(step);
                        } else {
                            inner = inner.max(step);
                        }
                    }
                }
            }
            eprintln!("PERIODIC3 {octaves} octaves, axis {axis}: seam jump {seam:.4}, largest inner step {inner:.4}");
            assert!(seam <= inner, "axis {axis}: seam {seam} > inner {inner}");
        }
    }
}
