//! `wgpu-noise preview`: the window draws the noise the CPU reference computes, it
//! animates, options change the picture, and without a display it says to use `bake`.
//!
//! The window tests run the real binary unattended (`--frames N --screenshot FILE`) on the
//! display in `DISPLAY`, or on an Xvfb server they start themselves when `DISPLAY` is
//! unset. With neither they are skipped with a note — unless `WGPU_NOISE_REQUIRE_GPU` is
//! set (CI), where a missing Xvfb is a failure.
#![cfg(feature = "preview")]

use crate::common;
pub(crate) use crate::common::levels::assert_levels_match;
use crate::common::levels::differences;

use std::path::{Path, PathBuf};
use std::process::{Child, Command, Output, Stdio};
use std::sync::Mutex;
use std::time::{Duration, Instant};

use wgpu_noise::cpu::curl::{curl2, curl3};
use wgpu_noise::cpu::fractal::fractal;
use wgpu_noise::params::NoiseSettings;
use wgpu_noise::ramp::ColourRamp;
use wgpu_noise::tables::PermutationTables;
use wgpu_noise::NoiseKind;

// ---------------------------------------------------------------------------------------
// A display for the window: the caller's, or an Xvfb server of our own.

/// Serialises the start of Xvfb servers by tests of this binary (they pick free display
/// numbers; two starting at once could pick the same one).
static XVFB_START: Mutex<()> = Mutex::new(());

/// An X display for the preview's window; stops the Xvfb server it started when dropped.
pub(crate) struct Display {
    pub(crate) name: String,
    server: Option<Child>,
}

impl Drop for Display {
    fn drop(&mut self) {
        let Some(server) = &mut self.server else {
            return;
        };
        // SIGTERM lets Xvfb remove its lock file and socket (SIGKILL would leave them, and
        // the display number would look taken to later runs).
        let _ = Command::new("kill")
            .args(["-TERM", &server.id().to_string()])
            .status();
        let deadline = Instant::now() + Duration::from_secs(5);
        while server.try_wait().ok().flatten().is_none() {
            if Instant::now() > deadline {
                let _ = server.kill();
                let _ = server.wait();
                break;
            }
            std::thread::sleep(Duration::from_millis(20));
        }
    }
}

/// Whether display `:number` belongs to a running X server (a lock file whose process
/// exists; a stale lock is replaced by Xvfb itself).
fn display_taken(number: u32) -> bool {
    match std::fs::read_to_string(format!("/tmp/.X{number}-lock")) {
        Ok(pid) => {
            Path::new(&format!("/proc/{}", pid.trim())).exists()
                || !Path::new("/proc/self").exists()
        }
        Err(_) => false,
    }
}

pub(crate) fn require_gpu() -> bool {
    std::env::var_os("WGPU_NOISE_REQUIRE_GPU").is_some()
}

/// The display to use, or `None` (test skipped) when there is neither one nor Xvfb.
fn display() -> Option<Display> {
    if let Some(d) = std::env::var_os("DISPLAY").filter(|d| !d.is_empty()) {
        return Some(Display {
            name: d.to_string_lossy().into_owned(),
            server: None,
        });
    }
    xvfb(&[])
}

/// An Xvfb server of our own whose screen is also the file `folder/Xvfb_screen0` (XWD,
/// `-fbdir`), for pictures of windows as the display shows them ([`window_picture`]); `None`
/// (skipped) without Xvfb.
pub(crate) fn framebuffer_display(folder: &Path) -> Option<Display> {
    common::gpu()?;
    xvfb(&["-fbdir", folder.to_str().expect("a UTF-8 folder")])
}

