//! The GPU's clock (`gpu::timer`), which `bench` and the node costs of the preview and the
//! page time fills with: two timestamps around a recorded fill, read back on every backend
//! that offers timestamp queries, and the rule that judges a device time against the host's.

use std::time::{Duration, Instant};

use crate::common;
use wgpu_noise::field::Field;
use wgpu_noise::gpu::timer::{plausible, GpuTimer};
use wgpu_noise::graph::{Graph, Node};
use wgpu_noise::{FieldOutput, GpuNoise, TextureFill};

#[test]
fn a_device_time_longer_than_the_hosts_time_is_implausible() {
    let ms = Duration::from_millis;
    for cpu_adapter in [false, true] {
        assert!(plausible(ms(10), ms(10), cpu_adapter));
        // 10 % and 1 ms of slack between the two clocks.
        assert!(plausible(ms(12), ms(10), cpu_adapter));
        assert!(!plausible(ms(13), ms(10), cpu_adapter));
    }
}

#[test]
fn a_cpu_adapters_device_time_far_below_the_hosts_time_is_implausible() {
    let ms = Duration::from_millis;
    // A GPU runs while the host waits for other things.
    assert!(plausible(ms(1), ms(40), false));
    // A CPU adapter is the host: it cannot have done the work in much less than the wait.
    assert!(!plausible(ms(1), ms(40), true));
    assert!(plausible(ms(25), ms(40), true));
}

/// A device with timestamp queries on `backends`' first adapter, or why there is none.
fn timed_device(backends: wgpu::Backends) -> Result<(wgpu::Device, wgpu::Queue), String> {
    pollster::block_on(async {
        let mut desc = wgpu::InstanceDescriptor::new_without_display_handle_from_env();
        desc.backends = backends;
        let adapter = wgpu::Instance::new(desc)
            .request_adapter(&wgpu::RequestAdapterOptions::default())
            .await
            .map_err(|e| format!("no adapter: {e}"))?;
        if !adapter.features().contains(wgpu::Features::TIMESTAMP_QUERY) {
            return Err(format!(
                "{} offers no timestamp queries",
                adapter.get_info().name
            ));
        }
        adapter
            .request_device(&wgpu::DeviceDescriptor {
                label: Some("gpu_timer test device"),
                required_features: wgpu::Features::TIMESTAMP_QUERY,
                ..Default::default()
            })
            .await
            .map_err(|e| format!("no device: {e}"))
    })
}

/// Records a 256² fBm fill between `timer`'s timestamps, submits it and waits: the device
/// time the timestamps give, and the host's time from the submission to the work done.
fn time_a_fill(
    device: &wgpu::Device,
    queue: &wgpu::Queue,
    timer: &GpuTimer,
    octaves: u32,
) -> (Duration, Duration) {
    let noise = GpuNoise::new(device, queue, 3).expect("generator");
    let graph = Graph::from_node(&Node::simplex().fbm().with("octaves", octaves)).unwrap();
    let program = graph.program(2, [0.0; 4]).unwrap();
    let side = 256;
    let texture = device.create_texture(&wgpu::TextureDescriptor {
        label: Some("gpu_timer test target"),
        size: wgpu::Extent3d {
            width: side,
            height: side,
            depth_or_array_layers: 1,
        },
        mip_level_count: 1,
        sample_count: 1,
        dimension: wgpu::TextureDimension::D2,
        format: FieldOutput::Value.texture_format(),
        usage: wgpu::TextureUsages::STORAGE_BINDING | wgpu::TextureUsages::COPY_DST,
        view_formats: &[],
    });
    let field = Field::new(&[side, side]).with_frequency(&[8.0, 8.0]);
    let mut encoder = device.create_command_encoder(&Default::default());
    timer.begin(&mut encoder);
    let fill = TextureFill {
        program: &program,
        field: &field,
        output: FieldOutput::Value,
        texture: &texture,
    };
    noise.record(&mut encoder, &fill).expect("the fill records");
    timer.end(&mut encoder);
    let start = Instant::now();
    let submission = queue.submit([encoder.finish()]);
    device
        .poll(wgpu::PollType::Wait {
            submission_index: Some(submission),
            timeout: Some(Duration::from_secs(60)),
        })
        .expect("the fill finishes");
    let wall = start.elapsed();
    let readback = timer.readback();
    let (sender, receiver) = std::sync::mpsc::channel();
    readback.map_async(wgpu::MapMode::Read, .., move |r| sender.send(r).unwrap());
    device
        .poll(wgpu::PollType::Wait {
            submission_index: None,
            timeout: Some(Duration::from_secs(60)),
        })
        .unwrap();
    receiver.recv().unwrap().expect("the timestamps map");
    let elapsed = timer.elapsed(&readback.get_mapped_range(..).unwrap());
    readback.unmap();
    (elapsed.expect("two timestamps read back"), wall)
}

#[test]
fn timestamps_around_a_fill_give_a_time_within_the_hosts_on_every_backend_offering_them() {
    let mut timed = 0;
    for (name, backends) in common::BACKENDS {
        let (device, queue) = match timed_device(backends) {
            Ok(dq) => dq,
            Err(why) => {
                eprintln!("SKIPPED {name}: {why}");
                continue;
            }
        };
        let timer = GpuTimer::new(&device, &queue, "gpu_timer test").expect("a timer");
        for octaves in [1, 8] {
            let (elapsed, wall) = time_a_fill(&device, &queue, &timer, octaves);
            eprintln!("{name}: {octaves} octaves at 256²: device {elapsed:?}, host {wall:?}");
            // Not more than the host waited for it (the rule the costs use, on a GPU).
            assert!(
                plausible(elapsed, wall, false),
                "{name}: device {elapsed:?} against the host's {wall:?}"
            );
        }
        timed += 1;
    }
    // lavapipe and llvmpipe offer timestamp queries: the machines this runs on time both.
    if std::env::var_os("WGPU_NOISE_REQUIRE_GPU").is_some() {
        assert!(timed > 0, "no backend offered timestamp queries");
    }
}

#[test]
fn a_device_without_timestamp_queries_has_no_timer() {
    for (name, ctx) in common::gpu_per_backend() {
        // The tests' contexts ask for no features.
        assert!(
            GpuTimer::new(&ctx.device, &ctx.queue, "none").is_none(),
            "{name}"
        );
    }
}
