//! A property test of the command line's argument space: random combinations of `bake`
//! and `sample` options, sizes and values, the extremes included (0, subnormals, 1e308,
//! NaN, sizes whose count overflows, negative counts, conflicting formats). Every run
//! either succeeds with a file that reads back whole with no NaN in it, or exits 1 with one
//! `error:` line that names a parameter and leaves nothing behind; never a panic (101),
//! never another status, never a NaN printed. The generator is a fixed-seed SplitMix64,
//! so a failure names its case and reproduces.

use std::path::Path;
use std::process::{Command, Output, Stdio};

use std::io::Write;

/// SplitMix64 (Steele, Lea and Flood 2014): small, and the same sequence everywhere.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }

    fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }

    fn pick<'a>(&mut self, from: &[&'a str]) -> &'a str {
        from[self.below(from.len())]
    }

    fn chance(&mut self, percent: u64) -> bool {
        self.next() % 100 < percent
    }
}

/// Numbers at and beyond every edge, and some that are not numbers.
const EXTREMES: [&str; 22] = [
    "0",
    "-0",
    "-1",
    "0.5",
    "2.5",
    "1e-45",
    "5e-324",
    "1e-300",
    "16777216",
    "16777217",
    "1e15",
    "1e38",
    "3.5e38",
    "1e308",
    "-1e308",
    "1.7976931348623157e308",
    "nan",
    "inf",
    "-inf",
    "x",
    "",
    "1,2,3,4,5",
];

/// A number: usually an ordinary one from `ordinary`, one time in seven an extreme.
fn number(rng: &mut Rng, ordinary: &[&str]) -> String {
    if rng.chance(85) {
        rng.pick(ordinary).to_string()
    } else {
        rng.pick(&EXTREMES).to_string()
    }
}

/// One to four comma-separated numbers.
fn numbers(rng: &mut Rng, ordinary: &[&str], dims: usize) -> String {
    let n = if rng.chance(60) {
        1
    } else {
        dims.max(1) + rng.below(2) - rng.below(2)
    };
    (0..n.max(1))
        .map(|_| number(rng, ordinary))
        .collect::<Vec<_>>()
        .join(",")
}

