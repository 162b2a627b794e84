//! The iso view's surface off the event loop: a worker thread fills the graph's cube on the
//! preview's device ([`crate::editor::iso::fill`]) and extracts the surface at the level
//! ([`crate::editor::iso::extract`]), so that the window goes on drawing (the last mesh)
//! meanwhile. A request superseded before the worker takes it is dropped; the cube's
//! samples of the last fill are kept, so that a new level is an extraction only.

use std::sync::mpsc;

use crate::editor::iso::{self, Cube};
use crate::editor::isosurface::IsoMesh;
use crate::graph::Program;
use crate::GpuNoise;

/// What a mesh is of: the graph's text, the seed, the cube and the level.
#[derive(Clone, Debug, PartialEq)]
pub struct IsoKey {
    pub text: String,
    pub seed: u64,
    pub cube: Cube,
    pub level: f64,
}

impl IsoKey {
    /// Whether `other` is of the same cube's samples (only the level differs).
    fn same_cube(&self, other: &IsoKey) -> bool {
        (&self.text, self.seed, self.cube) == (&other.text, other.seed, other.cube)
    }
}

/// A surface asked for: its key and the graph lowered for 3D.
pub struct IsoRequest {
    pub key: IsoKey,
    pub program: Program,
}

/// A surface done: its key, the mesh (or why not) and the least and greatest value of
/// the cube (the readout's range).
pub struct IsoDone {
    pub key: IsoKey,
    pub mesh: Result<IsoMesh, String>,
    pub range: Option<(f32, f32)>,
}

/// The iso view's worker thread: requests go in, surfaces come back.
pub struct IsoWorker {
    /// `None` once dropped (the worker then ends).
    requests: Option<mpsc::Sender<IsoRequest>>,
    thread: Option<std::thread::JoinHandle<()>>,
    done: mpsc::Receiver<IsoDone>,
    /// The key of the last request sent.
    asked: Option<IsoKey>,
    /// Surfaces received and not yet taken.
    ready: Vec<IsoDone>,
    /// Requests sent and not yet answered (superseded ones are answered by the newer's).
    in_flight: bool,
}

impl IsoWorker {
    /// Starts the worker on `device` (its generator is made there, on the first request).
    pub fn start(device: &wgpu::Device, queue: &wgpu::Queue) -> IsoWorker {
        let (requests, request_in) = mpsc::channel::<IsoRequest>();
        let (done_out, done) = mpsc::channel();
        let (device, queue) = (device.clone(), queue.clone());
        let thread = std::thread::spawn(move || {
            let mut noise: Option<Result<GpuNoise, String>> = None;
            let mut filled: Option<(IsoKey, Vec<f32>)> = None;
            // The window is gone when the channel closes.
            while let Ok(first) = request_in.recv() {
                // Only the newest request is done.
                let request = request_in.try_iter().last().unwrap_or(first);
                let key = request.key;
                let noise = noise.get_or_insert_with(|| {
                    GpuNoise::new(&device, &queue, key.seed).map_err(|e| e.to_string())
                });
                if !filled.as_ref().is_some_and(|(k, _)| k.same_cube(&key)) {
                    filled = None;
                }
                let samples = match (&filled, noise) {
                    (Some((_, samples)), _) => Ok(samples),
                    (None, Err(why)) => Err(why.clone()),
                    (None, Ok(noise)) => {
                        if noise.lookup().seed() != key.seed {
                            noise.set_seed(key.seed);
                        }
                        let fresh = iso::fill(noise, &request.program, &key.cube);
                        fresh.map(|samples| &filled.insert((key.clone(), samples)).1)
                    }
                };
                let range = samples.as_ref().ok().map(|samples| {
                    samples
                        .chunks_exact(4)
                        .fold((f32::INFINITY, f32::NEG_INFINITY), |(lo, hi), s| {
                            (lo.min(s[0]), hi.max(s[0]))
                        })
                });
                let mesh =
                    samples.and_then(|samples| iso::extract(samples, &key.cube, key.level as f32));
                let done = IsoDone { key, mesh, range };
                if done_out.send(done).is_err() {
                    return;
                }
            }
        });
        IsoWorker {
            requests: Some(requests),
            thread: Some(thread),
            done,
            asked: None,
            ready: Vec::new(),
            in_flight: false,
        }
    }

    /// The key of the last surface asked for.
    pub fn asked(&self) -> Option<&IsoKey> {
        self.asked.as_ref()
    }

    /// Asks for the surface of `request` (superseding one not yet started).
    pub fn ask(&mut self, request: IsoRequest) {
        self.asked = Some(request.key.clone());
        self.in_flight = true;
        // A worker gone (it panicked) answers nothing; the last mesh stays drawn.
        if let Some(sender) = &self.requests {
            let _ = sender.send(request);
        }
    }

    /// Receives what the worker has done; whether anything came.
    pub fn poll(&mut self) -> bool {
        let before = self.ready.len();
        self.ready.extend(self.done.try_iter());
        let asked = self.asked.as_ref();
        if self.ready[before..].iter().any(|d| Some(&d.key) == asked) {
            self.in_flight = false;
        }
        self.ready.len() > before
    }

    /// The surfaces received so far, oldest first.
    pub fn take(&mut self) -> Vec<IsoDone> {
        self.poll();
        std::mem::take(&mut self.ready)
    }

    /// Whether the surface asked for last is not back yet.
    pub fn busy(&self) -> bool {
        self.in_flight
    }
}

impl Drop for IsoWorker {
    /// Ends the worker and waits for it (at most its fill under way), so that its handles
    /// on the device are gone before the window's are.
    fn drop(&mut self) {
        self.requests = None;
        if let Some(thread) = self.thread.take() {
            let _ = thread.join();
        }
    }
}
