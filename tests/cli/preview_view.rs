//! What the preview shows (`cli::preview::view`): keys, clock, pan and zoom, its uniform's
//! layout, and the bake command that reproduces a frame.
#![cfg(feature = "preview")]

use wgpu_noise::cli::preview::view::{
    shell_word, Picture, PreviewUniforms, View, PREVIEW_FLOW_RATE, PREVIEW_WARP, ZOOM_STEP,
};
use wgpu_noise::editor::orbit::{Orbit, DISTANCE_RANGE, FIELD_OF_VIEW, PITCH_RANGE};
use wgpu_noise::editor::terrain::{TerrainUniforms, DEFAULT_RELIEF};
use wgpu_noise::field::{FractalMode, MAX_OCTAVES};
use wgpu_noise::params::NoiseSettings;
use wgpu_noise::ramp::ColourRamp;
use wgpu_noise::{FieldOutput, NoiseKind};

fn view() -> View {
    View {
        kind: NoiseKind::Simplex,
        dims: 3,
        seed: 0,
        octaves: 1,
        mode: FractalMode::Fbm,
        lacunarity: 2.0,
        gain: 0.5,
        step: 0.01,
        pan: [0.0, 0.0],
        time: 2.0,
        speed: 0.5,
        paused: false,
        warp: 0.0,
        warp_iterations: 1,
        flow: false,
        flow_rate: PREVIEW_FLOW_RATE,
        output: FieldOutput::Value,
        tiled: false,
        ramp: ColourRamp::Gray,
        graph: None,
        picture: Picture::Flat,
        camera: Orbit::default(),
        relief: DEFAULT_RELIEF,
        level: 0.0,
    }
}

#[test]
fn the_flow_key_turns_the_gradients_with_the_clock_instead_of_moving() {
    let mut v = view();
    v.flow = true;
    let f = v.field(64, 64);
    assert_eq!(f.flow_angle, PREVIEW_FLOW_RATE * v.time);
    assert_eq!(f.offset, [0.0; 4], "the pattern swirls in place");
    // Flow noise is simplex 2D/3D: elsewhere the clock moves the picture as before.
    v.dims = 4;
    assert_eq!(v.field(64, 64).flow_angle, 0.0);
    assert_ne!(v.field(64, 64).offset[3], 0.0);
}

#[test]
fn the_warp_key_turns_the_domain_warp_on_and_off() {
    let mut v = view();
    assert_eq!(
        v.uniforms(64, 64)
            .expect("the frame draws")
            .settings
            .warp_iterations,
        0
    );
    v.toggle_warp();
    let s = v.uniforms(64, 64).expect("the frame draws").settings;
    assert_eq!(
        (s.warp_iterations, s.warp_amplitude),
        (1, PREVIEW_WARP as f32)
    );
    v.toggle_warp();
    assert_eq!(
        v.uniforms(64, 64)
            .expect("the frame draws")
            .settings
            .warp_iterations,
        0
    );
}

#[test]
fn the_tile_key_shows_one_tile_of_whole_cells_and_loops_the_animation() {
    use wgpu_noise::cpu::fractal::fractal;
    use wgpu_noise::tables::PermutationTables;
    let lut = PermutationTables::new(0);
    let mut v = view();
    v.tiled = true;
    v.step = 6.3 / 160.0;
    for (kind, dims) in [
        (NoiseKind::Classic, 2),
        (NoiseKind::Simplex, 2),
        (NoiseKind::Simplex, 3),
        (NoiseKind::Classic, 4),
        (NoiseKind::Cellular, 3),
    ] {
        v.kind = kind;
        v.dims = dims;
        let f = v.field(160, 120);
        assert!(f.tileable, "{kind:?} {dims}D");
        f.validate().expect("a tiled view is a valid field");
        assert_eq!(
            &f.frequency[..2],
            &[6.0, 5.0],
            "whole cells across each side"
        );
        // The noise repeats by the period along x and along the animated axis.
        let settings = NoiseSettings::of(&f);
        let p = [0.37, 1.9, 0.55, 2.25];
        for axis in [0, v.animated_axis()] {
            assert!(settings.period[axis] >= 1.0, "{kind:?} {dims}D axis {axis}");
            let mut q = p;
            q[axis] += settings.period[axis] as f64;
            let a = fractal::<f64>(&lut, kind, &p[..dims], &settings);
            let b = fractal::<f64>(&lut, kind, &q[..dims], &settings);
            assert!(
                (a - b).abs() < 1e-9,
                "{kind:?} {dims}D axis {axis}: {a} vs {b}"
            );
        }
    }
    // 4D simplex does not tile: the T key leaves it as it is.
    v.kind = NoiseKind::Simplex;
    v.dims = 4;
    assert!(!v.field(160, 120).tileable);
}

