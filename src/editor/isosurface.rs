//! The iso-surface of a 3D field (the editor's iso view, desktop and page): the surface
//! `value = level` of a grid of samples with their analytic gradients, as a triangle mesh.
//! Pure CPU, no GPU: the hosts fill the field, this extracts, [`super::iso`] draws.
//!
//! **Marching tetrahedra**: each grid cell is cut into six tetrahedra around its main
//! diagonal (the Freudenthal split, the same in every cell, so neighbouring cells cut each
//! shared face along the same diagonal), and each tetrahedron crossed by the level gets
//! one triangle (one corner on its side) or two (two corners). Chosen over marching cubes
//! and surface nets because a tetrahedron has no ambiguous case: the mesh is closed and
//! consistently oriented wherever the surface stays inside the grid, by construction, with
//! no 256-case table to get right; and, unlike surface nets, every vertex lies on a
//! segment between two samples, where the linear interpolation of the samples equals the
//! level exactly (what the tests check against the CPU reference). The cost is about twice
//! as many triangles as marching cubes.
//!
//! A sample is inside when its value is below the level; a vertex lies on a segment from a
//! sample inside to one outside, at the linear interpolation of their values, and its
//! gradient is the same interpolation of theirs. Triangles turn counter-clockwise seen from
//! outside (from higher values) in grid coordinates.

/// A 3D grid of samples: `size` along x, y and z; `samples` holds `[value, ∂/∂x, ∂/∂y,
/// ∂/∂z]` per sample, x fastest, then y, then z (a gradient fill's layout,
/// [`crate::field::FieldOutput::Gradient`]).
#[derive(Clone, Copy, Debug)]
pub struct Volume<'a> {
    pub size: [usize; 3],
    pub samples: &'a [f32],
}

/// The surface as triangles over shared vertices.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct IsoMesh {
    /// Each vertex in grid coordinates (sample `(i, j, k)` at `(i, j, k)`).
    pub positions: Vec<[f32; 3]>,
    /// Each vertex's gradient (the field's units, as the samples hold them).
    pub gradients: Vec<[f32; 3]>,
    /// The two samples (indices into the grid) each vertex lies between: inside, outside.
    pub segments: Vec<[u32; 2]>,
    /// Vertex indices, three per triangle.
    pub triangles: Vec<[u32; 3]>,
}

/// The levels the iso view's slider and share links take.
pub const LEVEL_RANGE: (f64, f64) = (-4.0, 4.0);

/// The six tetrahedra of a cell, as corners (bit 0: +x, bit 1: +y, bit 2: +z), each a chain
/// from corner 0 to corner 7 that adds one axis at a time.
const TETRAHEDRA: [[usize; 4]; 6] = [
    [0, 1, 3, 7],
    [0, 1, 5, 7],
    [0, 2, 3, 7],
    [0, 2, 6, 7],
    [0, 4, 5, 7],
    [0, 4, 6, 7],
];

/// The most samples a volume may have (a 512³ grid): the segment table takes 28 bytes each.
pub const MAX_SAMPLES: usize = 1 << 27;

/// The surface `value = level` of `volume`. Errors: a grid under 2 samples along an axis
/// or over [`MAX_SAMPLES`], samples not four floats each, a value or gradient or the level
/// not finite.
pub fn extract(volume: &Volume<'_>, level: f32) -> Result<IsoMesh, String> {
    let [nx, ny, nz] = volume.size;
    if volume.size.iter().any(|&n| n < 2) {
        return Err(format!(
            "iso-surface: the grid is {nx}×{ny}×{nz}; it needs 2 samples or more along each axis"
        ));
    }
    let count = nx
        .checked_mul(ny)
        .and_then(|n| n.checked_mul(nz))
        .filter(|&n| n <= MAX_SAMPLES)
        .ok_or_else(|| {
            format!("iso-surface: the grid {nx}×{ny}×{nz} has more than {MAX_SAMPLES} samples")
        })?;
    if volume.samples.len() != count * 4 {
        return Err(format!(
            "iso-surface: {} floats for {count} samples of 4 (value and gradient)",
            volume.samples.len()
        ));
    }
    if !level.is_finite() {
        return Err(format!("iso-surface: the level {level} is not finite"));
    }
    if let Some(bad) = volume.samples.iter().position(|v| !v.is_finite()) {
        let s = bad / 4;
        return Err(format!(
            "iso-surface: sample ({}, {}, {}) is not finite",
            s % nx,
            s / nx % ny,
            s / (nx * ny)
        ));
    }
    let value = |s: usize| volume.samples[4 * s];
    // A corner's sample index relative to the cell's first.
    let corner_offset: [usize; 8] =
        std::array::from_fn(|c| (c & 1) + (c >> 1 & 1) * nx + (c >> 2 & 1) * nx * ny);
    let mut builder = Builder {
        volume,
        level,
        mesh: IsoMesh::default(),
        vertex_of: vec![u32::MAX; count * 7],
    };
    for k in 0..nz - 1 {
        for j in 0..ny - 1 {
            for i in 0..nx - 1 {
                let base = i + nx * (j + ny * k);
                let corners = corner_offset.map(|o| base + o);
                let inside = corners.map(|s| value(s) < level);
                if inside.iter().all(|&b| b) || inside.iter().all(|&b| !b) {
                    continue;
                }
                for tetrahedron in TETRAHEDRA {
                    builder.tetrahedron(tetrahedron.map(|c| (c, corners[c], inside[c])));
                }
            }
        }
    }
    Ok(builder.mesh)
}

