//! The terrain view checked from straight above, apart from its renderer: where the CPU
//! heights project and the shading of the normal of the CPU's analytic gradient (the
//! desktop preview's terrain, tests/cli/preview_terrain.rs, and the page's 3D view,
//! tests/web/page.rs).

use wgpu_noise::editor::orbit::FIELD_OF_VIEW;
use wgpu_noise::editor::terrain::{AMBIENT, DEFAULT_RELIEF, GRID, LIGHT};
use wgpu_noise::graph::Sampler;

/// The mesh's placement by the documented convention: vertex (i, j) of the GRID² mesh
/// samples a `W × H` flat view from its first pixel to its last, `x = origin + step · (W −
/// 1) · i / (GRID − 1)` (f32, as the shader); the longer side is 2 world units; a value
/// of 1 stands `relief` high.
pub struct Mesh {
    pub origin: [f32; 4],
    pub span: [f32; 2],
    pub extent: [f64; 2],
    pub relief: f64,
}

impl Mesh {
    /// The mesh over a `width` × `height` flat view whose pixel (0, 0) samples `origin`,
    /// its pixels `step` apart, at the default relief.
    pub fn over(origin: [f32; 4], step: f32, [width, height]: [u32; 2]) -> Mesh {
        let longer = width.max(height) as f64;
        Mesh {
            origin,
            span: [step * (width - 1) as f32, step * (height - 1) as f32],
            extent: [width as f64 / longer, height as f64 / longer],
            relief: DEFAULT_RELIEF,
        }
    }

    pub fn point(&self, i: u32, j: u32) -> [f32; 4] {
        let last = (GRID - 1) as f32;
        let mut p = self.origin;
        p[0] += i as f32 / last * self.span[0];
        p[1] += j as f32 / last * self.span[1];
        p
    }

    /// World x, y of a field point on the mesh (world y runs up the frame).
    pub fn world(&self, p: [f32; 4]) -> [f64; 2] {
        let u = (p[0] - self.origin[0]) as f64 / self.span[0] as f64;
        let v = (p[1] - self.origin[1]) as f64 / self.span[1] as f64;
        [
            (2.0 * u - 1.0) * self.extent[0],
            (1.0 - 2.0 * v) * self.extent[1],
        ]
    }

    /// The unit normal of the height field `relief · value` at world scale, from the
    /// value's gradient by the chain rule (x_world = (2u − 1)·a, y_world = (1 − 2v)·b).
    pub fn normal(&self, gradient: [f32; 2]) -> [f64; 3] {
        let dzdx = self.relief * gradient[0] as f64 * self.span[0] as f64 / (2.0 * self.extent[0]);
        let dzdy = -self.relief * gradient[1] as f64 * self.span[1] as f64 / (2.0 * self.extent[1]);
        let n = [-dzdx, -dzdy, 1.0];
        let len = n.iter().map(|c| c * c).sum::<f64>().sqrt();
        n.map(|c| c / len)
    }
}

/// Where world point `p` appears in a `width` × `height` frame seen straight down from
/// `distance` above the centre (yaw 0: world x to the right, world y up): the pinhole
/// projection of the field of view, worked out here apart from the camera's matrix.
pub fn top_down(p: [f64; 3], distance: f64, width: u32, height: u32) -> [f64; 2] {
    let scale = height as f64 / 2.0 / (FIELD_OF_VIEW / 2.0).tan() / (distance - p[2]);
    [
        width as f64 / 2.0 + p[0] * scale,
        height as f64 / 2.0 - p[1] * scale,
    ]
}

/// A gray terrain picture seen from straight above against the CPU.
pub struct TopDown {
    /// Vertices within 0.1 px of a pixel's centre, inside the outline: the ones compared.
    pub compared: usize,
    /// The largest difference in levels, and how many were over 2.
    pub worst: i32,
    pub off: usize,
    pub mean: f64,
    /// Differences 0, 1, …, 8 and 9 or more.
    pub histogram: [usize; 10],
    /// Pixels some vertex falls in, and the others that are not black.
    pub lit: usize,
    pub background: usize,
}

/// Compares the gray picture `gray(x, y)` of `size` pixels of the terrain of `mesh`
/// (values from `sampler`) seen from `distance` straight above: each vertex that falls
/// within 0.1 px of a pixel's centre has the gray of the CPU value, `t = clamp((v + 1) / 2,
/// 0, 1)`, times the Lambert shading of the normal of the CPU gradient.
pub fn compare_top_down(
    mesh: &Mesh,
    sampler: &mut Sampler,
    distance: f64,
    [width, height]: [u32; 2],
    gray: &dyn Fn(u32, u32) -> u8,
) -> TopDown {
    let mut compared = 0usize;
    let mut worst = 0i32;
    let mut off = 0usize;
    let mut histogram = [0usize; 10];
    let mut covered = vec![false; (width * height) as usize];
    for j in 0..GRID {
        for i in 0..GRID {
            let p = mesh.point(i, j);
            let [value, gx, gy, _, _] = sampler.value_and_gradient(&p);
            let [x, y] = mesh.world(p);
            let at = top_down([x, y, mesh.relief * value as f64], distance, width, height);
            let pixel = at.map(|c| c.floor());
            let inside = |c: f64, n: u32| (0.0..n as f64).contains(&c);
            if !inside(pixel[0], width) || !inside(pixel[1], height) {
                continue;
            }
            covered[(pixel[1] as u32 * width + pixel[0] as u32) as usize] = true;
            // Only vertices within 0.1 px of a pixel's centre (elsewhere the pixel shows
            // its neighbours' interpolation), inside the outline (a pixel centre on the
            // mesh's edge may belong to no triangle, by the rasteriser's tie rule).
            let edge = [i, j].iter().any(|&k| k == 0 || k == GRID - 1);
            if edge || at.iter().zip(pixel).any(|(c, f)| (c - f - 0.5).abs() > 0.1) {
                continue;
            }
            let n = mesh.normal([gx, gy]);
            let lambert = (n[0] * LIGHT[0] + n[1] * LIGHT[1] + n[2] * LIGHT[2]).max(0.0);
            let shade = AMBIENT as f64 + (1.0 - AMBIENT as f64) * lambert;
            let t = ((value as f64 + 1.0) / 2.0).clamp(0.0, 1.0);
            let expected = (255.0 * t * shade).round() as i32;
            let got = gray(pixel[0] as u32, pixel[1] as u32) as i32;
            let d = (got - expected).abs();
            worst = worst.max(d);
            off += (d > 2) as usize;
            histogram[d.min(9) as usize] += 1;
            compared += 1;
        }
    }
    // Pixels no vertex falls in are the black background: the mesh's outline is where
    // the CPU heights project.
    let mut background = 0;
    for y in 0..height {
        for x in 0..width {
            if !covered[(y * width + x) as usize] && gray(x, y) != 0 {
                background += 1;
            }
        }
    }
    let mean = histogram
        .iter()
        .enumerate()
        .map(|(d, n)| d * n)
        .sum::<usize>() as f64
        / compared.max(1) as f64;
    TopDown {
        compared,
        worst,
        off,
        mean,
        histogram,
        lit: covered.iter().filter(|&&c| c).count(),
        background,
    }
}
