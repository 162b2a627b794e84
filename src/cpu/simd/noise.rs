//! Classic and simplex noise on lanes: `crate::cpu::classic` and `crate::cpu::simplex`
//! operation for operation, the branches of the scalar code turned into selections.
//!
//! Classic noise separates by axis, so everything that depends on y, z and w only (their
//! cells, fractions, fade curves and the row part of each corner's lookup) is computed once
//! per row in [`ClassicRow::new`], with the scalar functions themselves; the lanes do x.
//! Simplex noise skews all axes together, so each lane does the whole function.
//!
//! A domain warp moves each lane's point along every axis, so warped fields evaluate
//! classic noise with [`classic_point`], which takes full lane points (no row part).

use super::cellular::add_vector_term;
use super::lanes::{flat, flat_mut, Isa, F, LANES, U};
use super::lookup::{Grad3, Grad4, LaneHasher};
use crate::cpu::classic::fade;
use crate::cpu::lattice::{wrap256, wrap_period};
use crate::cpu::simplex::{
    SIMPLEX2_F, SIMPLEX2_G, SIMPLEX2_R2, SIMPLEX34_R2, SIMPLEX3_F, SIMPLEX3_G,
    SIMPLEX3_PERIODIC_SCALE, SIMPLEX4_F, SIMPLEX4_G, SIMPLEX4_VECTOR_SCALE,
    SIMPLEX_VECTOR_SLOT, TAU,
};

/// `fade` on every lane, in the scalar order of operations.
#[inline(always)]
fn fade_lanes(t: F) -> F {
    t * t * t * (t * (t * 6.0 - 15.0) + 10.0)
}

/// `fade_slope` (`30t²(t − 1)²`) on every lane, in the scalar order of operations.
#[inline(always)]
pub(super) fn fade_slope_lanes(t: F) -> F {
    let s = t - 1.0;
    30.0 * t * t * s * s
}

/// `lerp(a, b, t) = (1 - t) * a + t * b` on every lane.
#[inline(always)]
pub(super) fn lerp(a: F, b: F, t: F) -> F {
    (1.0 - t) * a + t * b
}

/// `lerp` with the same `t` in every lane (an axis fixed along the row).
#[inline(always)]
fn lerp_row(a: F, b: F, t: f32) -> F {
    (1.0 - t) * a + t * b
}

/// `d - o` for steps `o` of 0 or 1 per lane, as a selection: `d - 0.0` is `d` (its sign
/// too), where a mask-to-float conversion takes a compare's mask through three more
/// instructions per offset.
#[inline(always)]
fn minus_step(d: F, o: U) -> F {
    o.select_f(d - 1.0, d)
}

/// `wrap256` or `wrap_period` of the scalar lattice (`wgpu_noise_cellular_wrap`) on every
/// lane: a whole-number cell coordinate wrapped to `period` cells.
#[inline(always)]
pub(super) fn wrap_lanes<I: Isa, const N: usize>(cell: F<N>, period: u32) -> U<N> {
    if period == 256 {
        return I::wrap256(cell);
    }
    // `wrap_period`. Its remainder lies below the period (or is NaN, which `as` makes 0), so
    // below 2³¹ where the period is, which converts in one vector instruction.
    let r = floored_mod::<I, _>(cell, period);
    let v = if period <= 1 << 31 {
        r.clamped_to_u32::<2_147_483_520>()
    } else {
        r.to_u32()
    };
    // The remainder is already below the period for finite cells; the integer division
    // (no vector instruction) runs only where it is not.
    if v.ge_u32(period).any() {
        v.map(|v| v % period)
    } else {
        v
    }
}

/// `cell_pair` of the scalar classic noise on every lane: the cell along x and the next one,
/// wrapped to `period`.
#[inline(always)]
pub(super) fn cell_pair_lanes<I: Isa, const N: usize>(cell: F<N>, period: u32) -> [U<N>; 2] {
    let i0 = wrap_lanes::<I, _>(cell, period);
    if period == 256 {
        return [i0, (i0 + 1) & 255];
    }
    // `(i0 + 1) % period` with `i0 < period`.
    let next = i0 + 1;
    [i0, next.eq(period).select(U::splat(0), next)]
}

/// One of y, z, w at one octave: fractions to the cell's two corners, fade, wrapped cells.
#[derive(Clone, Copy, Debug, Default)]
struct Axis {
    d: [f32; 2],
    fade: f32,
    cells: [u32; 2],
}

impl Axis {
    fn new(q: f32, period: u32) -> Axis {
        let c = q.floor();
        let f = q - c;
        let cells = if period == 256 {
            let i0 = wrap256(c);
            [i0, (i0 + 1) & 255]
        } else {
            let i0 = wrap_period(c, period);
            [i0, (i0 + 1) % period]
        };
        Axis {
            d: [f, f - 1.0],
            fade: fade(f),
            cells,
        }
    }
}

/// What classic noise in `D` dimensions needs of a row (y, z, w fixed) at one octave.
#[derive(Clone, Copy, Debug)]
pub struct ClassicRow<R> {
    x_period: u32,
    axes: [Axis; 3],
    /// The lookup row of corner `b + 2c + 4d` (offsets along y, z, w).
    rows: [R; 8],
}

impl<R: Copy + Default> ClassicRow<R> {
    /// The row at `q` (y, z, w of the sample point times the octave's frequency) with the
    /// lattice period of each axis (256: not tiled).
    pub fn new<L: LaneHasher<Row = R>>(
        lut: &L,
        dims: usize,
        q: [f32; 3],
        period: [u32; 4],
    ) -> Self {
        let mut axes = [Axis::default(); 3];
        for a in 0..dims - 1 {
            axes[a] = Axis::new(q[a], period[a + 1]);
        }
        let mut rows = [R::default(); 8];
        let [y, z, w] = axes.map(|a| a.cells);
        for (r, row) in rows.iter_mut().enumerate().take(1 << (dims - 1)) {
            let (b, c, d) = (r & 1, (r >> 1) & 1, r >> 2);
            *row = lut.row(dims, [y[b], z[c], w[d]]);
        }
        ClassicRow {
            x_period: period[0],
            axes,
            rows,
        }
    }
}

/// Classic noise in `D` dimensions at `x` on the lanes and the row `row`
/// (`classic2/3/4_periodic`).
#[inline(always)]
pub fn classic<L: LaneHasher, I: Isa, const D: usize>(
    lut: &L,
    x: F,
    row: &ClassicRow<L::Row>,
) -> F {
    let cx = I::floor(x);
    let fx = x - cx;
    let xi = cell_pair_lanes::<I, _>(cx, row.x_period);
    let dx = [fx, fx - 1.0];
    let u = fade_lanes(fx);
    // Interpolate along x, then y, z, w.
    let mut n = [F::splat(0.0); 8];
    for (r, n) in n.iter_mut().enumerate().take(1 << (D - 1)) {
        let left = classic_corner::<L, I, D>(lut, row, xi[0], dx[0], r);
        let right = classic_corner::<L, I, D>(lut, row, xi[1], dx[1], r);
        *n = lerp(left, right, u);
    }
    lerp_along_row::<D>(n, &row.axes)
}

/// The corners' values interpolated along x (`n[r]` for the row corner `r`) interpolated
/// along y, z, w with the row's fades: each step halves the corners (the lowest bit first).
#[inline(always)]
fn lerp_along_row<const D: usize>(mut n: [F; 8], axes: &[Axis; 3]) -> F {
    let mut count = 1 << (D - 1);
    for axis in axes.iter().take(D - 1) {
        count /= 2;
        for k in 0..count {
            n[k] = lerp_row(n[2 * k], n[2 * k + 1], axis.fade);
        }
    }
    n[0]
}

