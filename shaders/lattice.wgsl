// Wrapping whole-number cell coordinates. CPU mirror: src/cpu/lattice.rs.

// Floored modulo 256 of a whole-number cell coordinate: the lattice wrap.
// Every step is exact in binary floating point, at any magnitude and for negative cells.
fn wgpu_noise_wrap256(cell: f32) -> u32 {
    let r = cell - 256.0 * floor(cell / 256.0);
    return u32(r) & 255u;
}

// Floored modulo `period` of a whole-number cell coordinate, for tileable noise. The
// division is inexact for periods that are not powers of two: correct by one period.
fn wgpu_noise_wrap_period(cell: f32, period: u32) -> u32 {
    let p = f32(period);
    var r = cell - p * floor(cell / p);
    if (r < 0.0) { r = r + p; }
    if (r >= p) { r = r - p; }
    return u32(r) % period;
}

// Cell index along one axis and the next one, both wrapped to `period` cells.
fn wgpu_noise_cell_pair(cell: f32, period: u32) -> vec2<u32> {
    // The tables' own period needs no integer division (the same result, faster).
    if (period == 256u) {
        let i0 = wgpu_noise_wrap256(cell);
        return vec2<u32>(i0, (i0 + 1u) & 255u);
    }
    let i0 = wgpu_noise_wrap_period(cell, period);
    return vec2<u32>(i0, (i0 + 1u) % period);
}