struct Builder<'a, 'b> {
    volume: &'b Volume<'a>,
    level: f32,
    mesh: IsoMesh,
    /// The vertex on each segment from a sample (7 per sample: the segment's direction
    /// `d` in 1..=7, bits as the corners', at `7 · sample + d − 1`), `u32::MAX` if none yet.
    vertex_of: Vec<u32>,
}

impl Builder<'_, '_> {
    /// The triangles of one tetrahedron, given as (corner, sample, inside) in chain order.
    fn tetrahedron(&mut self, t: [(usize, usize, bool); 4]) {
        let inner: Vec<usize> = (0..4).filter(|&v| t[v].2).collect();
        let outer: Vec<usize> = (0..4).filter(|&v| !t[v].2).collect();
        match (inner.len(), outer.len()) {
            (1, 3) => {
                let a = inner[0];
                self.triangle(t, [[a, outer[0]], [a, outer[1]], [a, outer[2]]]);
            }
            (3, 1) => {
                let d = outer[0];
                self.triangle(t, [[inner[0], d], [inner[1], d], [inner[2], d]]);
            }
            (2, 2) => {
                // The four crossed segments form a loop: ac, ad, bd, bc.
                let ([a, b], [c, d]) = ([inner[0], inner[1]], [outer[0], outer[1]]);
                self.triangle(t, [[a, c], [a, d], [b, d]]);
                self.triangle(t, [[a, c], [b, d], [b, c]]);
            }
            _ => {}
        }
    }

    /// One triangle on the segments `(inside, outside)` of tetrahedron `t`, turned to face
    /// outside: judged on the segments' midpoints (never a degenerate triangle, where the
    /// vertices themselves may be: a value equal to the level puts it on the sample).
    fn triangle(&mut self, t: [(usize, usize, bool); 4], segments: [[usize; 2]; 3]) {
        let position = |c: usize| [(c & 1) as f32, (c >> 1 & 1) as f32, (c >> 2 & 1) as f32];
        let mid = segments.map(|[a, b]| {
            let (pa, pb) = (position(t[a].0), position(t[b].0));
            std::array::from_fn::<f32, 3, _>(|k| (pa[k] + pb[k]) / 2.0)
        });
        // Inside to outside: from the inside corners' centroid to the outside corners'.
        let mut towards_outside = [0.0f32; 3];
        for &(corner, _, inside) in &t {
            let sign = if inside { -1.0 } else { 1.0 };
            let p = position(corner);
            for k in 0..3 {
                towards_outside[k] += sign * p[k];
            }
        }
        let normal = cross(sub(mid[1], mid[0]), sub(mid[2], mid[0]));
        let mut vertices = segments.map(|[a, b]| self.vertex(t[a], t[b]));
        if dot(normal, towards_outside) < 0.0 {
            vertices.swap(1, 2);
        }
        self.mesh.triangles.push(vertices);
    }

    /// The vertex on the segment between tetrahedron corners `a` (inside) and `b`
    /// (outside), shared with every tetrahedron that has the segment.
    fn vertex(&mut self, a: (usize, usize, bool), b: (usize, usize, bool)) -> u32 {
        // The corners of a chain: the lower one's bits are a subset of the higher one's.
        let (low, high) = if a.0 < b.0 { (a, b) } else { (b, a) };
        let slot = 7 * low.1 + (high.0 ^ low.0) - 1;
        if self.vertex_of[slot] != u32::MAX {
            return self.vertex_of[slot];
        }
        let [nx, ny, _] = self.volume.size;
        let sample =
            |s: usize| -> [f32; 4] { std::array::from_fn(|k| self.volume.samples[4 * s + k]) };
        let grid = |s: usize| {
            [
                (s % nx) as f32,
                (s / nx % ny) as f32,
                (s / (nx * ny)) as f32,
            ]
        };
        let (sa, sb) = (sample(a.1), sample(b.1));
        // sa[0] < level <= sb[0]: t in (0, 1].
        let t = (self.level - sa[0]) / (sb[0] - sa[0]);
        let (ga, gb) = (grid(a.1), grid(b.1));
        let index = self.mesh.positions.len() as u32;
        self.mesh
            .positions
            .push(std::array::from_fn(|k| ga[k] + t * (gb[k] - ga[k])));
        self.mesh.gradients.push(std::array::from_fn(|k| {
            sa[k + 1] + t * (sb[k + 1] - sa[k + 1])
        }));
        self.mesh.segments.push([a.1 as u32, b.1 as u32]);
        self.vertex_of[slot] = index;
        index
    }
}

fn sub(a: [f32; 3], b: [f32; 3]) -> [f32; 3] {
    [a[0] - b[0], a[1] - b[1], a[2] - b[2]]
}

fn dot(a: [f32; 3], b: [f32; 3]) -> f32 {
    a[0] * b[0] + a[1] * b[1] + a[2] * b[2]
}

fn cross(a: [f32; 3], b: [f32; 3]) -> [f32; 3] {
    [
        a[1] * b[2] - a[2] * b[1],
        a[2] * b[0] - a[0] * b[2],
        a[0] * b[1] - a[1] * b[0],
    ]
}