/// Classic noise's corners along the x cells of one row at one octave: the x component of
/// each corner's gradient, and its y, z, w components times the row's offsets (the terms
/// `g[a] * d[a]` of the scalar dot product, which are the same along the row), so that the
/// lanes read them ([`Isa::read`]) instead of looking up every lane's two cells. A row's
/// cells are few (16 texels a cell: a 16-lane chunk spans one or two), so each is looked up
/// once, not once per lane; the gradients are kept while the next rows lie in the same y, z,
/// w cells, and only the products are made again.
#[derive(Debug, Default)]
pub struct ClassicXTable {
    /// The first cell (a whole number), or `None`: no table for this octave.
    first: Option<f32>,
    /// The cells: those the lanes reach and the one after the last.
    cells: usize,
    /// Blocks of [`Isa::BLOCK`] cells in each table, the last one padding.
    blocks: usize,
    /// The wrapped y, z, w cells whose gradients `grads` holds.
    key: Option<[[u32; 2]; 3]>,
    /// Gradient component `a` of row corner `r`: table `r * D + a`, blocked ([`Isa`]),
    /// in lane arrays for their alignment ([`flat`]).
    grads: Vec<F>,
    /// As `grads`, the components `a > 0` times the row's offset along that axis.
    terms: Vec<F>,
    /// The x part of each chunk of a row (the same in every row), or `None` where the
    /// chunk's cells do not fit one window of the ISA's table reads.
    chunks: Vec<Option<ChunkX>>,
}

/// What the lanes of one chunk need of x at one octave, for every row: the fraction, its
/// fade and the table window of the cells. Made once per octave rather than per chunk and
/// row, so the window's scalar checks and conversions do not stand between the lanes'
/// floor and every table read.
#[derive(Clone, Copy, Debug)]
struct ChunkX {
    fx: F,
    fade: F,
    window: super::lanes::Window,
}

/// The largest cell coordinate a table covers: every whole number below it is an `f32`,
/// and so is the difference of two.
const TABLE_CELL_LIMIT: f32 = 4_194_304.0;

impl ClassicXTable {
    /// Sets the table up for an octave whose lanes run from `lo` to `hi` (x times the
    /// octave's frequency at the first lane of the row's first chunk and the last lane of its
    /// last chunk), ascending along the lanes when `ascending`. No table where they do not
    /// ascend, are not finite, far from the origin or span more than `max_cells` cells, nor
    /// for an ISA without permutes: the lanes look up their cells themselves.
    pub fn set_octave<I: Isa>(&mut self, lo: f32, hi: f32, ascending: bool, max_cells: usize) {
        self.key = None;
        self.first = None;
        let (lo, hi) = (lo.floor(), hi.floor());
        if !(I::PERMUTES && ascending && lo.abs() < TABLE_CELL_LIMIT && hi.abs() < TABLE_CELL_LIMIT)
        {
            return;
        }
        let cells = (hi - lo) as usize + 2;
        if cells > max_cells {
            return;
        }
        self.first = Some(lo);
        self.cells = cells;
        self.blocks = cells.div_ceil(I::BLOCK) + 1;
    }

    /// Sets up the chunks of a row from the lanes' x of each (times the octave's
    /// frequency), after [`ClassicXTable::set_octave`].
    #[inline(always)]
    pub fn set_chunks<I: Isa>(&mut self, xs: impl Iterator<Item = F>) {
        self.chunks.clear();
        let Some(first) = self.first else {
            return;
        };
        for x in xs {
            let cx = I::floor(x);
            let fx = x - cx;
            // Whole numbers below `TABLE_CELL_LIMIT`: exact.
            let window = I::window(cx - first, self.blocks);
            self.chunks.push(window.map(|window| ChunkX {
                fx,
                fade: fade_lanes(fx),
                window,
            }));
        }
    }

    /// Fills the tables for `row`, an octave's row of `dims`-dimensional classic noise.
    /// Inlined into the fill's `#[target_feature]` copies: its lookups and products are lane
    /// code.
    #[inline(always)]
    pub fn set_row<L: LaneHasher, I: Isa>(
        &mut self,
        lut: &L,
        dims: usize,
        row: &ClassicRow<L::Row>,
    ) {
        match dims {
            2 => {
                self.set_gradients::<L, I, 2>(lut, row);
                self.set_terms::<I, 2, _>(row);
            }
            3 => {
                self.set_gradients::<L, I, 3>(lut, row);
                self.set_terms::<I, 3, _>(row);
            }
            _ => {
                self.set_gradients::<L, I, 4>(lut, row);
                self.set_terms::<I, 4, _>(row);
            }
        }
    }

    /// Looks up the gradients for `row` where its y, z, w cells differ from the last row's:
    /// a block of cells at a time with the lanes' own lookups (each cell once, where the
    /// lanes look up two cells each).
    #[inline(always)]
    fn set_gradients<L: LaneHasher, I: Isa, const D: usize>(
        &mut self,
        lut: &L,
        row: &ClassicRow<L::Row>,
    ) {
        let Some(first) = self.first else {
            return;
        };
        let key = row.axes.map(|a| a.cells);
        if self.key == Some(key) {
            return;
        }
        let tables = D << (D - 1);
        let block = I::BLOCK;
        let size = (self.blocks * tables * block).div_ceil(LANES);
        self.grads.resize(size, F::splat(0.0));
        let grads = flat_mut(&mut self.grads);
        // `LANES` cells at a time (one or two blocks); the padding cells' gradients are
        // never read.
        for k in (0..self.cells).step_by(LANES) {
            // Whole numbers below `TABLE_CELL_LIMIT`: exact.
            let cells = U(std::array::from_fn(|i| (k + i) as u32)).to_f32() + first;
            let [x, _] = cell_pair_lanes::<I, _>(cells, row.x_period);
            for r in 0..1 << (D - 1) {
                let g = match D {
                    4 => lut.grad4_row(row.rows[r], x).vector(),
                    _ => {
                        let [g0, g1, g2] = lut.grad3_row::<I>(row.rows[r], x).vector();
                        [g0, g1, g2, F::splat(0.0)]
                    }
                };
                for (a, g) in g.iter().enumerate().take(D) {
                    let t = r * D + a;
                    for h in 0..LANES / block {
                        // The cells' block is below `blocks` (one past the last is padding).
                        let at = ((k + h * block) / block * tables + t) * block;
                        grads[at..at + block].copy_from_slice(&g.0[h * block..][..block]);
                    }
                }
            }
        }
        self.key = Some(key);
        // The x components are the gradients' own, until the cells change.
        self.terms.clone_from(&self.grads);
    }

    /// Multiplies the y, z, w components by the row's offsets (each row: the offsets
    /// change with y, z, w).
    #[inline(always)]
    fn set_terms<I: Isa, const D: usize, R>(&mut self, row: &ClassicRow<R>) {
        if self.first.is_none() {
            return;
        }
        let tables = D << (D - 1);
        let block = I::BLOCK;
        let (grads, terms) = (flat(&self.grads), flat_mut(&mut self.terms));
        // A block holds `block` entries of each table in turn. The last block is padding
        // (the window after the last cell's): read, never selected.
        for (g, t) in grads
            .chunks_exact(tables * block)
            .zip(terms.chunks_exact_mut(tables * block))
            .take(self.blocks - 1)
        {
            for r in 0..1 << (D - 1) {
                for a in 1..D {
                    let d = row.axes[a - 1].d[(r >> (a - 1)) & 1];
                    let at = (r * D + a) * block;
                    // Through a local block: multiplied in place, the stores to `t` could
                    // alias the loads from `g` for LLVM, which then multiplies entry by
                    // entry.
                    let mut products = [0.0f32; LANES];
                    products[..block].copy_from_slice(&g[at..at + block]);
                    for v in &mut products {
                        *v *= d;
                    }
                    t[at..at + block].copy_from_slice(&products[..block]);
                }
            }
        }
    }
}

/// [`classic`] at chunk `chunk` of the row, reading the corners from the row's x table
/// where the chunk's cells fit one window of the ISA's table reads (bit for bit the same:
/// the same products, summed and interpolated in the same order); [`classic`] itself
/// elsewhere.
#[inline(always)]
pub fn classic_tabled<L: LaneHasher, I: Isa, const D: usize>(
    lut: &L,
    x: F,
    row: &ClassicRow<L::Row>,
    table: &ClassicXTable,
    chunk: usize,
) -> F {
    let Some(Some(ChunkX {
        fx,
        fade: u,
        window,
    })) = table.chunks.get(chunk)
    else {
        return classic::<L, I, D>(lut, x, row);
    };
    let tables = D << (D - 1);
    let terms = &flat(&table.terms)[..table.blocks * tables * I::BLOCK];
    let dx = [*fx, *fx - 1.0];
    let u = *u;
    let mut n = [F::splat(0.0); 8];
    for (r, n) in n.iter_mut().enumerate().take(1 << (D - 1)) {
        // SAFETY: `terms` holds the tables `window` was prepared for; `r` is a corner.
        let (left, right) = unsafe {
            (
                tabled_corner::<I, D>(terms, window, r, 0, dx[0]),
                tabled_corner::<I, D>(terms, window, r, 1, dx[1]),
            )
        };
        *n = lerp(left, right, u);
    }
    lerp_along_row::<D>(n, &row.axes)
}