/// The options of one random bake: (arguments, output file name).
fn bake_case(rng: &mut Rng) -> (Vec<String>, String) {
    let mut a: Vec<String> = Vec::new();
    let opt = |a: &mut Vec<String>, name: &str, value: String| {
        a.push(format!("{name}={value}"));
    };
    let dims = if rng.chance(95) {
        2 + rng.below(3)
    } else {
        [1, 5][rng.below(2)]
    };
    opt(&mut a, "--dims", dims.to_string());
    let kind = rng.pick(&["classic", "simplex", "cellular"]);
    opt(&mut a, "--noise", kind.into());
    let size = if rng.chance(92) {
        let axis = ["1", "2", "3", "5", "8", "13"];
        let count = if rng.chance(90) { dims } else { dims + 1 };
        (0..count)
            .map(|_| rng.pick(&axis))
            .collect::<Vec<_>>()
            .join("x")
    } else {
        rng.pick(&[
            "0",
            "-1",
            "x",
            "8x",
            "16777217",
            "16777216",
            "65536x65536",
            "4194304x4194304x1048576",
            "16777216x16777216x256x257",
            "1e3",
            "8x8x8x8x8",
        ])
        .to_string()
    };
    opt(&mut a, "--size", size);
    if rng.chance(80) {
        opt(
            &mut a,
            "--frequency",
            numbers(rng, &["1", "2", "3", "4", "2.5", "8"], dims),
        );
    }
    if rng.chance(30) {
        opt(
            &mut a,
            "--offset",
            numbers(rng, &["0", "-3.25", "100.5", "1e6"], dims),
        );
    }
    if rng.chance(30) {
        opt(
            &mut a,
            "--octaves",
            rng.pick(&["1", "2", "4", "16", "17", "0", "-1", "x"])
                .into(),
        );
    }
    if rng.chance(20) {
        opt(&mut a, "--lacunarity", number(rng, &["2", "1.5", "3"]));
    }
    if rng.chance(20) {
        opt(&mut a, "--gain", number(rng, &["0.5", "0.25", "1"]));
    }
    if rng.chance(20) {
        opt(
            &mut a,
            "--fractal",
            rng.pick(&["fbm", "turbulence", "ridged"]).into(),
        );
    }
    if rng.chance(12) {
        a.push("--tileable".into());
    }
    if rng.chance(5) {
        opt(&mut a, "--kernel", "continuous".into());
    }
    if rng.chance(10) {
        opt(&mut a, "--lookup", "hash".into());
    }
    if rng.chance(10) {
        opt(
            &mut a,
            "--seed",
            rng.pick(&[
                "1",
                "18446744073709551615",
                "18446744073709551616",
                "-1",
                "x",
            ])
            .into(),
        );
    }
    if kind == "cellular" && rng.chance(40) {
        opt(
            &mut a,
            "--cellular",
            rng.pick(&["f1", "f2", "f2-f1", "cell"]).into(),
        );
        if rng.chance(50) {
            opt(
                &mut a,
                "--distance",
                rng.pick(&["euclidean", "manhattan", "chebyshev"]).into(),
            );
        }
        if rng.chance(50) {
            opt(&mut a, "--jitter", number(rng, &["0", "0.5", "1"]));
        }
    }
    if rng.chance(10) {
        opt(&mut a, "--warp", number(rng, &["0.5", "1", "2"]));
        if rng.chance(50) {
            opt(
                &mut a,
                "--warp-octaves",
                rng.pick(&["1", "2", "0", "-1", "17"]).into(),
            );
        }
        if rng.chance(50) {
            opt(&mut a, "--warp-frequency", number(rng, &["0.5", "1", "2"]));
        }
        if rng.chance(50) {
            opt(
                &mut a,
                "--warp-iterations",
                rng.pick(&["1", "2", "4", "5", "0"]).into(),
            );
        }
    }
    if rng.chance(6) {
        opt(&mut a, "--flow-angle", number(rng, &["0.8", "1.6", "-3"]));
    }
    let ext = rng.pick(&["png", "exr", "npy", "ktx2", "r16"]);
    if rng.chance(8) {
        opt(&mut a, "--bits", rng.pick(&["8", "16"]).into());
    }
    if rng.chance(8) {
        let pair = format!(
            "{},{}",
            number(rng, &["-1", "0", "-2"]),
            number(rng, &["1", "2", "0.5"])
        );
        opt(&mut a, "--range", pair);
    }
    if rng.chance(5) {
        a.push("--half".into());
    }
    if rng.chance(5) {
        opt(
            &mut a,
            "--compression",
            rng.pick(&["none", "zip", "piz"]).into(),
        );
    }
    match rng.below(20) {
        0 => a.push("--gradient".into()),
        1 => a.push("--curl".into()),
        2 => {
            a.push("--normal-map".into());
            if rng.chance(50) {
                opt(&mut a, "--normal-strength", number(rng, &["1", "4", "0"]));
            }
        }
        _ => {}
    }
    if rng.chance(5) {
        opt(
            &mut a,
            "--columns",
            rng.pick(&["1", "2", "3", "0", "-1"]).into(),
        );
    }
    if rng.chance(6) {
        opt(
            &mut a,
            "--tiles",
            rng.pick(&["2,2", "3,1", "2,2,2", "0,1"]).into(),
        );
        opt(
            &mut a,
            "--tile",
            rng.pick(&["0,0", "1,1", "2,0", "-1,0", "0,0,1"]).into(),
        );
        if rng.chance(50) {
            opt(
                &mut a,
                "--overlap",
                rng.pick(&["1", "0", "-1", "100"]).into(),
            );
        }
    }
    if rng.chance(15) {
        a.push("--verify".into());
        if rng.chance(50) {
            opt(&mut a, "--tolerance", number(rng, &["1e-5", "0.1"]));
        }
    }
    let backend = if rng.chance(90) { "cpu" } else { "auto" };
    opt(&mut a, "--backend", backend.into());
    let output = format!("out.{ext}");
    a.push("-o".into());
    a.push(output.clone());
    (a, output)
}

