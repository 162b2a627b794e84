//! The node view's thumbnails on the preview's device: a worker thread fills each node's
//! sub-graph ([`crate::editor::thumbs`]) at 64² with the library's GPU fill
//! ([`GpuNoise::read`]) and times it (GPU timestamps where the adapter has them and they are
//! plausible, else the SIMD CPU evaluator), so that the window goes on drawing while a
//! sub-graph's pipeline compiles.

use std::sync::mpsc;
use std::time::Instant;

use crate::editor::thumbs::{
    cpu_cost, Clock, Cost, Filled, Job, NoTimestamps, ThumbnailKey, TIMED_SIZE,
};
use crate::error::Result;
use crate::field::FieldOutput;
use crate::shader::LookupVariant;
use crate::{GpuNoise, TextureFill};

use super::super::bench::harness::GpuBench;

/// What the worker hands back for a job.
pub enum Outcome {
    /// The job's sub-graph filled (or why not).
    Filled(Job, Filled),
    /// A newer job for the same node came first: this one was not filled.
    Superseded(Job),
}

/// The thumbnails' worker thread: jobs go in, outcomes come back in the order done.
pub struct ThumbnailWorker {
    /// `None` once dropped (the worker then ends).
    jobs: Option<mpsc::Sender<Vec<Job>>>,
    thread: Option<std::thread::JoinHandle<()>>,
    outcomes: mpsc::Receiver<Outcome>,
    /// Outcomes received and not yet taken.
    ready: Vec<Outcome>,
    /// Jobs sent and not yet answered.
    in_flight: usize,
}

impl ThumbnailWorker {
    /// Starts the worker on `device` (its generator is made there, on the first job).
    pub fn start(device: &wgpu::Device, queue: &wgpu::Queue) -> ThumbnailWorker {
        let (jobs, job_in) = mpsc::channel::<Vec<Job>>();
        let (outcome_out, outcomes) = mpsc::channel();
        let (device, queue) = (device.clone(), queue.clone());
        let thread = std::thread::spawn(move || {
            let mut filler: Option<std::result::Result<Filler, String>> = None;
            let mut waiting: Vec<Job> = Vec::new();
            loop {
                if waiting.is_empty() {
                    match job_in.recv() {
                        Ok(batch) => waiting.extend(batch),
                        // The window is gone.
                        Err(_) => return,
                    }
                }
                waiting.extend(job_in.try_iter().flatten());
                let job = waiting.remove(0);
                let outcome = if waiting.iter().any(|j| j.node == job.node) {
                    Outcome::Superseded(job)
                } else {
                    let filler = filler.get_or_insert_with(|| {
                        Filler::new(&device, &queue).map_err(|e| e.to_string())
                    });
                    let filled = match filler {
                        Ok(filler) => filler.fill(&job),
                        Err(why) => Filled {
                            values: Err(why.clone()),
                            cost: None,
                        },
                    };
                    Outcome::Filled(job, filled)
                };
                if outcome_out.send(outcome).is_err() {
                    return;
                }
            }
        });
        ThumbnailWorker {
            jobs: Some(jobs),
            thread: Some(thread),
            outcomes,
            ready: Vec::new(),
            in_flight: 0,
        }
    }

    /// Asks for `jobs` (none: nothing is sent).
    pub fn ask(&mut self, jobs: Vec<Job>) {
        if jobs.is_empty() {
            return;
        }
        self.in_flight += jobs.len();
        // A worker gone (it panicked) answers nothing; the nodes keep "drawing…".
        if let Some(sender) = &self.jobs {
            let _ = sender.send(jobs);
        }
    }

    /// Receives what the worker has done; whether anything came.
    pub fn poll(&mut self) -> bool {
        let before = self.ready.len();
        self.ready.extend(self.outcomes.try_iter());
        self.in_flight -= self.ready.len() - before;
        self.ready.len() > before
    }

    /// The outcomes received so far.
    pub fn take(&mut self) -> Vec<Outcome> {
        self.poll();
        std::mem::take(&mut self.ready)
    }

    /// Whether jobs are still being filled.
    pub fn busy(&self) -> bool {
        self.in_flight > 0
    }
}

impl Drop for ThumbnailWorker {
    /// Ends the worker and waits for it (at most its fill under way), so that its handles
    /// on the device are gone before the window's are.
    fn drop(&mut self) {
        self.jobs = None;
        if let Some(thread) = self.thread.take() {
            let _ = thread.join();
        }
    }
}