#[test]
fn the_uniform_is_the_wgsl_structs_layout() {
    let preview = wgpu_noise::cli::preview::render::shader_source(None);
    let source = wgpu_noise::embed::shader_source(1, &preview).expect("the preview shader");
    assert_eq!(
        wgpu_noise::struct_layout::wgsl_struct_layout(&source, "Preview"),
        wgpu_noise::rust_struct_layout!(PreviewUniforms: offset, step, settings, kind, dims,
            gray_low, gray_high, curl, ramp)
    );
}

#[test]
fn the_terrain_uniform_is_the_wgsl_structs_layout() {
    let graph = wgpu_noise::graph::Graph::from_json(
        r#"{"version": 1, "output": "n", "nodes": {"n": {"type": "simplex"}}}"#,
    )
    .unwrap();
    let program = graph.program(2, [0.0; 4]).unwrap();
    let terrain = wgpu_noise::editor::terrain::shader_source(&program);
    let source = wgpu_noise::embed::shader_source(1, &terrain).expect("the terrain shader");
    assert_eq!(
        wgpu_noise::struct_layout::wgsl_struct_layout(&source, "Terrain"),
        wgpu_noise::rust_struct_layout!(TerrainUniforms: view_projection, origin, span, light,
            extent, relief, ambient, grid, gray_low, gray_high, ramp)
    );
}

#[test]
fn the_iso_uniform_is_the_wgsl_structs_layout() {
    use wgpu_noise::editor::iso::IsoUniforms;
    let source = wgpu_noise::editor::iso::shader_source();
    assert_eq!(
        wgpu_noise::struct_layout::wgsl_struct_layout(&source, "Iso"),
        wgpu_noise::rust_struct_layout!(IsoUniforms: view_projection, eye, light, extent,
            ambient, ramp)
    );
}

/// `m · (x, y, z, 1)` as window pixels of a `width` × `height` frame (row 0 at the top)
/// and the depth.
fn project(m: &[[f32; 4]; 4], p: [f64; 3], width: f64, height: f64) -> [f64; 3] {
    let clip: [f64; 4] = std::array::from_fn(|row| {
        (0..4)
            .map(|c| m[c][row] as f64 * if c < 3 { p[c] } else { 1.0 })
            .sum()
    });
    let ndc = [clip[0] / clip[3], clip[1] / clip[3], clip[2] / clip[3]];
    [
        (ndc[0] + 1.0) / 2.0 * width,
        (1.0 - ndc[1]) / 2.0 * height,
        ndc[2],
    ]
}

#[test]
fn the_orbit_camera_looks_at_the_centre_from_its_yaw_pitch_and_distance() {
    let (width, height) = (400.0, 300.0);
    let tan = (FIELD_OF_VIEW / 2.0).tan();
    for (yaw, pitch, distance) in [(0.0, 90.0, 3.0), (30.0, 50.0, 2.5), (-120.0, 10.0, 6.0)] {
        let camera = Orbit::new(f64::to_radians(yaw), f64::to_radians(pitch), distance);
        let m = camera.view_projection(width / height);
        // The centre is in the middle of the frame, between the near and far planes.
        let c = project(&m, [0.0; 3], width, height);
        assert!(
            (c[0] - 200.0).abs() < 1e-3 && (c[1] - 150.0).abs() < 1e-3,
            "{c:?}"
        );
        assert!(c[2] > 0.0 && c[2] < 1.0, "depth {}", c[2]);
        // The eye is `distance` from the centre at `pitch` above the horizon.
        let eye = camera.eye();
        let norm = eye.iter().map(|v| v * v).sum::<f64>().sqrt();
        assert!((norm - distance).abs() < 1e-9);
        assert!((eye[2] / norm - f64::to_radians(pitch).sin()).abs() < 1e-9);
        // The ray through a pixel passes through what projects to it.
        let (origin, dir) = camera.ray(90.0, 210.0, width, height);
        let on_ray: [f64; 3] = std::array::from_fn(|k| origin[k] + 0.8 * distance * dir[k]);
        let p = project(&m, on_ray, width, height);
        assert!(
            (p[0] - 90.0).abs() < 1e-3 && (p[1] - 210.0).abs() < 1e-3,
            "{p:?}"
        );
    }
    // Straight down, yaw 0: world x to the right, world y up the frame, by the
    // perspective of the field of view (independent of the matrix's making).
    let camera = Orbit::new(0.0, std::f64::consts::FRAC_PI_2, 3.0);
    let m = camera.view_projection(width / height);
    let p = project(&m, [0.5, 0.25, 0.2], width, height);
    let scale = height / 2.0 / tan / (3.0 - 0.2);
    assert!((p[0] - (200.0 + 0.5 * scale)).abs() < 1e-3, "{p:?}");
    assert!((p[1] - (150.0 - 0.25 * scale)).abs() < 1e-3, "{p:?}");
    // Nearer is less deep.
    assert!(
        project(&m, [0.0, 0.0, 0.5], width, height)[2] < project(&m, [0.0; 3], width, height)[2]
    );
}