/// Whether `message` names one of the parameters in `args` (the option's name, with its
/// hyphens as spaces too, or the output file).
fn names_a_parameter(message: &str, args: &[String], output: &str) -> bool {
    let m = message.to_lowercase();
    let synonyms = |name: &str| -> Vec<String> {
        let mut words = vec![name.to_string(), name.replace('-', " ")];
        words.extend(
            match name {
                "dims" => &["dimension", "2d", "3d", "4d"][..],
                "size" => &["samples", "texels"],
                "fractal" => &["fbm", "turbulence", "ridged"],
                "cellular" | "distance" | "jitter" => &["cellular"],
                "tiles" | "tile" => &["tile"],
                "warp-octaves" | "warp-iterations" | "warp-frequency" => &["warp"],
                "lookup" => &["hash"],
                _ => &[],
            }
            .iter()
            .map(|s| s.to_string()),
        );
        words
    };
    args.iter()
        .filter_map(|a| a.strip_prefix("--"))
        .map(|a| a.split('=').next().unwrap_or(a))
        .flat_map(synonyms)
        .any(|w| m.contains(&w))
        || m.contains(output)
        || m.contains(output.rsplit('.').next().unwrap_or(output))
}

/// Every `f32` of an `.npy` file's data is finite (the header is NumPy's 1.0 layout).
fn npy_is_finite(bytes: &[u8]) -> bool {
    let header = u16::from_le_bytes([bytes[8], bytes[9]]) as usize;
    let data = &bytes[10 + header..];
    data.len().is_multiple_of(4)
        && data
            .chunks_exact(4)
            .all(|b| f32::from_le_bytes([b[0], b[1], b[2], b[3]]).is_finite())
}

/// Reads `path` back by its format; an error names what is wrong.
fn reads_back(path: &Path) -> Result<(), String> {
    let bytes = std::fs::read(path).map_err(|e| e.to_string())?;
    match path
        .extension()
        .and_then(|e| e.to_str())
        .unwrap_or_default()
    {
        "npy" => (bytes.starts_with(b"\x93NUMPY") && npy_is_finite(&bytes))
            .then_some(())
            .ok_or_else(|| "not a finite .npy".to_string()),
        "png" => image::load_from_memory(&bytes)
            .map(drop)
            .map_err(|e| e.to_string()),
        "exr" => {
            let image =
                exr::prelude::read_all_flat_layers_from_file(path).map_err(|e| e.to_string())?;
            for layer in &image.layer_data {
                for channel in &layer.channel_data.list {
                    let finite = match &channel.sample_data {
                        exr::prelude::FlatSamples::F32(v) => v.iter().all(|x| x.is_finite()),
                        exr::prelude::FlatSamples::F16(v) => {
                            v.iter().all(|x| x.to_f32().is_finite())
                        }
                        exr::prelude::FlatSamples::U32(_) => true,
                    };
                    if !finite {
                        return Err("a non-finite EXR sample".into());
                    }
                }
            }
            Ok(())
        }
        "ktx2" => ktx2::Reader::new(&bytes[..])
            .map(drop)
            .map_err(|e| format!("{e:?}")),
        _ => (!bytes.is_empty() && bytes.len() % 2 == 0)
            .then_some(())
            .ok_or_else(|| format!("a RAW file of {} bytes", bytes.len())),
    }
}

fn listing(dir: &Path) -> Vec<String> {
    let mut names: Vec<String> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    names.sort();
    names
}

/// Checks the rule every run keeps: status 0, or 1 with one `error:` line naming a
/// parameter; never "panicked", never NaN on stdout. Returns whether it succeeded.
fn check_status(case: &str, out: &Output, args: &[String], output: &str) -> bool {
    let stderr = String::from_utf8_lossy(&out.stderr);
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(!stderr.contains("panicked"), "{case}: {stderr}");
    assert!(
        !stdout.to_lowercase().contains("nan"),
        "{case}: NaN on stdout: {stdout}"
    );
    match out.status.code() {
        Some(0) => true,
        Some(1) => {
            assert_eq!(
                stderr.lines().count(),
                1,
                "{case}: one line expected: {stderr}"
            );
            assert!(stderr.starts_with("error: "), "{case}: {stderr}");
            assert!(
                names_a_parameter(&stderr, args, output),
                "{case}: the error names no parameter: {stderr}"
            );
            false
        }
        other => panic!("{case}: status {other:?}: {stderr}"),
    }
}