/// The worker's GPU side: the bench harness's generator and timestamps, and the texture a
/// sub-graph's timed fill writes.
struct Filler {
    bench: GpuBench,
    timed: wgpu::Texture,
    /// Why costs are not from GPU timestamps (`None`: they are, where plausible).
    no_timestamps: Option<NoTimestamps>,
}

impl Filler {
    fn new(device: &wgpu::Device, queue: &wgpu::Queue) -> Result<Filler> {
        let bench = GpuBench::new(device, queue, 0)?;
        let timed = device.create_texture(&wgpu::TextureDescriptor {
            label: Some("preview node cost target"),
            size: wgpu::Extent3d {
                width: TIMED_SIZE,
                height: TIMED_SIZE,
                depth_or_array_layers: 1,
            },
            mip_level_count: 1,
            sample_count: 1,
            dimension: wgpu::TextureDimension::D2,
            format: FieldOutput::Value.texture_format(),
            // Storage: the hand-written fill stores to it; copy in: a graph's own pipeline's
            // buffers are copied into it.
            usage: wgpu::TextureUsages::STORAGE_BINDING | wgpu::TextureUsages::COPY_DST,
            view_formats: &[],
        });
        let no_timestamps = NoTimestamps::of_device(
            device.features().contains(wgpu::Features::TIMESTAMP_QUERY),
            device.adapter_info().device_type == wgpu::DeviceType::Cpu,
        );
        Ok(Filler {
            bench,
            timed,
            no_timestamps,
        })
    }

    fn noise(&self) -> &GpuNoise {
        self.bench.generator(LookupVariant::Textures)
    }

    /// Fills `job`'s sub-graph over its region at the thumbnail's size, reads it back and
    /// measures its cost (unless the job holds it).
    fn fill(&mut self, job: &Job) -> Filled {
        let key = &job.key;
        let program = match key.program() {
            Ok(program) => program,
            Err(e) => {
                return Filled {
                    values: Err(e.to_string()),
                    cost: None,
                }
            }
        };
        if self.noise().lookup().seed() != key.view.seed {
            self.bench.set_seed(key.view.seed);
        }
        let field = key.field();
        let mut values = Vec::new();
        // Also compiles the sub-graph's pipeline, which the timed fill below then reuses.
        let read = self
            .noise()
            .read(&program, &field, FieldOutput::Value, |_, v| {
                values.extend_from_slice(v);
                Ok(())
            });
        if let Err(e) = read {
            return Filled {
                values: Err(e.to_string()),
                cost: None,
            };
        }
        Filled {
            values: Ok(values),
            cost: job.cost.or_else(|| self.cost(&program, key)),
        }
    }

    /// What `program` costs per sample: GPU timestamps around its fill of the same region
    /// at [`TIMED_SIZE`]² (a 64² fill is too short for the GPU's clock to tell it from its
    /// start-up), else the SIMD CPU evaluator ([`cpu_cost`]).
    fn cost(&self, program: &crate::graph::Program, key: &ThumbnailKey) -> Option<Cost> {
        let why = match self.no_timestamps {
            Some(why) => why,
            None => match self.gpu_cost(program, key) {
                Ok(cost) => return Some(cost),
                Err(why) => why,
            },
        };
        let started = Instant::now();
        Some(cpu_cost(program, key, why, || {
            started.elapsed().as_secs_f64() * 1e3
        }))
    }

    /// `program`'s cost from GPU timestamps, or why there is none.
    fn gpu_cost(
        &self,
        program: &crate::graph::Program,
        key: &ThumbnailKey,
    ) -> std::result::Result<Cost, NoTimestamps> {
        let timed_field = key.field_at(TIMED_SIZE);
        let mut recorded = Ok(());
        let timing = self.bench.time_recorded(|encoder| {
            let fill = TextureFill {
                program,
                field: &timed_field,
                output: FieldOutput::Value,
                texture: &self.timed,
            };
            recorded = self.noise().record(encoder, &fill);
        });
        match recorded.and(timing) {
            Ok(timing) => match timing.device {
                Some(device) => Ok(Cost {
                    ns_per_sample: device.as_secs_f64() * 1e9 / f64::from(TIMED_SIZE * TIMED_SIZE),
                    clock: Clock::GpuTimestamps,
                }),
                None => Err(NoTimestamps::Implausible),
            },
            // The fill failed where the thumbnail's did not: no GPU time to give.
            Err(_) => Err(NoTimestamps::Implausible),
        }
    }
}