/// Corner `r` of [`classic_tabled`] at the cell `side` (0 or 1) past each lane's: the
/// scalar `g[0] * d[0] + g[1] * d[1] + …` with the row's terms read from the table.
///
/// # Safety
/// `terms` holds the `D * 2^(D-1)` blocked tables of a [`ClassicXTable`] for which
/// `window` was prepared; `r < 2^(D-1)`, `side <= 1`.
#[inline(always)]
unsafe fn tabled_corner<I: Isa, const D: usize>(
    terms: &[f32],
    window: &super::lanes::Window,
    r: usize,
    side: usize,
    dx: F,
) -> F {
    let tables = D << (D - 1);
    // SAFETY (each read): table `r * D + a` is one of `tables`.
    let mut n = unsafe { I::read(terms, window, tables, r * D, side) } * dx;
    for a in 1..D {
        n = n + unsafe { I::read(terms, window, tables, r * D + a, side) };
    }
    n
}

/// One corner of classic noise, on the x cell `xi` at offset `dx` and the row's corner `r`
/// (offsets along y, z, w in its bits): the gradient dotted with the offset,
/// `g[0]*dx + g[1]*dy (+ g[2]*dz (+ g[3]*dw))` (from the gradient's index, bit for bit). A
/// function rather than a closure so that it is inlined into the `#[target_feature]` copies
/// (a closure that stays a call is compiled without them, as scalar code).
#[inline(always)]
fn classic_corner<L: LaneHasher, I: Isa, const D: usize>(
    lut: &L,
    row: &ClassicRow<L::Row>,
    xi: U,
    dx: F,
    r: usize,
) -> F {
    let [ay, az, aw] = &row.axes;
    let (b, c, d) = (r & 1, (r >> 1) & 1, r >> 2);
    let (dy, dz, dw) = (F::splat(ay.d[b]), F::splat(az.d[c]), F::splat(aw.d[d]));
    match D {
        4 => lut.grad4_row(row.rows[r], xi).dot::<I>([dx, dy, dz, dw]),
        3 => lut.grad3_row::<I>(row.rows[r], xi).dot3::<I>([dx, dy, dz]),
        _ => lut.grad3_row::<I>(row.rows[r], xi).dot2::<I>([dx, dy]),
    }
}

/// The lattice cell of full lane points along their first `D` axes (`classicN_cell` of
/// the scalar code): per axis the offsets `[f, f − 1]` to the cell's two corners, the fade
/// of `f`, and the two corners' cells wrapped to `period`.
pub(super) struct PointCell {
    pub(super) d: [[F; 2]; 4],
    pub(super) fades: [F; 4],
    pub(super) cells: [[U; 2]; 4],
}

impl PointCell {
    #[inline(always)]
    pub(super) fn new<I: Isa, const D: usize>(p: &[F; 4], period: &[u32; 4]) -> PointCell {
        let mut cell = PointCell {
            d: [[F::splat(0.0); 2]; 4],
            fades: [F::splat(0.0); 4],
            cells: [[U::splat(0); 2]; 4],
        };
        // Each axis written out (`D` folds the ones past it away): LLVM kept the loop,
        // with its arrays in memory, where its three or four copies fit in registers.
        macro_rules! axis {
            ($a:literal) => {
                if $a < D {
                    let c = I::floor(p[$a]);
                    let f = p[$a] - c;
                    cell.d[$a] = [f, f - 1.0];
                    cell.fades[$a] = fade_lanes(f);
                    cell.cells[$a] = cell_pair_lanes::<I, _>(c, period[$a]);
                }
            };
        }
        axis!(0);
        axis!(1);
        axis!(2);
        axis!(3);
        cell
    }
}

/// Classic noise in `D` dimensions at full lane points `p` (every coordinate per lane, as
/// after a domain warp; the first `D` are used) with the lattice period `period` of each
/// axis (256: not tiled): `classic2/3/4_periodic` with nothing shared along a row.
#[inline(always)]
pub fn classic_point<L: LaneHasher, I: Isa, const D: usize>(
    lut: &L,
    p: &[F; 4],
    period: &[u32; 4],
) -> F {
    let PointCell { d, fades, cells } = PointCell::new::<I, D>(p, period);
    let mut n = [F::splat(0.0); 8];
    // Below 4D the corners are written out (a literal `r` is faster than the loop); in 4D
    // the loop is faster, and writing out its 8 corners would lengthen the library's
    // release build. A macro, not a closure: a closure stays a call, compiled without the
    // copy's target features.
    macro_rules! corner {
        ($r:expr) => {{
            let r = $r;
            let left = classic_point_corner::<L, I, D>(lut, &d, &cells, 0, r);
            let right = classic_point_corner::<L, I, D>(lut, &d, &cells, 1, r);
            n[r] = lerp(left, right, fades[0]);
        }};
    }
    if D == 4 {
        for r in 0..8 {
            corner!(r);
        }
    } else {
        corner!(0);
        corner!(1);
        if D == 3 {
            corner!(2);
            corner!(3);
        }
    }
    blend_rows::<D>(n, &fades)
}

/// The rows `n` of a `D`-dimensional cell (corners already blended along x; row `r` holds
/// the corners whose offsets along y, z, w are `r`'s bits) blended along y, then z, then w
/// by `fades`: the rest of `blend_corners`.
#[inline(always)]
pub(super) fn blend_rows<const D: usize>(mut n: [F; 8], fades: &[F; 4]) -> F {
    let mut count = 1 << (D - 1);
    // A range, not `fades.iter().take(D).skip(1)`: `skip` calls `Take::nth`, out of line
    // and compiled without the copy's target features.
    #[allow(clippy::needless_range_loop)]
    for a in 1..D {
        count /= 2;
        for k in 0..count {
            n[k] = lerp(n[2 * k], n[2 * k + 1], fades[a]);
        }
    }
    n[0]
}

/// `pair[bit]` for `bit` 0 or 1, by masking rather than indexing: with `bit` from a loop
/// variable, LLVM loads an indexed lane array with a gather of 16 addresses.
#[inline(always)]
pub(super) fn pick(pair: [U; 2], bit: usize) -> U {
    let mask = 0u32.wrapping_sub(bit as u32);
    pair[0] ^ ((pair[0] ^ pair[1]) & mask)
}

/// [`pick`] for `f32` lanes (bit for bit).
#[inline(always)]
fn pick_f(pair: [F; 2], bit: usize) -> F {
    pick([pair[0].to_bits(), pair[1].to_bits()], bit).from_bits()
}

/// One corner of [`classic_point`]: offset `a` along x, the corner `r`'s offsets along y,
/// z, w in its bits (as [`classic_corner`]).
#[inline(always)]
fn classic_point_corner<L: LaneHasher, I: Isa, const D: usize>(
    lut: &L,
    d: &[[F; 2]; 4],
    cells: &[[U; 2]; 4],
    a: usize,
    r: usize,
) -> F {
    let (b, c, e) = (r & 1, (r >> 1) & 1, r >> 2);
    let (x, y, z, w) = (
        cells[0][a],
        pick(cells[1], b),
        pick(cells[2], c),
        pick(cells[3], e),
    );
    let (dx, dy, dz, dw) = (d[0][a], pick_f(d[1], b), pick_f(d[2], c), pick_f(d[3], e));
    match D {
        4 => lut.grad4(x, y, z, w).dot::<I>([dx, dy, dz, dw]),
        3 => lut.grad3::<I>(x, y, z).dot3::<I>([dx, dy, dz]),
        _ => lut.grad2::<I>(x, y).dot2::<I>([dx, dy]),
    }
}

