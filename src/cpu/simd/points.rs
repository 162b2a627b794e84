//! Warped and flow fields on lanes: each lane's whole point is warped along every axis,
//! then the field's octave sum is taken at it (the scalar `fractal` with its warp,
//! `cpu::warp::warp`), so nothing is shared along a row.
//!
//! A row is done in segments of up to 256 samples, one operation at a time over the
//! segment's lane blocks (as FastNoise2 runs a node over a block of points): each octave
//! calls its out-of-line lane function ([`bases`](super::bases)) once for the segment, so
//! the call and the function's set-up are paid once per 256 samples, not once per 16.

use super::bases::{LaneBase, LaneNoise};
use super::lanes::{block_done, F, LANES};
use super::lookup::LaneHasher;
use super::noise::Turn;
use super::{lane_x, lattice_period, row_point, shape_octave, Base, Job};
use crate::cpu::warp::WARP_SHIFT;
use crate::params::{NoiseSettings, FRACTAL_FBM};

impl Base {
    /// The lane function of one octave of a sum over full lane points, whose periods are
    /// `period` (the field's times the octave's frequency; 0: not tiled), with flow noise's
    /// gradients turned by `turn` and the job's simplex kernel `r2`, `scale` (`base_noise`).
    fn at_octave(self, period: [f32; 4], turn: Option<Turn>, r2: f32, scale: f32) -> LaneBase {
        match self {
            Base::Classic2 => LaneBase::Classic2(period.map(lattice_period)),
            Base::Classic3 => LaneBase::Classic3(period.map(lattice_period)),
            Base::Classic4 => LaneBase::Classic4(period.map(lattice_period)),
            Base::Simplex2 => LaneBase::Simplex2(turn),
            // As `base_noise`: tiling before flow, and an octave whose period is not
            // positive (a frequency that underflowed) is the plain function.
            Base::Simplex2Tiled if period[0] > 0.0 => {
                LaneBase::Simplex2Tiled([period[0], period[1]])
            }
            Base::Simplex2Tiled => LaneBase::Simplex2(turn),
            Base::Simplex3 => LaneBase::Simplex3 { r2, scale, turn },
            Base::Simplex4 => LaneBase::Simplex4 { r2, scale },
        }
    }
}

/// One octave of a sum over full lane points: its frequency, amplitude and lane function.
#[derive(Clone, Copy, Debug)]
struct PointOctave {
    frequency: f32,
    amplitude: f32,
    base: LaneBase,
}

/// The octaves of a fractal sum (the field's, or the warp's fBm) and their amplitudes' sum.
#[derive(Clone, Debug)]
struct OctaveSum {
    octaves: Vec<PointOctave>,
    norm: f32,
}

impl OctaveSum {
    /// `count` octaves at `period` (the scalar loops' order of operations: each octave's
    /// amplitude and frequency the previous one's times gain and lacunarity), each with the
    /// lane function `base(its period)`.
    fn new(
        settings: &NoiseSettings,
        count: u32,
        period: [f32; 4],
        base: impl Fn([f32; 4]) -> LaneBase,
    ) -> OctaveSum {
        let mut octaves = Vec::with_capacity(count as usize);
        let (mut amplitude, mut frequency, mut norm) = (1.0f32, 1.0f32, 0.0f32);
        for _ in 0..count {
            octaves.push(PointOctave {
                frequency,
                amplitude,
                base: base(period.map(|v| v * frequency)),
            });
            norm += amplitude;
            amplitude *= settings.gain;
            frequency *= settings.lacunarity;
        }
        OctaveSum { octaves, norm }
    }
}

/// What a warped or flow field needs for all its rows (`fractal` and `cpu::warp::warp`,
/// fixed per fill).
#[derive(Clone, Debug)]
pub(super) struct PointSetup {
    /// The field's octaves.
    fractal: OctaveSum,
    /// The warp's frequency, amplitude and iterations (0: none), and its fBm's octaves
    /// (tiled with the field's periods times the warp frequency).
    warp_frequency: f32,
    warp_amplitude: f32,
    warp_iterations: u32,
    warp_fbm: OctaveSum,
}