/// The `width` × `height` RGB picture at `(x, y)` of the screen file of
/// [`framebuffer_display`] (XWD: a header of big-endian 32-bit fields, a colour map, then
/// 32-bit pixels in the header's byte order).
pub(crate) fn window_picture(
    screen: &Path,
    x: u32,
    y: u32,
    width: u32,
    height: u32,
) -> image::RgbImage {
    let bytes = std::fs::read(screen).expect("read the Xvfb screen file");
    let field = |i: usize| u32::from_be_bytes(bytes[4 * i..4 * i + 4].try_into().unwrap());
    let (header, byte_order, bits, line) = (field(0), field(7), field(11), field(12));
    let (red, green, blue, colours) = (field(14), field(15), field(16), field(19));
    assert_eq!(bits, 32, "a 24-bit Xvfb screen has 32-bit pixels");
    let start = header as usize + colours as usize * 12;
    let channel = |pixel: u32, mask: u32| ((pixel & mask) >> mask.trailing_zeros()) as u8;
    image::RgbImage::from_fn(width, height, |i, j| {
        let at = start + (y + j) as usize * line as usize + (x + i) as usize * 4;
        let raw: [u8; 4] = bytes[at..at + 4].try_into().unwrap();
        let pixel = if byte_order == 0 {
            u32::from_le_bytes(raw)
        } else {
            u32::from_be_bytes(raw)
        };
        image::Rgb([
            channel(pixel, red),
            channel(pixel, green),
            channel(pixel, blue),
        ])
    })
}

/// Starts an Xvfb server of our own with `extra` options; `None` (skipped) without Xvfb.
fn xvfb(extra: &[&str]) -> Option<Display> {
    let _guard = XVFB_START.lock().unwrap_or_else(|e| e.into_inner());
    for number in 90..140 {
        if display_taken(number) {
            continue;
        }
        let name = format!(":{number}");
        let spawned = Command::new("Xvfb")
            .args([
                name.as_str(),
                "-screen",
                "0",
                "1024x768x24",
                "-nolisten",
                "tcp",
            ])
            .args(extra)
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn();
        let mut server = match spawned {
            Ok(s) => s,
            Err(e) => {
                if require_gpu() {
                    panic!("WGPU_NOISE_REQUIRE_GPU is set but Xvfb cannot be started ({e}); install xvfb");
                }
                eprintln!("SKIPPED (no DISPLAY and no Xvfb: {e})");
                return None;
            }
        };
        let socket = PathBuf::from(format!("/tmp/.X11-unix/X{number}"));
        let deadline = Instant::now() + Duration::from_secs(10);
        loop {
            if server.try_wait().ok().flatten().is_some() {
                break; // exited: the number was taken after all; try the next
            }
            // Accepting connections (a stale socket left by a killed server refuses them).
            if std::os::unix::net::UnixStream::connect(&socket).is_ok() {
                return Some(Display {
                    name,
                    server: Some(server),
                });
            }
            if Instant::now() > deadline {
                let _ = server.kill();
                let _ = server.wait();
                panic!(
                    "Xvfb {name} did not listen on {} within 10 s",
                    socket.display()
                );
            }
            std::thread::sleep(Duration::from_millis(20));
        }
    }
    panic!("no free X display number in :90 to :139 for Xvfb");
}

// ---------------------------------------------------------------------------------------
// Running the preview.

pub(crate) fn preview(display: Option<&Display>, args: &[&str]) -> Output {
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_wgpu-noise"));
    cmd.arg("preview").args(args).env_remove("WAYLAND_DISPLAY");
    match display {
        Some(d) => cmd.env("DISPLAY", &d.name),
        None => cmd.env_remove("DISPLAY"),
    };
    cmd.output().expect("run wgpu-noise")
}

/// The parameters of one unattended frame.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Frame {
    pub(crate) kind: NoiseKind,
    pub(crate) dims: usize,
    pub(crate) seed: u64,
    pub(crate) octaves: u32,
    /// Cells across the width.
    pub(crate) frequency: f64,
    pub(crate) time: f64,
    pub(crate) speed: f64,
    pub(crate) width: u32,
    pub(crate) height: u32,
}

pub(crate) const FRAME: Frame = Frame {
    kind: NoiseKind::Simplex,
    dims: 3,
    seed: 0,
    octaves: 1,
    frequency: 6.0,
    time: 1.25,
    speed: 0.5,
    width: 160,
    height: 120,
};

