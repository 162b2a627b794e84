//! `cargo bench --bench paths` (add `--features bench-peers` for the peer crates): the
//! paths of `wgpu-noise bench` on its quick 3D workload (128³, 2.1 M samples), kept light
//! so it runs in about a minute on two cores. Throughput is reported in samples.
//! GPU rows are skipped with a notice when no adapter exists. For the full table in one
//! run (all dimensions, device timestamps, ratios), use `wgpu-noise bench`.

use std::time::Duration;

use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use wgpu_noise::gpu::FillOutput;
use wgpu_noise::tables::PermutationTables;
use wgpu_noise::NoiseKind;

// The harness of `wgpu-noise bench`, which lives in the binary's tree, not the library.
#[path = "../src/cli/bench/harness.rs"]
#[allow(dead_code, unused_imports)]
mod bench;

use bench::{GpuBench, Workload};

const WORKLOAD: Workload = Workload { dims: 3, side: 128 };

fn paths(c: &mut Criterion) {
    let gpu = match bench::bench_context() {
        Ok(ctx) => Some((
            GpuBench::new(&ctx.device, &ctx.queue, 0).expect("GPU benchmark setup"),
            ctx,
        )),
        Err(e) => {
            eprintln!("GPU paths skipped: {e}");
            None
        }
    };
    let lut = PermutationTables::new(0);
    let one_thread = rayon::ThreadPoolBuilder::new()
        .num_threads(1)
        .build()
        .expect("one-thread pool");
    let mut out = bench::touched_buffer(WORKLOAD.samples() as usize);

    for kind in NoiseKind::ALL {
        let field = WORKLOAD.field(kind);
        let mut group = c.benchmark_group(format!("{kind} {}", WORKLOAD.label()));
        group.throughput(Throughput::Elements(WORKLOAD.samples()));
        group.sample_size(10);
        group.warm_up_time(Duration::from_millis(500));
        group.measurement_time(Duration::from_secs(2));
        if let Some((gpu, _)) = &gpu {
            let target = gpu
                .fill_target(&field, FillOutput::Value)
                .expect("fill target");
            // Wall clock around submit + wait (criterion's own timer), no readback.
            group.bench_function("gpu-fill", |b| {
                b.iter(|| gpu.time_fill(&target, kind).expect("fill"))
            });
            group.bench_function("gpu-fill+readback", |b| {
                b.iter(|| gpu.noise().generate(&field).expect("generate"))
            });
            if kind == NoiseKind::Simplex {
                group.bench_function("gpu-empty", |b| {
                    b.iter(|| gpu.time_empty(&target).expect("empty kernel"))
                });
            }
        }
        group.bench_function("cpu-f32-1t", |b| {
            b.iter(|| {
                bench::time_cpu_fill(&lut, &field, FillOutput::Value, Some(&one_thread), &mut out)
            })
        });
        group.bench_function("cpu-f32-all", |b| {
            b.iter(|| bench::time_cpu_fill(&lut, &field, FillOutput::Value, None, &mut out))
        });
        #[cfg(feature = "bench-peers")]
        peers(&mut group, kind, &mut out);
        group.finish();
    }
}

#[cfg(feature = "bench-peers")]
fn peers(
    group: &mut criterion::BenchmarkGroup<criterion::measurement::WallTime>,
    kind: NoiseKind,
    out: &mut [f32],
) {
    use noise::NoiseFn;
    let c = WORKLOAD.coordinates();
    let n = c.len();
    // Static dispatch, as a user of the crate would write it.
    fn fill<F: NoiseFn<f64, 3>>(f: &F, c: &[f64], out: &mut [f32]) {
        let n = c.len();
        for (i, v) in out.iter_mut().enumerate() {
            *v = f.get([c[i % n], c[(i / n) % n], c[i / (n * n)]]) as f32;
        }
    }
    match kind {
        NoiseKind::Classic => {
            let f = noise::Perlin::new(0);
            group.bench_function("noise-rs", |b| b.iter(|| fill(&f, &c, out)));
        }
        NoiseKind::Simplex => {
            let f = noise::Simplex::new(0);
            group.bench_function("noise-rs", |b| b.iter(|| fill(&f, &c, out)));
        }
        NoiseKind::Cellular => {
            let f =
                noise::Worley::new(0).set_return_type(noise::core::worley::ReturnType::Distance);
            group.bench_function("noise-rs", |b| b.iter(|| fill(&f, &c, out)));
        }
    }
    let mut fnl = fastnoise_lite::FastNoiseLite::new();
    fnl.set_noise_type(Some(match kind {
        NoiseKind::Classic => fastnoise_lite::NoiseType::Perlin,
        NoiseKind::Simplex => fastnoise_lite::NoiseType::OpenSimplex2,
        NoiseKind::Cellular => fastnoise_lite::NoiseType::Cellular,
    }));
    fnl.set_frequency(Some(1.0));
    let cf: Vec<f32> = c.iter().map(|&v| v as f32).collect();
    group.bench_function("fastnoise-lite", |b| {
        b.iter(|| {
            for (i, v) in out.iter_mut().enumerate() {
                *v = fnl.get_noise_3d(cf[i % n], cf[(i / n) % n], cf[i / (n * n)]);
            }
        })
    });
}

criterion_group!(benches, paths);
criterion_main!(benches);