/// [`classic_point`] and its gradient `[value, ∂/∂x, …]` (entries past `D` 0): the scalar
/// `classic2/3/4_periodic_deriv` (`interpolate_deriv`) operation for operation. Every lerp
/// `(1 − u) a + u b` carries `(1 − u) ∇a + u ∇b + (b − a) ∇u`, the `+ 0` of the axes it
/// does not interpolate along kept (it turns a −0 into +0, as the scalar code does).
#[inline(always)]
pub fn classic_point_deriv<L: LaneHasher, I: Isa, const D: usize>(
    lut: &L,
    p: &[F; 4],
    period: &[u32; 4],
) -> [F; 5] {
    let zero = F::splat(0.0);
    let PointCell { d, fades, cells } = PointCell::new::<I, D>(p, period);
    // Corner `k`'s dot and gradient, `k = a + 2b + 4c + 8e` at offset `(a, b, c, e)`.
    let mut n = [zero; 16];
    let mut dn = [[zero; 4]; 16];
    for k in 0..1 << D {
        let bit = |a: usize| (k >> a) & 1;
        let (x, y, z, w) = (
            pick(cells[0], bit(0)),
            pick(cells[1], bit(1)),
            pick(cells[2], bit(2)),
            pick(cells[3], bit(3)),
        );
        let o = [
            pick_f(d[0], bit(0)),
            pick_f(d[1], bit(1)),
            pick_f(d[2], bit(2)),
            pick_f(d[3], bit(3)),
        ];
        match D {
            4 => {
                let g = lut.grad4(x, y, z, w);
                n[k] = g.dot::<I>(o);
                dn[k] = g.vector();
            }
            3 => {
                let g = lut.grad3::<I>(x, y, z);
                n[k] = g.dot3::<I>([o[0], o[1], o[2]]);
                let [g0, g1, g2] = g.vector();
                dn[k] = [g0, g1, g2, zero];
            }
            _ => {
                let g = lut.grad2::<I>(x, y);
                n[k] = g.dot2::<I>([o[0], o[1]]);
                let [g0, g1, _] = g.vector();
                dn[k] = [g0, g1, zero, zero];
            }
        }
    }
    blend_corners_deriv::<D>(n, dn, &PointCell { d, fades, cells })
}

/// `blend_corners_deriv` on lanes: corner values `n` and gradients `dn` (corner
/// `a + 2b + 4c + 8e`) blended along x, then y, then z, then w by the cell's fades; every
/// lerp `(1 − u) a + u b` carries `(1 − u) ∇a + u ∇b + (b − a) ∇u`, the `+ 0` of the axes
/// it does not blend along kept (it turns a −0 into +0, as the scalar code does).
/// `[value, ∂/∂x, …]`, entries past `D` 0.
#[inline(always)]
pub(super) fn blend_corners_deriv<const D: usize>(
    mut n: [F; 16],
    mut dn: [[F; 4]; 16],
    cell: &PointCell,
) -> [F; 5] {
    let zero = F::splat(0.0);
    let mut len = 1 << D;
    for a in 0..D {
        let u = cell.fades[a];
        let du = fade_slope_lanes(cell.d[a][0]);
        len /= 2;
        for k in 0..len {
            let (lo, hi) = (n[2 * k], n[2 * k + 1]);
            let (dlo, dhi) = (dn[2 * k], dn[2 * k + 1]);
            n[k] = lerp(lo, hi, u);
            for j in 0..D {
                let along = if j == a { (hi - lo) * du } else { zero };
                dn[k][j] = (1.0 - u) * dlo[j] + u * dhi[j] + along;
            }
        }
    }
    let mut out = [zero; 5];
    out[0] = n[0];
    out[1..=D].copy_from_slice(&dn[0][..D]);
    out
}

/// The flow angle's cosine and sine, by which flow noise turns its gradients.
#[derive(Clone, Copy, Debug)]
pub struct Turn {
    /// `cos(angle)`.
    pub cos: f32,
    /// `sin(angle)`.
    pub sin: f32,
}

impl Turn {
    /// The turn by `angle` radians (the scalar functions, as `flow_corners2/3`).
    pub fn new(angle: f32) -> Turn {
        Turn {
            cos: angle.cos(),
            sin: angle.sin(),
        }
    }

    /// A 2D gradient turned, as `flow_corners2`.
    #[inline(always)]
    fn turn2(self, g: Grad3) -> [F; 2] {
        let (cs, sn) = (self.cos, self.sin);
        let g = g.vector();
        [g[0] * cs - g[1] * sn, g[0] * sn + g[1] * cs]
    }

    /// A 3D gradient turned about the axis it is zero on, as `flow_corners3`.
    #[inline(always)]
    fn turn3(self, g: Grad3) -> [F; 3] {
        let (cs, sn) = (self.cos, self.sin);
        let g = g.vector();
        let k = [1.0 - g[0].abs(), 1.0 - g[1].abs(), 1.0 - g[2].abs()];
        let kxg = [
            k[1] * g[2] - k[2] * g[1],
            k[2] * g[0] - k[0] * g[2],
            k[0] * g[1] - k[1] * g[0],
        ];
        [
            g[0] * cs + kxg[0] * sn,
            g[1] * cs + kxg[1] * sn,
            g[2] * cs + kxg[2] * sn,
        ]
    }
}

/// A point on the circle of circumference `period` at `v` along it (`simplex2_tiled`'s
/// torus mapping: `period / τ · (cos, sin)(v / period · τ)`, sine and cosine per lane with
/// the scalar functions).
#[inline(always)]
pub fn torus_circle(v: F, period: f32) -> [F; 2] {
    let tau = TAU as f32;
    let r = period / tau;
    let angle = v.map(|v| v / period * tau);
    [angle.map(|a| r * a.cos()), angle.map(|a| r * a.sin())]
}

/// The torus point of the lane points `p` (their first two coordinates) with `period`
/// (`torus_point`'s first half).
#[inline(always)]
pub fn torus_lane_point(p: &[F; 4], period: [f32; 2]) -> [F; 4] {
    let [x0, x1] = torus_circle(p[0], period[0]);
    let [y0, y1] = torus_circle(p[1], period[1]);
    [x0, x1, y0, y1]
}

/// The cosines and sines of the torus's angles at the lane points `p`,
/// `[cos ax, sin ax, cos ay, sin ay]` (`torus_point`'s second half).
#[inline(always)]
pub fn torus_turns(p: &[F; 4], period: [f32; 2]) -> [F; 4] {
    let tau = TAU as f32;
    let ax = p[0].map(|v| v / period[0] * tau);
    let ay = p[1].map(|v| v / period[1] * tau);
    [
        ax.map(f32::cos),
        ax.map(f32::sin),
        ay.map(f32::cos),
        ay.map(f32::sin),
    ]
}

/// `[component, ∂/∂x, ∂/∂y, 0, 0]` of a 4D `[value, ∂/∂X, …, ∂/∂W]` at the torus point whose
/// angles have `turns` (`torus_gradient`).
#[inline(always)]
pub fn torus_gradient(d: &[F; 5], [cx, sx, cy, sy]: [F; 4]) -> [F; 5] {
    let zero = F::splat(0.0);
    [d[0], cx * d[2] - sx * d[1], cy * d[4] - sy * d[3], zero, zero]
}

/// The rows of a 2D vector noise tiled on the torus from the rows `d` of the 4D one at the
/// torus point (`torus_vector_gradients`): the first two components' gradients taken back,
/// the others 0.
#[inline(always)]
pub fn torus_vector_gradients(d: &[[F; 5]; 4], turns: [F; 4]) -> [[F; 5]; 4] {
    let zero = F::splat(0.0);
    [
        torus_gradient(&d[0], turns),
        torus_gradient(&d[1], turns),
        [zero; 5],
        [zero; 5],
    ]
}

/// Tileable 2D simplex noise (`simplex2_tiled`): 4D simplex noise on the torus of the
/// periods `period`, both coordinates per lane.
#[inline(always)]
pub fn simplex2_tiled<L: LaneHasher, I: Isa>(lut: &L, x: F, y: F, period: [f32; 2]) -> F {
    let [x0, x1] = torus_circle(x, period[0]);
    let [y0, y1] = torus_circle(y, period[1]);
    simplex4::<L, I>(lut, [x0, x1, y0, y1], SIMPLEX34_R2 as f32, 27.0)
}

/// `max(r² − |d|², 0)` for `N` of 2 to 4 axes, the squares subtracted one at a time in the
/// scalar order. Axes are written out here and below: LLVM vectorises a loop over them
/// across its iterations, a lane at a time by gathers and scatters.
#[inline(always)]
fn kernel<const N: usize>(d: &[F; N], r2: f32) -> F {
    let mut t = F::splat(r2) - d[0] * d[0];
    t = t - d[1] * d[1];
    if N > 2 {
        t = t - d[2] * d[2];
    }
    if N > 3 {
        t = t - d[3] * d[3];
    }
    t.max(F::splat(0.0))
}

