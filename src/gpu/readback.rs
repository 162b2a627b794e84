//! Copying textures and buffers back to the host: row padding, mapping, bounded waits.

use std::sync::mpsc;
use std::time::Duration;

use crate::error::{NoiseError, Result};

/// `bytes_per_row` of a texture-to-buffer copy of `width` f32 texels: padded up to
/// wgpu's 256-byte alignment.
pub fn padded_row_bytes(width: u32) -> u32 {
    (width * 4).next_multiple_of(wgpu::COPY_BYTES_PER_ROW_ALIGNMENT)
}

/// A buffer of `size` bytes that a copy writes and the host maps to read ([`map_and_read`]).
pub fn staging_buffer(device: &wgpu::Device, label: &str, size: u64) -> wgpu::Buffer {
    device.create_buffer(&wgpu::BufferDescriptor {
        label: Some(label),
        size,
        usage: wgpu::BufferUsages::MAP_READ | wgpu::BufferUsages::COPY_DST,
        mapped_at_creation: false,
    })
}

/// Waits (at most `timeout`) for `submission`, maps `buffer` and hands its bytes to `read`.
/// In the browser (wasm32), where nothing may block, it fails with [`NoiseError::Readback`]
/// unless the map has already completed.
pub fn map_and_read<T>(
    device: &wgpu::Device,
    buffer: &wgpu::Buffer,
    submission: wgpu::SubmissionIndex,
    timeout: Duration,
    read: impl FnOnce(&[u8]) -> T,
) -> Result<T> {
    let (sender, receiver) = mpsc::channel();
    buffer.map_async(wgpu::MapMode::Read, .., move |r| {
        let _ = sender.send(r);
    });
    device
        .poll(wgpu::PollType::Wait {
            submission_index: Some(submission),
            timeout: Some(timeout),
        })
        .map_err(|e| match e {
            wgpu::PollError::Timeout => NoiseError::Timeout(timeout),
            other => NoiseError::Gpu(other.to_string()),
        })?;
    // The map callback runs during a poll once the copy is done; one more non-blocking
    // poll covers a callback queued just after the wait returned.
    let mapped = match receiver.try_recv() {
        Ok(r) => r,
        // In the browser the map completes only after this call returns to the event loop.
        #[cfg(target_arch = "wasm32")]
        Err(_) => {
            let _ = timeout;
            return Err(NoiseError::Readback(
                "a blocking readback cannot finish in a browser (WebGPU maps buffers \
                 asynchronously): map the buffer with `map_async` and await it"
                    .into(),
            ));
        }
        #[cfg(not(target_arch = "wasm32"))]
        Err(_) => {
            let _ = device.poll(wgpu::PollType::Poll);
            receiver
                .recv_timeout(timeout)
                .map_err(|_| NoiseError::Timeout(timeout))?
        }
    };
    mapped.map_err(|e| NoiseError::Readback(e.to_string()))?;
    let out = {
        let view = buffer.get_mapped_range(..).into_view()?;
        read(&view)
    };
    buffer.unmap();
    Ok(out)
}

/// A mapped buffer's view whichever wgpu the crate is built with: `get_mapped_range`
/// returns the view in wgpu 29 and a `Result` of it in wgpu 30 (`Cargo.toml` accepts both,
/// so that an application on either needs no second wgpu).
trait MappedView {
    fn into_view(self) -> Result<wgpu::BufferView>;
}

impl MappedView for wgpu::BufferView {
    fn into_view(self) -> Result<wgpu::BufferView> {
        Ok(self)
    }
}

impl<E: std::fmt::Display> MappedView for std::result::Result<wgpu::BufferView, E> {
    fn into_view(self) -> Result<wgpu::BufferView> {
        self.map_err(|e| NoiseError::Readback(e.to_string()))
    }
}

/// Removes the row padding of a texture copy: `rows` rows of `width` f32 each, `padded`
/// bytes apart, appended to `out`.
pub fn unpad_rows(bytes: &[u8], width: u32, rows: usize, padded: u32, out: &mut Vec<f32>) {
    let row_bytes = width as usize * 4;
    for row in bytes.chunks(padded as usize).take(rows) {
        out.extend_from_slice(bytemuck::cast_slice(&row[..row_bytes]));
    }
}