/// A grayscale screenshot: `width` × `height` bytes, rows top to bottom.
struct Gray {
    width: u32,
    height: u32,
    pixels: Vec<u8>,
}

/// Runs the preview for 3 frames and returns the last one, saved with `--screenshot`.
fn screenshot(display: &Display, frame: &Frame) -> Gray {
    let image = shoot(display, frame, &[]).into_luma8();
    Gray {
        width: image.width(),
        height: image.height(),
        pixels: image.into_raw(),
    }
}

/// [`screenshot`] with `extra` options, as the PNG decoded.
fn shoot(display: &Display, frame: &Frame, extra: &[&str]) -> image::DynamicImage {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("frame.png");
    let args: Vec<String> = vec![
        "--noise".into(),
        frame.kind.name().into(),
        "--dims".into(),
        frame.dims.to_string(),
        "--seed".into(),
        frame.seed.to_string(),
        "--octaves".into(),
        frame.octaves.to_string(),
        "--frequency".into(),
        frame.frequency.to_string(),
        "--time".into(),
        frame.time.to_string(),
        "--speed".into(),
        frame.speed.to_string(),
        "--size".into(),
        format!("{}x{}", frame.width, frame.height),
        "--frames".into(),
        "3".into(),
        "--screenshot".into(),
        path.to_string_lossy().into_owned(),
    ];
    let mut args: Vec<&str> = args.iter().map(String::as_str).collect();
    args.extend_from_slice(extra);
    let out = preview(Some(display), &args);
    assert!(
        out.status.success(),
        "preview {args:?} failed: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    image::open(&path).expect("the screenshot is a PNG")
}

/// The CPU reference of a frame, by the documented convention: pixel (i, j) of a W × H
/// window samples x = F·i/W, y = F·j/W (square pixels; row 0 at the top), plus
/// speed · time on the animated axis (x in 2D, z in 3D, w in 4D; z = 0 in 4D), and gray =
/// round(255 · clamp((v + 1) / 2, 0, 1)).
pub(crate) fn reference(frame: &Frame) -> Vec<u8> {
    let step = frame.frequency / frame.width as f64;
    reference_with(frame, [step, step], [0.0; 4])
}

/// [`reference`] drawn with a colour ramp: RGBA, the ramp's colour of each pixel's
/// `t = (v + 1) / 2` clamped (`ColourRamp::rgb8`, the CPU mirror of `shaders/ramp.wgsl`).
pub(crate) fn ramp_reference(frame: &Frame, ramp: ColourRamp) -> Vec<u8> {
    let step = frame.frequency / frame.width as f64;
    unit_values(frame, [step, step], [0.0; 4])
        .into_iter()
        .flat_map(|t| {
            let [r, g, b] = ramp.rgb8(t);
            [r, g, b, 255]
        })
        .collect()
}

/// [`reference`] with a step per axis and the tile `period` (0: not tiled).
fn reference_with(frame: &Frame, step: [f64; 2], period: [f32; 4]) -> Vec<u8> {
    unit_values(frame, step, period)
        .into_iter()
        .map(|t| (t * 255.0).round() as u8)
        .collect()
}

/// Where each pixel's value lies between the values drawn black and white (-1 and 1),
/// clamped: `t = (v + 1) / 2`.
fn unit_values(frame: &Frame, step: [f64; 2], period: [f32; 4]) -> Vec<f32> {
    let lut = PermutationTables::new(frame.seed);
    let settings = NoiseSettings {
        octaves: frame.octaves,
        period,
        ..NoiseSettings::default()
    };
    let shift = frame.speed * frame.time;
    let axis = if frame.dims == 2 { 0 } else { frame.dims - 1 };
    let mut out = Vec::with_capacity((frame.width * frame.height) as usize);
    for j in 0..frame.height {
        for i in 0..frame.width {
            let mut p = [step[0] * i as f64, step[1] * j as f64, 0.0, 0.0];
            p[axis] += shift;
            let p = p.map(|c| c as f32);
            let v = fractal::<f32>(&lut, frame.kind, &p[..frame.dims], &settings);
            out.push(((v + 1.0) / 2.0).clamp(0.0, 1.0));
        }
    }
    out
}

/// The CPU reference of a `--curl` frame: the points of [`reference`], curl noise there
/// (`cpu::curl`, f32), each component mapped as `bake --curl`'s flow map does, from
/// -8..8 to levels 0..255 (B = 0 in 2D), alpha 255.
fn curl_reference(frame: &Frame) -> Vec<u8> {
    let lut = PermutationTables::new(frame.seed);
    let step = frame.frequency / frame.width as f64;
    let shift = frame.speed * frame.time;
    let axis = if frame.dims == 2 { 0 } else { frame.dims - 1 };
    let level = |c: f32| ((((c + 8.0) / 16.0).clamp(0.0, 1.0)) * 255.0).round() as u8;
    let mut out = Vec::with_capacity((frame.width * frame.height * 4) as usize);
    for j in 0..frame.height {
        for i in 0..frame.width {
            let mut p = [step * i as f64, step * j as f64, 0.0];
            p[axis] += shift;
            let p = p.map(|c| c as f32);
            let rgb = if frame.dims == 2 {
                let c = curl2::<f32>(&lut, p[0], p[1]);
                [level(c[0]), level(c[1]), 0]
            } else {
                curl3::<f32>(&lut, p).map(level)
            };
            out.extend_from_slice(&rgb);
            out.push(255);
        }
    }
    out
}

fn mean(d: &[u8]) -> f64 {
    d.iter().map(|&v| v as f64).sum::<f64>() / d.len() as f64
}

/// Both a display and an adapter, or `None` (skipped, with the reason on stderr).
pub(crate) fn window_setup() -> Option<Display> {
    common::gpu()?;
    display()
}

/// Whether no `DISPLAY` is given, so that the tests start an Xvfb server of their own (whose
/// screen they can also read from its framebuffer file).
pub(crate) fn own_display() -> bool {
    std::env::var_os("DISPLAY").is_none_or(|d| d.is_empty())
}

/// As [`window_setup`], but on a server of our own that writes its screen to
/// `screen/Xvfb_screen0` when no `DISPLAY` is given.
pub(crate) fn screen_setup(screen: &Path) -> Option<Display> {
    if own_display() {
        framebuffer_display(screen)
    } else {
        window_setup()
    }
}

// ---------------------------------------------------------------------------------------

#[test]
fn screenshots_match_the_cpu_reference_for_the_same_parameters_and_time() {
    let Some(display) = window_setup() else {
        return;
    };
    let cases = [
        Frame {
            kind: NoiseKind::Simplex,
            dims: 2,
            ..FRAME
        },
        Frame {
            kind: NoiseKind::Classic,
            dims: 2,
            seed: 7,
            octaves: 4,
            ..FRAME
        },
        Frame {
            kind: NoiseKind::Simplex,
            dims: 3,
            ..FRAME
        },
        Frame {
            kind: NoiseKind::Classic,
            dims: 3,
            octaves: 3,
            time: 7.5,
            ..FRAME
        },
        Frame {
            kind: NoiseKind::Simplex,
            dims: 4,
            seed: 3,
            octaves: 2,
            ..FRAME
        },
        Frame {
            kind: NoiseKind::Classic,
            dims: 4,
            frequency: 11.0,
            ..FRAME
        },
    ];
    for frame in &cases {
        let shot = screenshot(&display, frame);
        assert_eq!(
            (shot.width, shot.height),
            (frame.width, frame.height),
            "the screenshot has the window's size"
        );
        let expected = reference(frame);
        let what = format!(
            "{} {}D seed {} ×{} oct, t={}",
            frame.kind.name(),
            frame.dims,
            frame.seed,
            frame.octaves,
            frame.time
        );
        assert_levels_match(&shot.pixels, &expected, &what);
        // Not blank: the reference itself spans most of the gray range.
        let (lo, hi) = (
            expected.iter().min().unwrap(),
            expected.iter().max().unwrap(),
        );
        assert!(hi - lo > 100, "reference spans only {lo}..{hi}: {frame:?}");
    }
}

#[test]
fn tileable_frames_are_one_tile_of_the_cpu_reference() {
    let Some(display) = window_setup() else {
        return;
    };
    // 6.3 cells across 160 pixels: the tile is 6 × 5 cells (4.725 rounded), 4 cells deep.
    for (kind, dims) in [(NoiseKind::Simplex, 3), (NoiseKind::Classic, 2)] {
        let frame = Frame {
            kind,
            dims,
            frequency: 6.3,
            ..FRAME
        };
        let shot = shoot(&display, &frame, &["--tileable"]).into_luma8();
        let period = [6.0f32, 5.0, 4.0, 4.0];
        let step = [6.0 / frame.width as f64, 5.0 / frame.height as f64];
        let expected = reference_with(&frame, step, period);
        assert_levels_match(shot.as_raw(), &expected, &format!("tiled {kind} {dims}D"));
        // The tile's left and right edges meet: its last column steps to the first as a
        // column steps to the next (within a few levels), not across a seam.
        let w = frame.width as usize;
        let column_step = |a: usize, b: usize| {
            (0..frame.height as usize)
                .map(|y| expected[y * w + a].abs_diff(expected[y * w + b]) as u32)
                .max()
                .unwrap()
        };
        let seam = column_step(w - 1, 0);
        let inner = (0..w - 1).map(|x| column_step(x, x + 1)).max().unwrap();
        eprintln!("tiled {kind} {dims}D: seam step {seam}, largest inner step {inner} levels");
        assert!(seam <= inner + 2, "seam {seam} > inner {inner}");
    }
}

#[test]
fn the_curl_view_is_the_flow_map_of_the_cpu_curl_noise() {
    let Some(display) = window_setup() else {
        return;
    };
    for dims in [2, 3] {
        let frame = Frame { dims, ..FRAME };
        let shot = shoot(&display, &frame, &["--curl"]).into_rgba8();
        assert_eq!((shot.width(), shot.height()), (frame.width, frame.height));
        let expected = curl_reference(&frame);
        // One level is 16/255 ≈ 0.063 of a curl component.
        assert_levels_match(shot.as_raw(), &expected, &format!("curl {dims}D"));
        // A flow map, not a gray picture: the channels differ, and each spans its range.
        for c in 0..dims {
            let channel: Vec<u8> = expected.iter().skip(c).step_by(4).copied().collect();
            let (lo, hi) = (channel.iter().min().unwrap(), channel.iter().max().unwrap());
            assert!(hi - lo > 60, "{dims}D channel {c} spans only {lo}..{hi}");
        }
        let pixels: Vec<&[u8]> = shot.as_raw().chunks_exact(4).collect();
        assert!(pixels.iter().any(|p| p[0] != p[1]), "R and G are the same");
    }
}

#[test]
fn a_colour_ramp_draws_the_reference_values_in_its_colours() {
    let Some(display) = window_setup() else {
        return;
    };
    for ramp in [ColourRamp::Viridis, ColourRamp::Terrain] {
        let shot = shoot(&display, &FRAME, &["--ramp", ramp.name()]).into_rgba8();
        let expected = ramp_reference(&FRAME, ramp);
        assert_levels_match(shot.as_raw(), &expected, ramp.name());
        let coloured = expected.chunks_exact(4).filter(|p| p[0] != p[2]).count();
        assert!(
            coloured > expected.len() / 8,
            "{}: a colour picture",
            ramp.name()
        );
    }
}

#[test]
fn the_picture_moves_with_time() {
    let Some(display) = window_setup() else {
        return;
    };
    for dims in 2..=4 {
        let a = screenshot(
            &display,
            &Frame {
                dims,
                time: 0.0,
                ..FRAME
            },
        );
        let b = screenshot(
            &display,
            &Frame {
                dims,
                time: 1.0,
                ..FRAME
            },
        );
        let diff = differences(&a.pixels, &b.pixels);
        let changed = diff.iter().filter(|&&d| d > 2).count();
        eprintln!(
            "{dims}D, t = 0 vs 1: mean |Δgray| = {:.1}, {changed} of {} pixels changed",
            mean(&diff),
            diff.len()
        );
        assert!(
            changed > diff.len() / 2,
            "{dims}D: only {changed} pixels changed between t = 0 and t = 1"
        );
    }
}

#[test]
fn in_2d_the_picture_scrolls_along_x() {
    let Some(display) = window_setup() else {
        return;
    };
    // One pixel is F/W = 6/160 cells; at 0.5 cells/s, 0.3 s moves 4 pixels.
    let shift = 4usize;
    let dt = shift as f64 * FRAME.frequency / FRAME.width as f64 / FRAME.speed;
    let a = screenshot(
        &display,
        &Frame {
            dims: 2,
            time: 1.0,
            ..FRAME
        },
    );
    let b = screenshot(
        &display,
        &Frame {
            dims: 2,
            time: 1.0 + dt,
            ..FRAME
        },
    );
    let w = FRAME.width as usize;
    let (mut max, mut unmoved_max) = (0u8, 0u8);
    for row in 0..FRAME.height as usize {
        for x in 0..w - shift {
            // Pixel x at the later time shows what pixel x + shift showed before.
            max = max.max(b.pixels[row * w + x].abs_diff(a.pixels[row * w + x + shift]));
            unmoved_max = unmoved_max.max(b.pixels[row * w + x].abs_diff(a.pixels[row * w + x]));
        }
    }
    eprintln!("2D scroll by {shift} px: max |Δgray| = {max} (against the unshifted picture: {unmoved_max})");
    assert!(
        max <= 1,
        "the later frame is not the earlier one moved {shift} pixels left (max diff {max})"
    );
    assert!(unmoved_max > 10, "the picture did not move");
}

#[test]
fn switching_the_noise_kind_on_the_command_line_changes_the_picture() {
    let Some(display) = window_setup() else {
        return;
    };
    let simplex = screenshot(
        &display,
        &Frame {
            kind: NoiseKind::Simplex,
            ..FRAME
        },
    );
    let classic = screenshot(
        &display,
        &Frame {
            kind: NoiseKind::Classic,
            ..FRAME
        },
    );
    let diff = differences(&simplex.pixels, &classic.pixels);
    let changed = diff.iter().filter(|&&d| d > 2).count();
    eprintln!(
        "simplex vs classic: mean |Δgray| = {:.1}, {changed} of {} pixels changed",
        mean(&diff),
        diff.len()
    );
    assert!(changed > diff.len() / 2, "only {changed} pixels changed");
}

#[test]
fn without_a_display_it_fails_with_one_line_pointing_to_bake() {
    let out = preview(None, &["--frames", "1"]);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(!out.status.success(), "succeeded without a display");
    assert!(stderr.contains("bake"), "no hint at `bake`: {stderr}");
    assert!(
        stderr.contains("DISPLAY"),
        "does not say what is missing: {stderr}"
    );
    assert_eq!(stderr.trim().lines().count(), 1, "not one line: {stderr}");
}

#[test]
fn bad_options_are_rejected_before_a_window_opens() {
    for args in [
        &["--frequency", "0"][..],
        &["--frequency", "nan"],
        &["--size", "0x100"],
        &["--size", "big"],
        &["--octaves", "0"],
        &["--frames", "0"],
        &["--dims", "5"],
    ] {
        // No display at all: these must fail on the options, not on the missing display.
        let out = preview(None, args);
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert!(!out.status.success(), "{args:?} accepted");
        assert!(
            !stderr.contains("DISPLAY"),
            "{args:?}: failed on the display, not the option: {stderr}"
        );
    }
}