#[test]
fn random_bakes_succeed_with_a_readable_file_or_fail_with_one_line_and_no_file() {
    let dir = tempfile::tempdir().unwrap();
    let mut rng = Rng(0x5eed_0023);
    let (mut succeeded, mut failed) = (0, 0);
    for case in 0..800 {
        let (args, output) = bake_case(&mut rng);
        let out = Command::new(env!("CARGO_BIN_EXE_wgpu-noise"))
            .arg("bake")
            .args(&args)
            .current_dir(dir.path())
            .stdin(Stdio::null())
            .output()
            .expect("run wgpu-noise");
        let case = format!("case {case}: bake {}", args.join(" "));
        let names = listing(dir.path());
        if check_status(&case, &out, &args, &output) {
            succeeded += 1;
            assert_eq!(names, vec![output.clone()], "{case}: the output alone");
            let stderr = String::from_utf8_lossy(&out.stderr);
            assert!(!stderr.to_lowercase().contains("nan"), "{case}: {stderr}");
            if let Err(e) = reads_back(&dir.path().join(&output)) {
                panic!("{case}: {output} does not read back: {e}");
            }
            std::fs::remove_file(dir.path().join(&output)).unwrap();
        } else {
            failed += 1;
            assert!(names.is_empty(), "{case}: left {names:?}");
        }
    }
    eprintln!("ARGUMENT SPACE bake: {succeeded} succeeded, {failed} refused");
    assert!(
        succeeded >= 100 && failed >= 100,
        "{succeeded} / {failed}: both sides exercised"
    );
}

#[test]
fn random_samples_print_finite_values_or_fail_with_one_line() {
    let mut rng = Rng(0x5eed_5a3e);
    let coordinates = [
        "0.5",
        "-3.25",
        "100.5",
        "1e6",
        "1e-300",
        "5e-324",
        "3.4028235e38",
        "3.5e38",
        "1e39",
        "1e308",
        "-1e308",
        "nan",
        "inf",
        "x",
    ];
    let (mut succeeded, mut failed) = (0, 0);
    for case in 0..400 {
        let dims = 2 + rng.below(3);
        let mut args: Vec<String> = vec![
            format!("--dims={dims}"),
            format!("--noise={}", rng.pick(&["classic", "simplex", "cellular"])),
        ];
        if rng.chance(50) {
            args.push("--precision=f32".into());
        }
        if rng.chance(15) {
            args.push(format!("--seed={}", rng.pick(&["7", "-1", "x"])));
        }
        if rng.chance(15) {
            args.push(format!("--warp={}", number(&mut rng, &["0.5", "2"])));
            if rng.chance(50) {
                args.push(format!(
                    "--warp-frequency={}",
                    number(&mut rng, &["0.5", "2"])
                ));
            }
        }
        if rng.chance(10) {
            args.push(format!("--flow-angle={}", number(&mut rng, &["0.8", "-2"])));
        }
        if rng.chance(10) {
            args.push(format!("--jitter={}", number(&mut rng, &["0.5", "1"])));
        }
        let lines = 1 + rng.below(4);
        let input: String = (0..lines)
            .map(|_| {
                let n = if rng.chance(95) { dims } else { dims + 1 };
                let p: Vec<&str> = (0..n)
                    .map(|_| {
                        if rng.chance(85) {
                            rng.pick(&coordinates[..4])
                        } else {
                            rng.pick(&coordinates)
                        }
                    })
                    .collect();
                p.join(" ") + "\n"
            })
            .collect();
        let mut child = Command::new(env!("CARGO_BIN_EXE_wgpu-noise"))
            .arg("sample")
            .args(&args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .expect("run wgpu-noise");
        let _ = child.stdin.take().unwrap().write_all(input.as_bytes());
        let out = child.wait_with_output().unwrap();
        let case = format!("case {case}: sample {} <<< {input:?}", args.join(" "));
        // A bad line is named by its number.
        let mut named = args.clone();
        named.push("--line".into());
        if check_status(&case, &out, &named, "input") {
            succeeded += 1;
            let values: Vec<f64> = String::from_utf8_lossy(&out.stdout)
                .lines()
                .map(|l| l.parse().unwrap_or(f64::NAN))
                .collect();
            assert_eq!(values.len(), lines, "{case}");
            assert!(values.iter().all(|v| v.is_finite()), "{case}: {values:?}");
        } else {
            failed += 1;
        }
    }
    eprintln!("ARGUMENT SPACE sample: {succeeded} succeeded, {failed} refused");
    assert!(
        succeeded >= 100 && failed >= 100,
        "{succeeded} / {failed}: both sides exercised"
    );
}