impl PointSetup {
    /// The set-up of base function `base` with the simplex kernel `r2`, `scale`.
    pub(super) fn new(s: &NoiseSettings, base: Base, r2: f32, scale: f32) -> PointSetup {
        let frequency = s.warp_frequency;
        let warp_octaves = if s.warp_iterations > 0 {
            s.warp_octaves
        } else {
            0
        };
        let turn = (s.flow_angle != 0.0).then(|| Turn::new(s.flow_angle));
        let warp_period = s.period.map(|v| v * frequency);
        PointSetup {
            fractal: OctaveSum::new(s, s.octaves, s.period, |period| {
                base.at_octave(period, turn, r2, scale)
            }),
            warp_frequency: frequency,
            warp_amplitude: s.warp_amplitude,
            warp_iterations: s.warp_iterations,
            // `warp_fbm`: fBm of the same noise, which does not flow.
            warp_fbm: OctaveSum::new(s, warp_octaves, warp_period, |period| {
                base.at_octave(period, None, r2, scale)
            }),
        }
    }
}

/// The working arrays of an octave sum over one row: one entry per lane block.
struct OctaveRow {
    /// The octave's points.
    points: Vec<[F; 4]>,
    /// The octave's noise.
    noise: Vec<F>,
    /// The ridge weight carried to the next octave.
    weight: Vec<F>,
    /// The sum.
    total: Vec<F>,
}

impl OctaveRow {
    fn new(blocks: usize) -> OctaveRow {
        OctaveRow {
            points: vec![[F::splat(0.0); 4]; blocks],
            noise: vec![F::splat(0.0); blocks],
            weight: vec![F::splat(0.0); blocks],
            total: vec![F::splat(0.0); blocks],
        }
    }

    /// `total[..p.len()]` = the octave sum at full lane points `p`: the scalar `fractal`
    /// after its warp, or the warp's `warp_fbm` (mode fBm).
    ///
    /// The per-block loops here and in [`PointRow`] work on all four coordinates (the lane
    /// functions read only their first `D`), written out: the closure of an array's `map`
    /// or `from_fn` stays a call, compiled without the caller's `#[target_feature]`s.
    #[inline(always)]
    fn sum<L: LaneHasher, N: LaneNoise<L>>(
        &mut self,
        lut: &L,
        p: &[[F; 4]],
        sum: &OctaveSum,
        mode: u32,
    ) {
        let n = p.len();
        let (points, noise) = (&mut self.points[..n], &mut self.noise[..n]);
        let (weight, total) = (&mut self.weight[..n], &mut self.total[..n]);
        // Not `fill`: LLVM wrote it as one scatter per lane across the blocks.
        for (total, weight) in total.iter_mut().zip(weight.iter_mut()) {
            *total = F::splat(0.0);
            *weight = F::splat(1.0);
            block_done(weight);
        }
        for octave in &sum.octaves {
            for (q, p) in points.iter_mut().zip(p) {
                *q = times(p, octave.frequency);
                block_done(q);
            }
            N::eval(lut, octave.base, points, noise);
            let terms = noise.iter().zip(weight.iter_mut());
            for (total, (&n, weight)) in total.iter_mut().zip(terms) {
                *total = *total + octave.amplitude * shape_octave(mode, n, weight);
                block_done(total);
            }
        }
        // `x / 1` is `x`: a sum of one octave (the warp's usual one) skips the division.
        if sum.norm != 1.0 {
            for total in total {
                *total = *total / sum.norm;
                block_done(total);
            }
        }
    }
}

/// The working arrays of one row of a warped or flow field: one entry per lane block.
struct PointRow {
    /// The sample points.
    p: Vec<[F; 4]>,
    /// The warped points.
    q: Vec<[F; 4]>,
    /// The warped points times the warp's frequency (per warp iteration).
    scaled: Vec<[F; 4]>,
    /// The shifted points of one warp step.
    at: Vec<[F; 4]>,
    /// The warp's fBm per axis.
    d: [Vec<F>; 4],
    octaves: OctaveRow,
}

impl PointRow {
    fn new(blocks: usize) -> PointRow {
        let points = vec![[F::splat(0.0); 4]; blocks];
        PointRow {
            p: points.clone(),
            q: points.clone(),
            scaled: points.clone(),
            at: points,
            d: std::array::from_fn(|_| vec![F::splat(0.0); blocks]),
            octaves: OctaveRow::new(blocks),
        }
    }

