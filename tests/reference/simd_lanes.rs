//! The SIMD lane operations (`cpu::simd::lanes`): every instruction set's wrap to 256 and
//! multiplies are the scalar operations, at the edges of every conversion.

#[cfg(target_arch = "x86_64")]
use wgpu_noise::cpu::simd::lanes::{Avx2Lanes, Avx512Lanes};
use wgpu_noise::cpu::simd::lanes::{Isa, Sse2Lanes, F, LANES, U};

/// `Isa::$method` of SSE2 and of every other level this CPU has, with the level's name
/// (SSE2's is the portable form off x86_64, where the other levels do not exist).
macro_rules! levels_of {
    ($method:ident) => {{
        #[allow(unused_mut)]
        let mut levels = vec![("sse2", Sse2Lanes::$method as _)];
        #[cfg(target_arch = "x86_64")]
        {
            if std::arch::is_x86_feature_detected!("avx2") {
                levels.push(("avx2", Avx2Lanes::$method as _));
            }
            if std::arch::is_x86_feature_detected!("avx512f") {
                levels.push(("avx512", Avx512Lanes::$method as _));
            }
        }
        levels
    }};
}

/// The infinities, NaN and the largest finite `f32`s: beyond every conversion's range.
const NON_FINITE_AND_EXTREMES: [f32; 5] = [
    f32::INFINITY,
    f32::NEG_INFINITY,
    f32::NAN,
    f32::MAX,
    f32::MIN,
];

/// Every level's `wrap256` is the scalar `wrap256` for every whole number, infinity
/// and NaN, at the edges of the conversion: zeros, ±256 k, around 2²⁴, 2³¹ and
/// `f32::MAX`.
#[test]
fn wrap256_is_the_scalar_wrap256_on_every_level() {
    type Wrap = fn(F) -> U;
    let mut levels: Vec<(&str, Wrap)> = vec![("default", F::whole_low8)];
    levels.extend(levels_of!(wrap256));
    let mut values = [0.0f32, -0.0].to_vec();
    values.extend(NON_FINITE_AND_EXTREMES);
    for base in [
        0.0f32,
        256.0,
        16_777_216.0,
        2_147_483_648.0,
        4_294_967_296.0,
    ] {
        for step in -3..=3 {
            // Whole neighbours of `base` (at 2²⁴ and above, the f32 spacing there).
            let next = base + step as f32 * (base * f32::EPSILON).max(1.0);
            values.extend([next, -next, next + 255.0, -next - 255.0]);
        }
    }
    values.extend((-600..600).map(|v| v as f32));
    for chunk in values.chunks(LANES) {
        let mut lanes = [0.0f32; LANES];
        lanes[..chunk.len()].copy_from_slice(chunk);
        for (level, wrap256) in &levels {
            let wrapped = wrap256(F(lanes));
            for (v, w) in chunk.iter().zip(wrapped.0) {
                let scalar = wgpu_noise::cpu::lattice::wrap256(*v);
                assert_eq!(w, scalar, "{level}: wrap256({v:e})");
            }
        }
    }
}

/// Every level's `wrap256_floor` is the scalar `wrap256` of the floor, at the edges of
/// the conversion and between whole numbers (fractions, halves, the largest `f32`
/// below a whole number) on both sides of 0.
#[test]
fn wrap256_floor_is_the_scalar_wrap256_of_the_floor_on_every_level() {
    type WrapFloor = fn(F, F) -> U;
    let levels: Vec<(&str, WrapFloor)> = levels_of!(wrap256_floor);
    let mut values = NON_FINITE_AND_EXTREMES.to_vec();
    for base in [
        0.0f32,
        255.0,
        256.0,
        8_388_607.0,
        16_777_216.0,
        2_147_483_520.0,
    ] {
        for whole in [base - 1.0, base, base + 1.0] {
            for v in [
                whole,
                whole + 0.25,
                whole + 0.5,
                whole.next_up(),
                whole.next_down(),
            ] {
                values.extend([v, -v]);
            }
        }
    }
    values.extend([2_147_483_648.0, -2_147_483_648.0, -2_147_483_904.0]);
    values.extend((-2000..2000).map(|v| v as f32 * 0.37));
    for chunk in values.chunks(LANES) {
        let mut lanes = [0.0f32; LANES];
        lanes[..chunk.len()].copy_from_slice(chunk);
        let cells = F(lanes.map(f32::floor));
        for (level, wrap256_floor) in &levels {
            let wrapped = wrap256_floor(F(lanes), cells);
            for (v, w) in chunk.iter().zip(wrapped.0) {
                let scalar = wgpu_noise::cpu::lattice::wrap256(v.floor());
                assert_eq!(w, scalar, "{level}: wrap256(floor({v:e}))");
            }
        }
    }
}

