//! The iso view checked from straight above, apart from its renderer: where the CPU puts
//! the plane `value = z − c` in the cube and how a normal straight up is shaded (the GPU
//! renderer, tests/gpu/iso_view.rs, and the desktop preview, tests/cli/preview_iso.rs).

use wgpu_noise::editor::iso::EXTENT;
use wgpu_noise::editor::terrain::{AMBIENT, LIGHT};

use super::terrain::top_down;

/// The graph `z − c`.
pub fn plane_json(c: f64) -> String {
    format!(
        r#"{{"version": 1, "output": "p", "nodes": {{"p": {{"type": "subtract",
            "a": {{"type": "position", "axis": "z"}}, "b": {c}}}}}}}"#
    )
}

/// A plane's gray frame against the CPU.
#[derive(Debug)]
pub struct PlaneFromAbove {
    /// The gray the CPU predicts on the plane.
    pub expected: i32,
    /// Pixels more than 1 px inside the square compared, and the largest difference there.
    pub inside: usize,
    pub worst: i32,
    /// Pixels more than 1 px outside the square, and how many of them are not black.
    pub outside: usize,
    pub not_black: usize,
}

/// Compares the gray frame `gray(x, y)` (`size`² pixels, gray ramp, level 0) of the plane
/// `z − c` over a cube of `samples`³ samples from the origin, `frequency` cells across,
/// seen straight down from `distance`: the square the cube's x, y span projects to at the
/// plane's height has the gray of that height (`t = (z / EXTENT + 1) / 2`) times the
/// shading of a normal straight up; outside it, black.
pub fn compare_plane_from_above(
    c: f64,
    frequency: f64,
    samples: u32,
    distance: f64,
    size: u32,
    gray: &dyn Fn(u32, u32) -> u8,
) -> PlaneFromAbove {
    let n = samples as f64;
    // The plane's grid height (sample k at frequency · k / n) and world height.
    let k = c / (frequency / n);
    let z = (2.0 * k / (n - 1.0) - 1.0) * EXTENT;
    let t = (z / EXTENT + 1.0) / 2.0;
    let shade = AMBIENT as f64 + (1.0 - AMBIENT as f64) * LIGHT[2];
    let expected = (255.0 * t * shade).round() as i32;
    let [left, top] = top_down([-EXTENT, EXTENT, z], distance, size, size);
    let [right, bottom] = top_down([EXTENT, -EXTENT, z], distance, size, size);
    let within = |lo: f64, v: f64, hi: f64, margin: f64| lo + margin < v && v < hi - margin;
    let mut out = PlaneFromAbove {
        expected,
        inside: 0,
        worst: 0,
        outside: 0,
        not_black: 0,
    };
    for y in 0..size {
        for x in 0..size {
            let (cx, cy) = (x as f64 + 0.5, y as f64 + 0.5);
            let got = gray(x, y) as i32;
            if within(left, cx, right, 1.0) && within(top, cy, bottom, 1.0) {
                out.worst = out.worst.max((got - expected).abs());
                out.inside += 1;
            } else if !(within(left, cx, right, -1.0) && within(top, cy, bottom, -1.0)) {
                out.outside += 1;
                out.not_black += (got != 0) as usize;
            }
        }
    }
    out
}