/// `corner_value`: `max(r² − |d|², 0)⁴ (g·d)` in the scalar order, `gd` = `g·d`.
#[inline(always)]
fn corner_value<const N: usize>(d: &[F; N], gd: F, r2: f32) -> F {
    let t = kernel(d, r2);
    let t2 = t * t;
    t2 * t2 * gd
}

/// `g·d` (2 to 4 axes) of a turned (flow) gradient, multiplied out in the scalar order.
#[inline(always)]
fn dot<const N: usize>(g: &[F; N], d: &[F; N]) -> F {
    let mut gd = g[0] * d[0] + g[1] * d[1];
    if N > 2 {
        gd = gd + g[2] * d[2];
    }
    if N > 3 {
        gd = gd + g[3] * d[3];
    }
    gd
}

/// `g·d` of a 2D simplex corner, its gradient turned by `turn` (flow noise) if given.
#[inline(always)]
fn grad_dot2<I: Isa>(g: Grad3, d: [F; 2], turn: Option<Turn>) -> F {
    match turn {
        None => g.dot2::<I>(d),
        Some(t) => dot(&t.turn2(g), &d),
    }
}

/// `g·d` of a 3D simplex corner, its gradient turned by `turn` (flow noise) if given.
#[inline(always)]
fn grad_dot3<I: Isa>(g: Grad3, d: [F; 3], turn: Option<Turn>) -> F {
    match turn {
        None => g.dot3::<I>(d),
        Some(t) => dot(&t.turn3(g), &d),
    }
}

/// The simplex of 2D points (`simplex2_corners`): the offsets from its three corners to the
/// points, the corners' gradients and their wrapped lattice points (for their hashes).
#[inline(always)]
#[allow(clippy::type_complexity)]
fn simplex2_corners<L: LaneHasher, I: Isa>(
    lut: &L,
    x: F,
    y: F,
) -> ([[F; 2]; 3], [Grad3; 3], [[U; 2]; 3]) {
    let f2 = SIMPLEX2_F as f32;
    let g2 = SIMPLEX2_G as f32;
    let s = (x + y) * f2;
    let i = I::floor(x + s);
    let j = I::floor(y + s);
    let t = (i + j) * g2;
    let x0 = x - (i - t);
    let y0 = y - (j - t);
    let i1 = x0.gt(y0);
    let j1 = 1 - i1;
    let x1 = minus_step(x0, i1) + g2;
    let y1 = minus_step(y0, j1) + g2;
    let x2 = x0 - 1.0 + 2.0 * g2;
    let y2 = y0 - 1.0 + 2.0 * g2;
    let ii = I::wrap256_floor(x + s, i);
    let jj = I::wrap256_floor(y + s, j);
    let g = lut.simplex2_grads::<I>([ii, jj], [i1, j1]);
    let cells = [[ii, jj], [ii + i1, jj + j1], [ii + 1, jj + 1]];
    ([[x0, y0], [x1, y1], [x2, y2]], g, cells)
}

/// 2D simplex noise (`simplex2`), or with `turn` flow noise (`flow2`).
#[inline(always)]
pub fn simplex2<L: LaneHasher, I: Isa>(lut: &L, x: F, y: F, turn: Option<Turn>) -> F {
    let (d, g, _) = simplex2_corners::<L, I>(lut, x, y);
    let r2 = SIMPLEX2_R2 as f32;
    let sum = corner_value(&d[0], grad_dot2::<I>(g[0], d[0], turn), r2)
        + corner_value(&d[1], grad_dot2::<I>(g[1], d[1], turn), r2)
        + corner_value(&d[2], grad_dot2::<I>(g[2], d[2], turn), r2);
    70.0 * sum
}

/// 2D simplex noise and its gradient `[value, ∂/∂x, ∂/∂y]` (`simplex2_deriv`), or with
/// `turn` flow noise's (`flow2_deriv`).
#[inline(always)]
pub fn simplex2_deriv<L: LaneHasher, I: Isa>(lut: &L, x: F, y: F, turn: Option<Turn>) -> [F; 3] {
    let (d, g, _) = simplex2_corners::<L, I>(lut, x, y);
    let g = [
        vector2(g[0], turn),
        vector2(g[1], turn),
        vector2(g[2], turn),
    ];
    let (value, gradient) = value_and_gradient(&d, &g, SIMPLEX2_R2 as f32, 70.0);
    [value, gradient[0], gradient[1]]
}

/// A 2D simplex corner's gradient as components, turned by `turn` (flow noise) if given.
#[inline(always)]
fn vector2(g: Grad3, turn: Option<Turn>) -> [F; 2] {
    match turn {
        None => {
            let v = g.vector();
            [v[0], v[1]]
        }
        Some(t) => t.turn2(g),
    }
}

/// A 3D simplex corner's gradient as components, turned by `turn` (flow noise) if given.
#[inline(always)]
fn vector3(g: Grad3, turn: Option<Turn>) -> [F; 3] {
    match turn {
        None => g.vector(),
        Some(t) => t.turn3(g),
    }
}

/// `corner_gradient`: `t⁴ g − 8 t³ (g·d) d` with `t = max(r² − |d|², 0)` and `gd` = `g·d`,
/// in the scalar order, 2 to 4 axes (written out as [`kernel`]).
#[inline(always)]
fn corner_gradient<const N: usize>(d: &[F; N], g: &[F; N], gd: F, r2: f32) -> [F; N] {
    let t = kernel(d, r2);
    let t2 = t * t;
    let t4 = t2 * t2;
    let t3 = t2 * t;
    let mut out = [F::splat(0.0); N];
    macro_rules! axis {
        ($a:literal) => {
            if $a < N {
                out[$a] = t4 * g[$a] - 8.0 * t3 * gd * d[$a];
            }
        };
    }
    axis!(0);
    axis!(1);
    axis!(2);
    axis!(3);
    out
}

/// The scalar `value_and_gradient` of corners with offsets `d` and gradients `g`: `scale ·
/// Σ corner_value` and `scale · Σ corner_gradient`, summed in corner order.
#[inline(always)]
#[allow(clippy::needless_range_loop)] // as `corner_value`
fn value_and_gradient<const N: usize, const C: usize>(
    d: &[[F; N]; C],
    g: &[[F; N]; C],
    r2: f32,
    scale: f32,
) -> (F, [F; N]) {
    let mut gd = [F::splat(0.0); C];
    for c in 0..C {
        gd[c] = dot(&g[c], &d[c]);
    }
    let mut sum = corner_value(&d[0], gd[0], r2);
    for c in 1..C {
        sum = sum + corner_value(&d[c], gd[c], r2);
    }
    let mut gradient = corner_gradient(&d[0], &g[0], gd[0], r2);
    for c in 1..C {
        let more = corner_gradient(&d[c], &g[c], gd[c], r2);
        for a in 0..N {
            gradient[a] = gradient[a] + more[a];
        }
    }
    for a in 0..N {
        gradient[a] = scale * gradient[a];
    }
    (scale * sum, gradient)
}

/// The simplex of 3D points (`simplex3_corners`), its tetrahedron picked by `O`: the
/// offsets from its four corners to the points, the corners' gradients and their wrapped
/// lattice points (for their hashes).
#[inline(always)]
#[allow(clippy::type_complexity)]
fn simplex3_corners<L: LaneHasher, I: Isa, O: Order3>(
    lut: &L,
    p: [F; 3],
) -> ([[F; 3]; 4], [Grad3; 4], [[U; 3]; 4]) {
    let [x, y, z] = p;
    let f3 = SIMPLEX3_F as f32;
    let g3 = SIMPLEX3_G as f32;
    let s = (x + y + z) * f3;
    let i = I::floor(x + s);
    let j = I::floor(y + s);
    let k = I::floor(z + s);
    let t = (i + j + k) * g3;
    let x0 = x - (i - t);
    let y0 = y - (j - t);
    let z0 = z - (k - t);
    let (o1, o2) = O::order(x0, y0, z0);
    let x1 = minus_step(x0, o1[0]) + g3;
    let y1 = minus_step(y0, o1[1]) + g3;
    let z1 = minus_step(z0, o1[2]) + g3;
    let x2 = minus_step(x0, o2[0]) + 2.0 * g3;
    let y2 = minus_step(y0, o2[1]) + 2.0 * g3;
    let z2 = minus_step(z0, o2[2]) + 2.0 * g3;
    let x3 = x0 - 1.0 + 3.0 * g3;
    let y3 = y0 - 1.0 + 3.0 * g3;
    let z3 = z0 - 1.0 + 3.0 * g3;
    let ii = I::wrap256_floor(x + s, i);
    let jj = I::wrap256_floor(y + s, j);
    let kk = I::wrap256_floor(z + s, k);
    let g = lut.simplex3_grads::<I>([ii, jj, kk], o1, o2);
    let cells = [
        [ii, jj, kk],
        [ii + o1[0], jj + o1[1], kk + o1[2]],
        [ii + o2[0], jj + o2[1], kk + o2[2]],
        [ii + 1, jj + 1, kk + 1],
    ];
    ([[x0, y0, z0], [x1, y1, z1], [x2, y2, z2], [x3, y3, z3]], g, cells)
}