/// Every level's `wrapping_mul` and `scale_top16` are the scalar operations for every
/// top half (0 to 65535, each with low halves 0, 1 and 65535), by the multipliers
/// the hash uses and the extremes.
#[test]
fn multiplies_are_the_scalar_ones_on_every_level() {
    type Mul = fn(U, u32) -> U;
    type Scale = fn(U, u16) -> U;
    let multiplies: Vec<(&str, Mul)> = levels_of!(wrapping_mul);
    let scales: Vec<(&str, Scale)> = levels_of!(scale_top16);
    let values: Vec<u32> = (0..=u16::MAX as u32)
        .flat_map(|top| [0, 1, 0xffff].map(|low| top << 16 | low))
        .collect();
    for chunk in values.chunks(LANES) {
        let mut lanes = [0u32; LANES];
        lanes[..chunk.len()].copy_from_slice(chunk);
        let v = U(lanes);
        for (level, mul) in &multiplies {
            for m in [0x27d4_eb2d, 0x846c_a68b, 0, 1, u32::MAX] {
                let want = v.map(|x| x.wrapping_mul(m));
                assert_eq!(mul(v, m).0, want.0, "{level}: times {m:#x}");
            }
        }
        for (level, scale) in &scales {
            for m in [12, 0, 1, u16::MAX] {
                let want = v.map(|x| ((x >> 16) * u32::from(m)) >> 16);
                assert_eq!(scale(v, m).0, want.0, "{level}: top half times {m}");
            }
        }
    }
}

/// Where a level holds a 48-entry table in registers (`Isa::read48` gives `Some`), every
/// lane reads the entry its index names, each of the 48 on each lane; AVX-512 does, and
/// where it runs it is checked that it does.
#[test]
fn read48_reads_each_lanes_entry_where_the_level_holds_tables() {
    let levels: Vec<(&str, TableRead<48>)> = levels_of!(read48);
    assert_table_reads(&levels);
}

/// The same of [`Isa::read32`], the 4D SuperSimplex gradients' 32-entry tables.
#[test]
fn read32_reads_each_lanes_entry_where_the_level_holds_tables() {
    let levels: Vec<(&str, TableRead<32>)> = levels_of!(read32);
    assert_table_reads(&levels);
}

/// The same of [`Isa::read16`], the 3D gradients' components (`Grad3::dot3`).
#[test]
fn read16_reads_each_lanes_entry_where_the_level_holds_tables() {
    let levels: Vec<(&str, TableRead<16>)> = levels_of!(read16);
    assert_table_reads(&levels);
}

/// A level's read of an `N`-entry table held in registers (`Isa::read48`, `Isa::read32`,
/// `Isa::read16`).
type TableRead<const N: usize> = fn(&[f32; N], U) -> Option<F>;

/// Asserts that each level's `read` of an `N`-entry table gives every lane the entry its
/// index names, bit for bit, each entry on each lane; that AVX-512 reads them all.
fn assert_table_reads<const N: usize>(levels: &[(&str, TableRead<N>)]) {
    // Distinct bit patterns, signs and a zero of each sign among them.
    let table: [f32; N] = std::array::from_fn(|n| match n {
        0 => 0.0,
        1 => -0.0,
        _ => (n as f32 * 1.375 - 30.0) * if n % 3 == 0 { -1.0 } else { 1.0 },
    });
    let entries = N as u32;
    for (level, read_table) in levels {
        let mut read = 0;
        for start in 0..entries {
            // Lane i reads entry (start + 7 i) mod N: every entry on every lane over the
            // starts, in no order the permutes could rely on.
            let n = U(std::array::from_fn(|i| (start + 7 * i as u32) % entries));
            let Some(v) = read_table(&table, n) else {
                continue;
            };
            read += 1;
            for (i, (&at, got)) in n.0.iter().zip(v.0).enumerate() {
                assert_eq!(
                    got.to_bits(),
                    table[at as usize].to_bits(),
                    "{level}: lane {i} reading entry {at} of {N}"
                );
            }
        }
        eprintln!("{level}: {read} of {N} reads from registers");
        if *level == "avx512" {
            assert_eq!(read, N, "AVX-512 holds the table in registers");
        }
    }
}