#[test]
fn dragging_orbits_and_the_wheel_zooms_within_their_ranges() {
    let mut camera = Orbit::default();
    let start = camera;
    use std::f64::consts::{FRAC_PI_2, PI, TAU};
    let turned = |a: f64, b: f64| ((a - b + PI).rem_euclid(TAU) - PI).abs();
    // A drag right across the whole height turns the camera once around.
    camera.drag(300.0, 0.0, 300.0);
    assert!(turned(camera.yaw, start.yaw) < 1e-9, "{camera:?}");
    camera.drag(75.0, 0.0, 300.0);
    assert!(
        turned(camera.yaw, start.yaw - FRAC_PI_2) < 1e-9,
        "{camera:?}"
    );
    // Down raises it, up to straight down; up lowers it, down to the horizon's limit.
    camera.drag(0.0, 1000.0, 300.0);
    assert_eq!(camera.pitch, PITCH_RANGE.1);
    camera.drag(0.0, -1000.0, 300.0);
    assert_eq!(camera.pitch, PITCH_RANGE.0);
    // The wheel comes closer by the zoom step per notch, within the distance range.
    camera.zoom(ZOOM_STEP);
    assert!((camera.distance - start.distance / ZOOM_STEP).abs() < 1e-12);
    camera.zoom(1e9);
    assert_eq!(camera.distance, DISTANCE_RANGE.0);
    camera.zoom(1e-9);
    assert_eq!(camera.distance, DISTANCE_RANGE.1);
    // Non-finite input leaves a usable camera.
    let odd = Orbit::new(f64::NAN, f64::INFINITY, f64::NAN);
    assert!(odd.yaw.is_finite() && odd.pitch.is_finite() && odd.distance.is_finite());
}

#[test]
fn the_curl_key_shows_curl_noise_in_2d_and_3d_over_the_flow_map_range() {
    let mut v = view();
    v.toggle_curl();
    v.flow = true;
    for dims in [2, 3] {
        v.dims = dims;
        let u = v.uniforms(64, 64).expect("the frame draws");
        assert_eq!((u.curl, u.gray_low, u.gray_high), (1, -8.0, 8.0));
        // The clock moves the curl field along the animated axis; it does not turn it.
        assert_eq!(v.field(64, 64).flow_angle, 0.0);
        assert!(v.describe(64).starts_with("curl noise"));
    }
    // 4D has no curl noise: the value is drawn.
    v.dims = 4;
    assert_eq!(v.uniforms(64, 64).expect("the frame draws").curl, 0);
    v.toggle_curl();
    v.dims = 3;
    assert_eq!(v.uniforms(64, 64).expect("the frame draws").curl, 0);
}

#[test]
fn the_clock_moves_the_animated_axis_only() {
    let mut v = view();
    for (dims, axis) in [(2, 0), (3, 2), (4, 3)] {
        v.dims = dims;
        let f = v.field(100, 50);
        assert_eq!(f.offset[axis], 1.0, "{dims}D");
        assert_eq!(f.frequency[0], 1.0);
        assert_eq!(f.frequency[1], 0.5);
    }
}

#[test]
fn zoom_keeps_the_point_under_the_cursor() {
    let mut v = view();
    let before = v.pan[0] + 37.0 * v.step;
    v.zoom_at(ZOOM_STEP, 37.0, 11.0);
    let after = v.pan[0] + 37.0 * v.step;
    assert!((before - after).abs() < 1e-12);
    assert!(v.step < 0.01);
}

