//! Development only: the shader-variant sweep behind the fill kernel's configuration.
//! Copies of `shaders/fill.wgsl`'s 3D entry point with other workgroup shapes, samples per
//! invocation, lookup and output storage are checked against the CPU reference and timed
//! beside the product's own `fill_3d` (`sweep.rs`). Needs a GPU adapter.
//!
//! ```text
//! cargo run --release --example shader_experiments -- [--quick] [--repeats N] [--json]
//! ```
//!
//! `--quick` times 3D 128³ instead of 256³; `--repeats` sets the rounds per stage (default
//! 3); `--json` prints one object per line instead of the table.

// The timing harness of `wgpu-noise bench`, shared rather than copied; the sweep uses part
// of it.
#[allow(dead_code)]
#[path = "../../src/cli/bench/harness.rs"]
mod harness;
mod sweep;

use harness::{Clock, GpuBench, GpuTiming};
use sweep::{Experiments, Outcome, Variant, VariantResult};

/// The permutation every variant and the product's fill use (Perlin's).
const SEED: u64 = 0;

/// Command-line options.
struct Options {
    quick: bool,
    repeats: usize,
    json: bool,
}

const USAGE: &str = "usage: shader_experiments [--quick] [--repeats N (1 to 100)] [--json]";

/// The options, or `None` where the arguments do not fit [`USAGE`].
fn parse_options() -> Option<Options> {
    let mut options = Options {
        quick: false,
        repeats: 3,
        json: false,
    };
    let mut args = std::env::args().skip(1);
    while let Some(arg) = args.next() {
        match arg.as_str() {
            "--quick" => options.quick = true,
            "--json" => options.json = true,
            "--repeats" => {
                options.repeats = args
                    .next()
                    .and_then(|n| n.parse().ok())
                    .filter(|n| (1..=100).contains(n))?;
            }
            _ => return None,
        }
    }
    Some(options)
}

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let Some(options) = parse_options() else {
        eprintln!("{USAGE}");
        std::process::exit(2);
    };
    let ctx = harness::bench_context()?;
    let bench = GpuBench::new(&ctx.device, &ctx.queue, SEED)?;
    let side = if options.quick { 128 } else { 256 };
    let exp = Experiments::new(&bench, &ctx.device, &ctx.queue, SEED, side, options.repeats)?;
    if !options.json {
        println!(
            "shader experiments · {} · {} (load {}) · adapter: {} · GPU fill clock: {} · median of {} · {} texels per lattice cell",
            harness::today_utc(),
            harness::machine_description(),
            harness::load_average().map_or("?".to_string(), |l| format!("{l:.2}")),
            ctx.describe(),
            bench.clock().name(),
            exp.repeats(),
            harness::TEXELS_PER_CELL,
        );
        println!("3D {side}³, copies of fill_3d (shaders/fill.wgsl untouched), candidates of a stage timed in interleaved rounds; wall* = device timestamps implausible, wall time used\n");
        println!("| stage | variant | work | M samples/s median | best | best × baseline 8x8x1 | max abs diff vs CPU f32 | clock |");
        println!("|---|---|---|---:|---:|---:|---:|---|");
    }
    eprintln!("measuring {} rounds per stage", exp.repeats());
    let mut seen: Vec<VariantResult> = Vec::new();
    let (results, products) = sweep::sweep(&exp, |outcome| {
        report_outcome(&outcome, options.json, &mut seen)
    })?;
    for p in &products {
        let (time, clock) = p.timing.preferred();
        let msps = harness::msamples_per_s(p.samples, time);
        if options.json {
            let object = serde_json::json!({
                "path": "experiment-product",
                "stage": "shape",
                "variant": "shaders/fill.wgsl fill_3d",
                "noise": format!("{}3", p.kind),
                "dims": 3,
                "samples": p.samples,
                "msamples_per_s": round3(msps),
                "clock": clock.name(),
            });
            println!("{object}");
        } else {
            println!(
                "| shape (control) | shaders/fill.wgsl fill_3d | product_{}3 | {msps:.1} | — | — | — | {} |",
                p.kind,
                clock_label(&p.timing)
            );
        }
    }
    if !options.json {
        println!();
        print_summary(&results);
    }
    Ok(())
}

/// The fastest variant against the baseline copy, per work.
fn print_summary(results: &[VariantResult]) {
    let base = sweep::score(results, &Variant::BASELINE);
    let (Some(best), Some(base)) = (sweep::fastest(results), base) else {
        println!("no variant was measured with both noise functions");
        return;
    };
    let best_score = sweep::score(results, &best).unwrap_or(f64::NAN);
    println!(
        "fastest (total time of the noise works, values within 1e-5 of the CPU): {} — {:.2}× the baseline copy",
        best.name(),
        base / best_score
    );
    for work in sweep::WORKS {
        let get = |v: &Variant| results.iter().find(|r| r.variant == *v && r.work == work);
        if let (Some(b), Some(f)) = (get(&Variant::BASELINE), get(&best)) {
            println!(
                "  {}: {:.1} → {:.1} M samples/s, fastest repeats ({:.2}×)",
                work.function(),
                b.best_msamples_per_s(),
                f.best_msamples_per_s(),
                f.best_msamples_per_s() / b.best_msamples_per_s()
            );
        }
    }
}

/// One line of the sweep as it goes: a measured variant (a JSON object or a table row;
/// `seen` collects them for the baseline column) or a failed one (a warning).
fn report_outcome(outcome: &Outcome, json: bool, seen: &mut Vec<VariantResult>) {
    match outcome {
        Outcome::Measured(r) => {
            if json {
                let object = serde_json::json!({
                    "path": "experiment",
                    "stage": r.stage,
                    "variant": r.variant.name(),
                    "noise": r.work.function(),
                    "dims": 3,
                    "samples": r.samples,
                    "msamples_per_s": round3(r.msamples_per_s()),
                    "best_msamples_per_s": round3(r.best_msamples_per_s()),
                    "clock": r.timing.preferred().1.name(),
                    "max_abs_diff": r.max_abs_diff,
                });
                println!("{object}");
            } else {
                let baseline = seen
                    .iter()
                    .chain(std::iter::once(*r))
                    .find(|b| b.variant == Variant::BASELINE && b.work == r.work)
                    .map_or("—".to_string(), |b| {
                        format!("{:.2}", r.best_msamples_per_s() / b.best_msamples_per_s())
                    });
                let diff = r
                    .max_abs_diff
                    .map_or("—".to_string(), |d| format!("{d:.1e}"));
                println!(
                    "| {} | {} | {} | {:.1} | {:.1} | {baseline} | {diff} | {} |",
                    r.stage,
                    r.variant.name(),
                    r.work.function(),
                    r.msamples_per_s(),
                    r.best_msamples_per_s(),
                    clock_label(&r.timing)
                );
            }
            seen.push((*r).clone());
        }
        Outcome::Failed {
            variant,
            work,
            error,
        } => eprintln!(
            "warning: variant {} {} failed: {error}",
            variant.name(),
            work.function()
        ),
    }
}

/// `device-timestamps`, `wall`, or `wall*` where implausible timestamps were replaced.
fn clock_label(t: &GpuTiming) -> &'static str {
    match (t.preferred().1, t.rejected) {
        (Clock::DeviceTimestamps, _) => "device-timestamps",
        (Clock::Wall, true) => "wall*",
        (Clock::Wall, false) => "wall",
    }
}

/// `v` to three decimals, as `wgpu-noise bench --json` reports rates.
fn round3(v: f64) -> f64 {
    (v * 1000.0).round() / 1000.0
}