/// 3D simplex noise with squared kernel radius `r2` and scale `scale` (`simplex3_r2`), or
/// with `turn` flow noise (`flow3_r2`).
#[inline(always)]
pub fn simplex3<L: LaneHasher, I: Isa, O: Order3>(
    lut: &L,
    p: [F; 3],
    r2: f32,
    scale: f32,
    turn: Option<Turn>,
) -> F {
    let (d, g, _) = simplex3_corners::<L, I, O>(lut, p);
    let sum = corner_value(&d[0], grad_dot3::<I>(g[0], d[0], turn), r2)
        + corner_value(&d[1], grad_dot3::<I>(g[1], d[1], turn), r2)
        + corner_value(&d[2], grad_dot3::<I>(g[2], d[2], turn), r2)
        + corner_value(&d[3], grad_dot3::<I>(g[3], d[3], turn), r2);
    scale * sum
}

/// 3D simplex noise and its gradient `[value, ∂/∂x, ∂/∂y, ∂/∂z]` with squared kernel
/// radius `r2` and scale `scale` (`simplex3_deriv`), or with `turn` flow noise's
/// (`flow3_deriv`).
#[inline(always)]
pub fn simplex3_deriv<L: LaneHasher, I: Isa, O: Order3>(
    lut: &L,
    p: [F; 3],
    r2: f32,
    scale: f32,
    turn: Option<Turn>,
) -> [F; 4] {
    let (d, g, _) = simplex3_corners::<L, I, O>(lut, p);
    let g = [
        vector3(g[0], turn),
        vector3(g[1], turn),
        vector3(g[2], turn),
        vector3(g[3], turn),
    ];
    let (value, gradient) = value_and_gradient(&d, &g, r2, scale);
    [value, gradient[0], gradient[1], gradient[2]]
}

/// How [`simplex3`] picks the corner offsets `o1` and `o2` of the tetrahedron that holds
/// the offsets `x0, y0, z0` (`simplex3_order`, the six tetrahedra of the scalar code's
/// nested comparisons). Both forms give the same offsets; which one LLVM compiles to
/// vector code rather than scalar code per lane depends on the caller and the lookup, so
/// each takes the one that is faster there.
pub trait Order3 {
    /// The offsets `o1` and `o2`, 0 or 1 per lane and axis.
    fn order(x0: F, y0: F, z0: F) -> ([U; 3], [U; 3]);
}

/// The nested comparisons as nested selections (the flag fill's form, and the graph
/// evaluator's with the texture tables).
pub struct Selections;

/// The nested comparisons as `and`/`or`/`xor` of their 0/1 lanes (the graph evaluator's
/// form with the hash), equal to the selections for every combination of the comparisons,
/// NaN's too.
pub struct Logic;

impl Order3 for Selections {
    #[inline(always)]
    fn order(x0: F, y0: F, z0: F) -> ([U; 3], [U; 3]) {
        let one = U::splat(1);
        let zero = U::splat(0);
        let xy = x0.ge(y0);
        let yz = y0.ge(z0);
        let xz = x0.ge(z0);
        let lt_yz = y0.lt(z0);
        let lt_xz = x0.lt(z0);
        let o1 = [
            xy.select(yz.select(one, xz), zero),
            xy.select(zero, lt_yz.select(zero, one)),
            xy.select(yz.select(zero, 1 - xz), lt_yz),
        ];
        let o2 = [
            xy.select(one, lt_yz.select(zero, 1 - lt_xz)),
            xy.select(yz, one),
            xy.select(1 - yz, lt_yz.select(one, lt_xz)),
        ];
        (o1, o2)
    }
}

impl Order3 for Logic {
    #[inline(always)]
    fn order(x0: F, y0: F, z0: F) -> ([U; 3], [U; 3]) {
        let xy = x0.ge(y0);
        let yz = y0.ge(z0);
        let xz = x0.ge(z0);
        let lt_yz = y0.lt(z0);
        let lt_xz = x0.lt(z0);
        let (not_xy, not_yz) = (xy ^ 1, yz ^ 1);
        let o1 = [
            xy & (yz | xz),
            not_xy & (lt_yz ^ 1),
            (xy & not_yz & (xz ^ 1)) | (not_xy & lt_yz),
        ];
        let o2 = [
            xy | ((lt_yz ^ 1) & (lt_xz ^ 1)),
            (xy & yz) | not_xy,
            (xy & not_yz) | (not_xy & (lt_yz | lt_xz)),
        ];
        (o1, o2)
    }
}

/// Tiled 3D simplex noise (`simplex3_periodic`): the lattice of psrdnoise in `uvw =
/// (y + z, x + z, x + y)`, each corner wrapped into the tile of `period` cells before it
/// is hashed, kernel r² = 0.5.
#[inline(always)]
pub fn simplex3_periodic<L: LaneHasher, I: Isa>(lut: &L, p: [F; 3], period: [u32; 3]) -> F {
    let (d, g, _) = simplex3_periodic_corners::<L, I>(lut, p, period);
    let sum = corner_value(&d[0], g[0].dot3::<I>(d[0]), 0.5)
        + corner_value(&d[1], g[1].dot3::<I>(d[1]), 0.5)
        + corner_value(&d[2], g[2].dot3::<I>(d[2]), 0.5)
        + corner_value(&d[3], g[3].dot3::<I>(d[3]), 0.5);
    SIMPLEX3_PERIODIC_SCALE as f32 * sum
}

/// The simplex of 3D points on the periodic lattice (`simplex3_periodic_corners`): the
/// offsets from its four corners to the points, the corners' gradients and their lattice
/// points wrapped into the tile (in uvw, for their hashes).
#[inline(always)]
#[allow(clippy::type_complexity)]
fn simplex3_periodic_corners<L: LaneHasher, I: Isa>(
    lut: &L,
    p: [F; 3],
    period: [u32; 3],
) -> ([[F; 3]; 4], [Grad3; 4], [[U; 3]; 4]) {
    let [x, y, z] = p;
    let u = y + z;
    let v = x + z;
    let w = x + y;
    let i = I::floor(u);
    let j = I::floor(v);
    let k = I::floor(w);
    let (o1, o2) = L::GraphOrder3::order(u - i, v - j, w - k);
    let offsets = [[U::splat(0); 3], o1, o2, [U::splat(1); 3]];
    let mut d = [[F::splat(0.0); 3]; 4];
    let mut g = [Grad3(U::splat(0)); 4];
    let mut cells = [[U::splat(0); 3]; 4];
    for c in 0..4 {
        let o = &offsets[c];
        let a = i + o[0].to_f32();
        let b = j + o[1].to_f32();
        let e = k + o[2].to_f32();
        // The corner in xyz: half-integers, exact.
        let cx = (b + e - a) * 0.5;
        let cy = (a + e - b) * 0.5;
        let cz = (a + b - e) * 0.5;
        d[c] = [x - cx, y - cy, z - cz];
        let wx = floored_mod::<I, _>(cx, period[0]);
        let wy = floored_mod::<I, _>(cy, period[1]);
        let wz = floored_mod::<I, _>(cz, period[2]);
        cells[c] = [
            I::wrap256(wy + wz),
            I::wrap256(wx + wz),
            I::wrap256(wx + wy),
        ];
        g[c] = lut.grad3::<I>(cells[c][0], cells[c][1], cells[c][2]);
    }
    (d, g, cells)
}