#[test]
fn a_drag_moves_the_picture_with_the_pointer() {
    let mut v = view();
    let under_pointer = v.pan[0] + 10.0 * v.step;
    v.pan_pixels(25.0, -4.0);
    assert!((v.pan[0] + 35.0 * v.step - under_pointer).abs() < 1e-12);
    assert!((v.pan[1] - 4.0 * v.step - 0.0).abs() < 1e-12);
}

#[test]
fn the_bake_command_names_every_setting_that_differs_from_bakes_defaults() {
    let mut v = view();
    v.mode = FractalMode::Turbulence;
    v.octaves = 3;
    v.gain = 0.25;
    v.warp = 0.5;
    v.warp_iterations = 2;
    let command = v.bake_command(64, 32, None, std::path::Path::new("a b.png"));
    assert_eq!(
        command,
        "wgpu-noise bake --noise simplex --dims 3 --seed 0 --size 64x32x1 \
         --frequency 0.64,0.32,1 --offset 0,0,1 --octaves 3 --gain 0.25 \
         --fractal turbulence --warp 0.5 --warp-octaves 2 --warp-iterations 2 \
         --range 0,1 --bits 8 -o 'a b.png'"
    );
    v.graph = Some("g.json".into());
    let command = v.bake_command(64, 32, None, std::path::Path::new("n.png"));
    assert!(
        command.starts_with("wgpu-noise bake --graph GRAPH.json --dims 3"),
        "{command}"
    );
    assert!(
        !command.contains("--octaves"),
        "a graph has its own: {command}"
    );
}

#[test]
fn shell_words_read_back_as_they_were() {
    assert_eq!(shell_word("-0.5,2"), "-0.5,2");
    assert_eq!(shell_word("it's"), "'it'\\''s'");
    assert_eq!(shell_word(""), "''");
}

#[test]
fn octaves_stay_in_range() {
    let mut v = view();
    v.add_octaves(-5);
    assert_eq!(v.octaves, 1);
    v.add_octaves(100);
    assert_eq!(v.octaves, MAX_OCTAVES);
}

/// Every combination the keys reach (kind, dimensions, octaves, fractal mode, warp, flow,
/// curl, tiling): the settings build a graph that the planner runs on the hand-written
/// fill, so the window draws it with its uniforms.
#[test]
fn every_setting_the_keys_reach_is_drawn_by_the_hand_written_fill() {
    let mut drawn = 0;
    for kind in [NoiseKind::Classic, NoiseKind::Simplex, NoiseKind::Cellular] {
        for dims in 2..=4 {
            for octaves in [1, 3] {
                for mode in [
                    FractalMode::Fbm,
                    FractalMode::Turbulence,
                    FractalMode::Ridged,
                ] {
                    for (warp, flow, curl, tiled) in (0..16).map(|bits: u32| {
                        (bits & 1 != 0, bits & 2 != 0, bits & 4 != 0, bits & 8 != 0)
                    }) {
                        let mut v = view();
                        (v.kind, v.dims, v.octaves, v.mode) = (kind, dims, octaves, mode);
                        v.flow = flow;
                        v.tiled = tiled;
                        if warp {
                            v.toggle_warp();
                        }
                        if curl {
                            v.toggle_curl();
                        }
                        let field = v.drawn_field(64, 48).unwrap_or_else(|e| {
                            panic!("{}: {e}", v.describe(64));
                        });
                        let u = v.uniforms(64, 48).expect("the frame draws");
                        assert_eq!(u.settings, NoiseSettings::of(&field));
                        drawn += 1;
                    }
                }
            }
        }
    }
    assert_eq!(drawn, 3 * 3 * 2 * 3 * 16);
}

/// A curl frame is the curl of one octave of simplex noise whatever the settings, and
/// its bake command says so: the command reproduces the window.
#[test]
fn a_curl_frame_and_its_bake_command_are_simplex_noises_curl() {
    let mut v = view();
    (v.kind, v.dims, v.octaves) = (NoiseKind::Classic, 2, 3);
    v.toggle_warp();
    v.toggle_curl();
    let field = v.drawn_field(64, 32).expect("a curl frame");
    assert_eq!(field.kind, NoiseKind::Simplex);
    assert_eq!((field.fractal.octaves, field.warp.amplitude), (1, 0.0));
    let command = v.bake_command(64, 32, None, std::path::Path::new("c.png"));
    assert_eq!(
        command,
        "wgpu-noise bake --noise simplex --dims 2 --seed 0 --size 64x32 \
         --frequency 0.64,0.32 --offset 1,0 --curl --bits 8 -o c.png"
    );
}

