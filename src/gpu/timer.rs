//! The GPU's clock: two timestamp queries around recorded commands, for the bench harness
//! and for the node costs the editor's hosts (the desktop preview, the page) show.

use std::time::Duration;

/// Two timestamps bracketing the commands recorded between [`GpuTimer::begin`] and
/// [`GpuTimer::end`], resolved into a buffer to map after the submission.
pub struct GpuTimer {
    set: wgpu::QuerySet,
    resolve: wgpu::Buffer,
    readback: wgpu::Buffer,
    period_ns: f64,
}

/// The bytes of the two resolved timestamps.
const TIMESTAMP_BYTES: u64 = 16;

impl GpuTimer {
    /// The timer on `device`, or `None` where the device has no `TIMESTAMP_QUERY` feature;
    /// `label` names its wgpu objects.
    pub fn new(device: &wgpu::Device, queue: &wgpu::Queue, label: &str) -> Option<GpuTimer> {
        if !device.features().contains(wgpu::Features::TIMESTAMP_QUERY) {
            return None;
        }
        let buffer = |what: &str, usage| {
            device.create_buffer(&wgpu::BufferDescriptor {
                label: Some(&format!("{label} {what}")),
                size: TIMESTAMP_BYTES,
                usage,
                mapped_at_creation: false,
            })
        };
        Some(GpuTimer {
            set: device.create_query_set(&wgpu::QuerySetDescriptor {
                label: Some(&format!("{label} timestamps")),
                ty: wgpu::QueryType::Timestamp,
                count: 2,
            }),
            resolve: buffer(
                "timestamp resolve",
                wgpu::BufferUsages::QUERY_RESOLVE | wgpu::BufferUsages::COPY_SRC,
            ),
            readback: buffer(
                "timestamp readback",
                wgpu::BufferUsages::MAP_READ | wgpu::BufferUsages::COPY_DST,
            ),
            period_ns: f64::from(queue.get_timestamp_period()),
        })
    }

    /// Writes the first timestamp. Empty passes carry both, so the timed passes stay as
    /// the product records them (without timestamp writes of their own).
    pub fn begin(&self, encoder: &mut wgpu::CommandEncoder) {
        self.write(encoder, Some(0), None);
    }

    /// Writes the second timestamp and copies both into [`GpuTimer::readback`].
    pub fn end(&self, encoder: &mut wgpu::CommandEncoder) {
        self.write(encoder, None, Some(1));
        encoder.resolve_query_set(&self.set, 0..2, &self.resolve, 0);
        encoder.copy_buffer_to_buffer(&self.resolve, 0, &self.readback, 0, TIMESTAMP_BYTES);
    }

    fn write(&self, encoder: &mut wgpu::CommandEncoder, begin: Option<u32>, end: Option<u32>) {
        encoder.begin_compute_pass(&wgpu::ComputePassDescriptor {
            label: Some("wgpu-noise timestamp pass"),
            timestamp_writes: Some(wgpu::ComputePassTimestampWrites {
                query_set: &self.set,
                beginning_of_pass_write_index: begin,
                end_of_pass_write_index: end,
            }),
        });
    }

    /// The buffer to map once the submission is done; [`GpuTimer::elapsed`] reads it.
    pub fn readback(&self) -> &wgpu::Buffer {
        &self.readback
    }

    /// The device time between the two timestamps in `mapped` (the readback's bytes);
    /// `None` when it holds fewer than two. A second timestamp before the first (a clock
    /// that wrapped or was reset) reads as zero, which [`plausible`] rejects for a CPU
    /// adapter and a GPU shows as free.
    pub fn elapsed(&self, mapped: &[u8]) -> Option<Duration> {
        let tick = |i: usize| {
            let bytes = mapped.get(8 * i..8 * (i + 1))?;
            Some(u64::from_le_bytes(bytes.try_into().ok()?))
        };
        let ticks = tick(1)?.saturating_sub(tick(0)?);
        Some(Duration::from_secs_f64(ticks as f64 * self.period_ns * 1e-9))
    }
}

/// Whether a device time `device` can be true of a submission that took `wall` on the
/// host (from its submission to its work found done). It can never exceed the wall time
/// (plus the clocks' slack). On a CPU adapter (`cpu_adapter`) the device is the host, so
/// it cannot be much shorter either: lavapipe can write both timestamps of a long fill at
/// about the same moment.
pub fn plausible(device: Duration, wall: Duration, cpu_adapter: bool) -> bool {
    let slack = Duration::from_millis(1);
    let not_longer = device <= wall.mul_f64(1.1) + slack;
    let not_much_shorter = !cpu_adapter || device + slack >= wall.mul_f64(0.5);
    not_longer && not_much_shorter
}