/// The floored modulo `period` of `c` with a one-period correction either way, on every
/// lane: the float steps of the scalar `wrap_period` (whole numbers) and `wrap_half_period`
/// (multiples of 1/2), exact for both.
#[inline(always)]
fn floored_mod<I: Isa, const N: usize>(c: F<N>, period: u32) -> F<N> {
    let p = period as f32;
    let r = c - p * I::floor(c / p);
    let r = r.lt(F::splat(0.0)).select_f(r + p, r);
    r.ge(F::splat(p)).select_f(r - p, r)
}

/// 4D simplex noise with squared kernel radius `r2` and scale `scale` (`simplex4_r2`).
#[inline(always)]
pub fn simplex4<L: LaneHasher, I: Isa>(lut: &L, p: [F; 4], r2: f32, scale: f32) -> F {
    let (d, g, _) = simplex4_corners::<L, I>(lut, p);
    let sum = corner_value(&d[0], g[0].dot::<I>(d[0]), r2)
        + corner_value(&d[1], g[1].dot::<I>(d[1]), r2)
        + corner_value(&d[2], g[2].dot::<I>(d[2]), r2)
        + corner_value(&d[3], g[3].dot::<I>(d[3]), r2)
        + corner_value(&d[4], g[4].dot::<I>(d[4]), r2);
    scale * sum
}

/// The simplex of 4D points (`simplex4_corners`): the offsets from its five corners to the
/// points, the corners' gradients and their wrapped lattice points (for their hashes).
#[inline(always)]
#[allow(clippy::type_complexity)]
fn simplex4_corners<L: LaneHasher, I: Isa>(
    lut: &L,
    p: [F; 4],
) -> ([[F; 4]; 5], [Grad4; 5], [[U; 4]; 5]) {
    let [x, y, z, w] = p;
    let f4 = SIMPLEX4_F as f32;
    let g4 = SIMPLEX4_G as f32;
    let s = (x + y + z + w) * f4;
    let i = I::floor(x + s);
    let j = I::floor(y + s);
    let k = I::floor(z + s);
    let l = I::floor(w + s);
    let t = (i + j + k + l) * g4;
    let x0 = x - (i - t);
    let y0 = y - (j - t);
    let z0 = z - (k - t);
    let w0 = w - (l - t);
    let c = (x0.gt(y0) << 5)
        + (x0.gt(z0) << 4)
        + (y0.gt(z0) << 3)
        + (x0.gt(w0) << 2)
        + (y0.gt(w0) << 1)
        + z0.gt(w0);
    let order = lut.simplex4_order_lanes(c);
    let (o1, o2, o3) = (
        at_least(&order, 3),
        at_least(&order, 2),
        at_least(&order, 1),
    );
    let d0 = [x0, y0, z0, w0];
    let one = U::splat(1);
    let d1 = corner_offsets(&d0, &o1, g4);
    let d2 = corner_offsets(&d0, &o2, 2.0 * g4);
    let d3 = corner_offsets(&d0, &o3, 3.0 * g4);
    let d4 = corner_offsets(&d0, &[one; 4], 4.0 * g4);
    let ii = I::wrap256_floor(x + s, i);
    let jj = I::wrap256_floor(y + s, j);
    let kk = I::wrap256_floor(z + s, k);
    let ll = I::wrap256_floor(w + s, l);
    let zero = U::splat(0);
    let steps = [[zero; 4], o1, o2, o3, [one; 4]];
    let cell = [ii, jj, kk, ll];
    let g = lut.simplex4_grads(cell, steps);
    let cells = [
        stepped(&cell, &steps[0]),
        stepped(&cell, &steps[1]),
        stepped(&cell, &steps[2]),
        stepped(&cell, &steps[3]),
        stepped(&cell, &steps[4]),
    ];
    ([d0, d1, d2, d3, d4], g, cells)
}

/// The lattice point `cell + o` (steps `o` of 0 or 1 per axis).
#[inline(always)]
fn stepped(cell: &[U; 4], o: &[U; 4]) -> [U; 4] {
    [cell[0] + o[0], cell[1] + o[1], cell[2] + o[2], cell[3] + o[3]]
}

/// `simplex_vector_rows` on lanes: rows `a < N`, `Σ u_a · [value, gradient…]` (the first
/// `K` entries) over the `C` corners (3 to 5) with offsets `d`, gradient components `g` and
/// wrapped lattice points `cells`, `u_a` byte `SIMPLEX_VECTOR_SLOT + a` of the corner's
/// hash. Corners are written out, as the axes in [`kernel`].
#[inline(always)]
fn vector_rows<L: LaneHasher, const N: usize, const C: usize, const K: usize>(
    lut: &L,
    d: &[[F; N]; C],
    g: &[[F; N]; C],
    cells: &[[U; N]; C],
    r2: f32,
) -> [[F; K]; N] {
    let mut rows = [[F::splat(0.0); K]; N];
    macro_rules! corner {
        ($c:literal) => {
            if $c < C {
                let term = vector_term::<N, K>(&d[$c], &g[$c], r2);
                let h = lut.cell_hash_lanes::<N, _>(&padded(&cells[$c]));
                add_vector_term(lut, &mut rows, &term, h, SIMPLEX_VECTOR_SLOT);
            }
        };
    }
    corner!(0);
    corner!(1);
    corner!(2);
    corner!(3);
    corner!(4);
    rows
}

/// A corner's term of [`vector_rows`]: its value, then (where `K` is more than 1) its
/// gradient, 0 past those.
#[inline(always)]
fn vector_term<const N: usize, const K: usize>(d: &[F; N], g: &[F; N], r2: f32) -> [F; 5] {
    let gd = dot(g, d);
    let value = corner_value(d, gd, r2);
    if K == 1 {
        return [value, F::splat(0.0), F::splat(0.0), F::splat(0.0), F::splat(0.0)];
    }
    let gradient = corner_gradient(d, g, gd, r2);
    let zero = F::splat(0.0);
    [
        value,
        gradient[0],
        gradient[1],
        entry(&gradient, 2, zero),
        entry(&gradient, 3, zero),
    ]
}

/// `v[k]`, `zero` past the end of `v`.
#[inline(always)]
fn entry<T: Copy, const N: usize>(v: &[T; N], k: usize, zero: T) -> T {
    if k < N {
        v[k]
    } else {
        zero
    }
}

/// A lattice point of `N` coordinates as 4, 0 past them.
#[inline(always)]
fn padded<const N: usize>(cell: &[U; N]) -> [U; 4] {
    let zero = U::splat(0);
    [cell[0], cell[1], entry(cell, 2, zero), entry(cell, 3, zero)]
}

/// Which simplex noise of vectors the lanes compute (`SimplexVectorForm`), its kernel's
/// squared radius and output scale fixed where it is untiled. Each form has its own lane
/// function: the tiled forms' code inside the untiled one's slows it (3D with the tables:
/// by a quarter).
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum VectorLattice {
    /// Untiled on simplex noise's lattice with the kernel's `r2` and the output `scale`.
    Plain { r2: f32, scale: f32 },
    /// 2D on the torus of the x and y periods.
    Torus([f32; 2]),
    /// 3D on the periodic lattice with the lattice period of each axis.
    Periodic([u32; 3]),
}

/// `simplex_vector_rows` of the simplex around the lane points `p` (their first `D`
/// coordinates), untiled, with the kernel's `r2`. Corners are written out, not mapped: a
/// closure of `map` stays a call compiled without the caller's `#[target_feature]`s.
#[inline(always)]
fn vector_rows_at<L: LaneHasher, I: Isa, const D: usize, const K: usize>(
    lut: &L,
    p: &[F; 4],
    r2: f32,
) -> [[F; K]; 4] {
    let zero = [F::splat(0.0); K];
    match D {
        2 => {
            let (d, g, cells) = simplex2_corners::<L, I>(lut, p[0], p[1]);
            let g = [
                vector2(g[0], None),
                vector2(g[1], None),
                vector2(g[2], None),
            ];
            let r = vector_rows::<L, 2, 3, K>(lut, &d, &g, &cells, r2);
            [r[0], r[1], zero, zero]
        }
        3 => {
            let (d, g, cells) = simplex3_corners::<L, I, L::GraphOrder3>(lut, [p[0], p[1], p[2]]);
            tetrahedron_rows(lut, &d, &g, &cells, r2)
        }
        _ => {
            let (d, g, cells) = simplex4_corners::<L, I>(lut, *p);
            let g = [
                g[0].vector(),
                g[1].vector(),
                g[2].vector(),
                g[3].vector(),
                g[4].vector(),
            ];
            vector_rows::<L, 4, 5, K>(lut, &d, &g, &cells, r2)
        }
    }
}