/// The bake command of a graph's terrain view is the 16-bit heightmap of the frame's
/// values, of its iso view the cube's values (`share::bake_output`, as the page's): each
/// run writes what the CPU sampler gives at the points the view draws.
#[test]
fn the_3d_views_bake_commands_write_the_heights_and_the_cube() {
    let graph = r#"{"version": 1, "output": "n", "nodes": {"n": {"type": "simplex"}}}"#;
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("g.json"), graph).unwrap();
    let mut v = view();
    v.graph = Some(graph.into());
    v.time = 0.0;
    let run = |command: &str| {
        let out = std::process::Command::new(env!("CARGO_BIN_EXE_wgpu-noise"))
            .args(command.split(' ').skip(1))
            .args(["--backend", "cpu"])
            .current_dir(dir.path())
            .output()
            .unwrap();
        assert!(
            out.status.success(),
            "{command}: {}",
            String::from_utf8_lossy(&out.stderr)
        );
    };
    let mut sampler = wgpu_noise::graph::Graph::from_json(graph)
        .unwrap()
        .sampler(3, 0)
        .unwrap();

    v.picture = Picture::Terrain;
    let command = v.bake_command(
        64,
        32,
        Some(std::path::Path::new("g.json")),
        "n.png".as_ref(),
    );
    eprintln!("terrain: {command}");
    assert!(
        command.ends_with("--range -1,1 --bits 16 -o heightmap.png"),
        "{command}"
    );
    assert!(!command.contains("--ramp"), "{command}");
    run(&command);
    let heights = image::open(dir.path().join("heightmap.png"))
        .unwrap()
        .into_luma16();
    assert_eq!(heights.dimensions(), (64, 32));
    let mut worst = 0.0f64;
    for (x, y, h) in heights.enumerate_pixels() {
        // Pixel (x, y) samples pan + step · (x, y) at the frame's z.
        let p = [
            (v.step * x as f64) as f32,
            (v.step * y as f64) as f32,
            0.0,
            0.0,
        ];
        let want = (sampler.value(&p) as f64 + 1.0) / 2.0 * 65535.0;
        worst = worst.max((h[0] as f64 - want).abs());
    }
    eprintln!("terrain heightmap: worst {worst:.2} levels of 65535 from the CPU sampler");
    assert!(worst <= 1.0, "{worst}");

    v.picture = Picture::Iso;
    let command = v.bake_command(
        64,
        32,
        Some(std::path::Path::new("g.json")),
        "n.png".as_ref(),
    );
    eprintln!("iso: {command}");
    assert!(
        command.contains("--dims 3 --seed 0 --size 64x64x64"),
        "{command}"
    );
    assert!(command.ends_with("-o volume.npy"), "{command}");
    run(&command);
    let npy = std::fs::read(dir.path().join("volume.npy")).unwrap();
    let header_len = u16::from_le_bytes([npy[8], npy[9]]) as usize;
    let values: Vec<f32> = npy[10 + header_len..]
        .chunks_exact(4)
        .map(|b| f32::from_le_bytes(b.try_into().unwrap()))
        .collect();
    assert_eq!(values.len(), 64 * 64 * 64);
    // The cube the iso view fills: 64 samples across the frame's longer side (64 px), at
    // the frequency the command names (the frame's f32 step times 64).
    let frequency: f64 = command
        .split("--frequency ")
        .nth(1)
        .unwrap()
        .split(',')
        .next()
        .unwrap()
        .parse()
        .unwrap();
    assert!((frequency - v.step * 64.0).abs() < 1e-6, "{frequency}");
    let mut worst = 0.0f32;
    for (i, &got) in values.iter().enumerate().step_by(97) {
        let g = [i % 64, i / 64 % 64, i / 4096].map(|c| (frequency * c as f64 / 64.0) as f32);
        worst = worst.max((got - sampler.value(&[g[0], g[1], g[2], 0.0])).abs());
    }
    eprintln!("iso volume: worst {worst:e} from the CPU sampler");
    assert!(worst < 1e-5, "{worst}");
}