    /// The scalar `fractal` with its warp (`cpu::warp::warp`) at the first `n` points of
    /// `p`, into `octaves.total`: the warp's fBm at the shifted points of each iteration and
    /// axis, then the field's octave sum at the warped points.
    #[inline(always)]
    fn warped_sum<L: LaneHasher, N: LaneNoise<L>>(
        &mut self,
        lut: &L,
        job: &Job,
        s: &PointSetup,
        n: usize,
    ) {
        let dims = job.dims;
        let (p, q) = (&self.p[..n], &mut self.q[..n]);
        let (scaled, at) = (&mut self.scaled[..n], &mut self.at[..n]);
        q.copy_from_slice(p);
        for step in 0..s.warp_iterations as usize * dims {
            let (k, a) = (step / dims, step % dims);
            if a == 0 {
                for (scaled, q) in scaled.iter_mut().zip(q.iter()) {
                    *scaled = times(q, s.warp_frequency);
                    block_done(scaled);
                }
            }
            let t = (k as u32 * dims as u32) as f32 + (a as u32 + 1) as f32;
            let shift = WARP_SHIFT.map(|v| v as f32 * t);
            for (at, scaled) in at.iter_mut().zip(scaled.iter()) {
                *at = [
                    scaled[0] + shift[0],
                    scaled[1] + shift[1],
                    scaled[2] + shift[2],
                    scaled[3] + shift[3],
                ];
                block_done(at);
            }
            self.octaves.sum::<L, N>(lut, at, &s.warp_fbm, FRACTAL_FBM);
            std::mem::swap(&mut self.d[a], &mut self.octaves.total);
            if a + 1 == dims {
                let amplitude = s.warp_amplitude;
                let [d0, d1, d2, d3] = &self.d;
                let d = d0.iter().zip(d1).zip(d2).zip(d3);
                for ((q, p), (((d0, d1), d2), d3)) in q.iter_mut().zip(p).zip(d) {
                    *q = [
                        p[0] + amplitude * *d0,
                        p[1] + amplitude * *d1,
                        p[2] + amplitude * *d2,
                        p[3] + amplitude * *d3,
                    ];
                    block_done(q);
                }
            }
        }
        let mode = job.params.settings.mode;
        self.octaves.sum::<L, N>(lut, q, &s.fractal, mode);
    }
}

/// `p × s` per coordinate.
#[inline(always)]
fn times(p: &[F; 4], s: f32) -> [F; 4] {
    [p[0] * s, p[1] * s, p[2] * s, p[3] * s]
}

/// The lane blocks of a row done together (here and in `super::warped`): 16 (256 samples),
/// so that a row's working arrays (about 27 kB) stay in the L1 cache, which a whole
/// 2048-sample row's (216 kB) would not.
pub(super) const SEGMENT_BLOCKS: usize = 16;

/// The rows of one block of a warped or flow field with the lane functions of `N`.
#[inline(always)]
pub(super) fn fill_point_rows<L: LaneHasher, N: LaneNoise<L>>(
    lut: &L,
    job: &Job,
    points: &PointSetup,
    first_row: usize,
    out: &mut [f32],
) {
    let params = job.params;
    let nx = params.extent[0] as usize;
    let mut row = PointRow::new(nx.div_ceil(LANES).min(SEGMENT_BLOCKS));
    for (r, values) in out.chunks_mut(nx).enumerate() {
        let p = row_point(params, first_row + r);
        let segments = values.chunks_mut(SEGMENT_BLOCKS * LANES).enumerate();
        for (segment, values) in segments {
            let first = segment * SEGMENT_BLOCKS;
            let n = values.len().div_ceil(LANES);
            for (chunk, point) in row.p[..n].iter_mut().enumerate() {
                *point = [
                    lane_x(params, first + chunk),
                    F::splat(p[1]),
                    F::splat(p[2]),
                    F::splat(p[3]),
                ];
                block_done(point);
            }
            row.warped_sum::<L, N>(lut, job, points, n);
            for (values, v) in values.chunks_mut(LANES).zip(&row.octaves.total) {
                v.store(values);
            }
        }
    }
}