/// The rows of a 3D simplex's corners (offsets `d`, gradients `g`, lattice points `cells`)
/// with the kernel's `r2`, as 4 rows.
#[inline(always)]
fn tetrahedron_rows<L: LaneHasher, const K: usize>(
    lut: &L,
    d: &[[F; 3]; 4],
    g: &[Grad3; 4],
    cells: &[[U; 3]; 4],
    r2: f32,
) -> [[F; K]; 4] {
    let g = [
        vector3(g[0], None),
        vector3(g[1], None),
        vector3(g[2], None),
        vector3(g[3], None),
    ];
    let r = vector_rows::<L, 3, 4, K>(lut, d, &g, cells, r2);
    [r[0], r[1], r[2], [F::splat(0.0); K]]
}

/// The rows of the tiled 3D vector noise at the lane points `p` (their first three
/// coordinates) on the periodic lattice of `period` (kernel r² = 0.5).
#[inline(always)]
fn periodic_rows<L: LaneHasher, I: Isa, const K: usize>(
    lut: &L,
    p: &[F; 4],
    period: [u32; 3],
) -> [[F; K]; 4] {
    let (d, g, cells) = simplex3_periodic_corners::<L, I>(lut, [p[0], p[1], p[2]], period);
    tetrahedron_rows(lut, &d, &g, &cells, 0.5)
}

/// The rows of the 4D vector noise (reference kernel) at the torus point of the lane points
/// `p` (their first two coordinates) with `period`, and the cosines and sines of the
/// torus's angles `[cos ax, sin ax, cos ay, sin ay]` (`torus_point`).
#[inline(always)]
fn torus_rows<L: LaneHasher, I: Isa, const K: usize>(
    lut: &L,
    p: &[F; 4],
    period: [f32; 2],
) -> ([[F; K]; 4], [F; 4]) {
    let rows = vector_rows_at::<L, I, 4, K>(lut, &torus_lane_point(p, period), SIMPLEX34_R2 as f32);
    (rows, torus_turns(p, period))
}

/// `rows[a][0] · scale` for every component.
#[inline(always)]
fn scaled_values(rows: &[[F; 1]; 4], scale: f32) -> [F; 4] {
    [
        rows[0][0] * scale,
        rows[1][0] * scale,
        rows[2][0] * scale,
        rows[3][0] * scale,
    ]
}

/// `simplex_vector` untiled at the lane points `p` (their first `D` coordinates) with the
/// kernel's `r2` and the output `scale`, components past `D` 0.
#[inline(always)]
pub fn simplex_vector_point<L: LaneHasher, I: Isa, const D: usize>(
    lut: &L,
    p: &[F; 4],
    r2: f32,
    scale: f32,
) -> [F; 4] {
    scaled_values(&vector_rows_at::<L, I, D, 1>(lut, p, r2), scale)
}

/// `simplex_vector` tiled in 3D at the lane points `p` on the periodic lattice of
/// `period`, component 3 0.
#[inline(always)]
pub fn simplex_vector_periodic_point<L: LaneHasher, I: Isa>(
    lut: &L,
    p: &[F; 4],
    period: [u32; 3],
) -> [F; 4] {
    scaled_values(
        &periodic_rows::<L, I, 1>(lut, p, period),
        SIMPLEX3_PERIODIC_SCALE as f32,
    )
}

/// `simplex_vector` tiled in 2D at the lane points `p` on the torus of `period`: the first
/// two components of the 4D noise there, the others 0.
#[inline(always)]
pub fn simplex_vector_torus_point<L: LaneHasher, I: Isa>(
    lut: &L,
    p: &[F; 4],
    period: [f32; 2],
) -> [F; 4] {
    let v = scaled_values(
        &torus_rows::<L, I, 1>(lut, p, period).0,
        SIMPLEX4_VECTOR_SCALE as f32,
    );
    [v[0], v[1], F::splat(0.0), F::splat(0.0)]
}

/// `d[a][k] = rows[a][k] · scale` for the rows' `K` entries, 0 past them
/// (`simplex_vector_deriv`'s scaling), written out.
#[inline(always)]
fn scaled<const K: usize>((rows, scale): ([[F; K]; 4], f32)) -> [[F; 5]; 4] {
    [
        scaled_row(&rows[0], scale),
        scaled_row(&rows[1], scale),
        scaled_row(&rows[2], scale),
        scaled_row(&rows[3], scale),
    ]
}

/// `row · scale` as 5 entries, 0 past the row's `K`.
#[inline(always)]
fn scaled_row<const K: usize>(row: &[F; K], scale: f32) -> [F; 5] {
    [
        scaled_entry(row, 0, scale),
        scaled_entry(row, 1, scale),
        scaled_entry(row, 2, scale),
        scaled_entry(row, 3, scale),
        scaled_entry(row, 4, scale),
    ]
}

/// `row[k] · scale`, 0 past the end of `row`.
#[inline(always)]
fn scaled_entry<const K: usize>(row: &[F; K], k: usize, scale: f32) -> F {
    if k < K {
        row[k] * scale
    } else {
        F::splat(0.0)
    }
}

/// `simplex_vector_deriv` untiled at the lane points `p` (their first `D` coordinates) with
/// the kernel's `r2` and the output `scale`: `d[a] = [component a, ∂/∂x, …]`.
#[inline(always)]
pub fn simplex_vector_point_deriv<L: LaneHasher, I: Isa, const D: usize>(
    lut: &L,
    p: &[F; 4],
    r2: f32,
    scale: f32,
) -> [[F; 5]; 4] {
    match D {
        2 => scaled((vector_rows_at::<L, I, D, 3>(lut, p, r2), scale)),
        3 => scaled((vector_rows_at::<L, I, D, 4>(lut, p, r2), scale)),
        _ => scaled((vector_rows_at::<L, I, D, 5>(lut, p, r2), scale)),
    }
}

/// `simplex_vector_deriv` tiled in 3D at the lane points `p` on the periodic lattice of
/// `period`.
#[inline(always)]
pub fn simplex_vector_periodic_point_deriv<L: LaneHasher, I: Isa>(
    lut: &L,
    p: &[F; 4],
    period: [u32; 3],
) -> [[F; 5]; 4] {
    scaled((
        periodic_rows::<L, I, 4>(lut, p, period),
        SIMPLEX3_PERIODIC_SCALE as f32,
    ))
}

/// `simplex_vector_deriv` tiled in 2D at the lane points `p` on the torus of `period`: each
/// component's 4D gradient taken back through the torus as the scalar code does.
#[inline(always)]
pub fn simplex_vector_torus_point_deriv<L: LaneHasher, I: Isa>(
    lut: &L,
    p: &[F; 4],
    period: [f32; 2],
) -> [[F; 5]; 4] {
    let (rows, turns) = torus_rows::<L, I, 5>(lut, p, period);
    torus_vector_gradients(&scaled((rows, SIMPLEX4_VECTOR_SCALE as f32)), turns)
}

/// The offsets `d0 - o + k·G4` of a 4D simplex corner at steps `o` (0 or 1 per axis) from
/// the first, `k·G4` given as `skew`. Written out: the closure of `array::from_fn` stays a
/// call, compiled without the caller's `#[target_feature]`s (as SSE2 code).
#[inline(always)]
fn corner_offsets(d0: &[F; 4], o: &[U; 4], skew: f32) -> [F; 4] {
    [
        minus_step(d0[0], o[0]) + skew,
        minus_step(d0[1], o[1]) + skew,
        minus_step(d0[2], o[2]) + skew,
        minus_step(d0[3], o[3]) + skew,
    ]
}

/// The corner steps of rank at least `r` (`order >= r` per axis, 1 or 0).
#[inline(always)]
fn at_least(order: &[U; 4], r: u32) -> [U; 4] {
    [
        order[0].ge_u32(r),
        order[1].ge_u32(r),
        order[2].ge_u32(r),
        order[3].ge_u32(r),
    ]
}
