//! Files that appear complete or not at all: a temporary file in the output's directory,
//! renamed over the output only after everything is written, flushed and synced.

use std::fs::File;
use std::path::{Path, PathBuf};
use std::sync::{Mutex, MutexGuard};

use tempfile::NamedTempFile;

use crate::error::{NoiseError, Result};

/// The temporary files of every [`AtomicFile`] of this process that is neither committed
/// nor dropped yet. A file is created and added, and renamed or deleted and removed, under
/// this lock, so [`remove_unfinished`] (from a binary's signal handling thread) never misses
/// one nor deletes a committed output.
static UNFINISHED: Mutex<Vec<PathBuf>> = Mutex::new(Vec::new());

fn unfinished() -> MutexGuard<'static, Vec<PathBuf>> {
    // The list stays consistent even if a holder panicked: every change is one push/retain.
    UNFINISHED
        .lock()
        .unwrap_or_else(|poisoned| poisoned.into_inner())
}

/// Deletes the temporary file of every unfinished [`AtomicFile`] of this process.
///
/// For a binary's signal handling (the library installs no signal handler): on SIGINT or
/// SIGTERM, call this, then end the process while holding the result, whose lock keeps any
/// other thread from creating a temporary file or renaming one into place meanwhile.
/// Outputs stay as they were: an unfinished file was never renamed over one.
pub fn remove_unfinished() -> RemovedUnfinished {
    let mut list = unfinished();
    let removed = list
        .drain(..)
        .filter(|path| std::fs::remove_file(path).is_ok())
        .collect();
    RemovedUnfinished {
        removed,
        _lock: list,
    }
}

/// What [`remove_unfinished`] deleted; holds the lock of the list of unfinished files.
pub struct RemovedUnfinished {
    /// The temporary files deleted.
    pub removed: Vec<PathBuf>,
    _lock: MutexGuard<'static, Vec<PathBuf>>,
}

/// The marker in a temporary file's name before the owner's process id:
/// `.NAME.wgpu-noise-PID.XXXXXX.tmp`.
const TEMP_MARK: &str = "wgpu-noise-";

/// An output file under construction.
///
/// The data goes to a hidden temporary file `.NAME.wgpu-noise-PID.XXXXXX.tmp` beside `NAME`
/// (same directory, so the final rename cannot cross file systems; `PID` is this process's
/// id, `XXXXXX` random). [`AtomicFile::commit`] syncs it and renames it into place;
/// dropping an uncommitted `AtomicFile` (an error, a panic that unwinds) deletes it, and
/// [`remove_unfinished`] deletes it for a signal handler. Only a process killed outright
/// (SIGKILL, power loss) can leave the temporary file behind — never a partial file under
/// the output's name — and the next `AtomicFile` for the same output deletes such a
/// leftover once its process is gone ([`AtomicFile::removed_leftovers`]).
pub struct AtomicFile {
    /// `None` only once committed (or while being dropped).
    temp: Option<NamedTempFile>,
    target: PathBuf,
    overwrite: bool,
    leftovers: Vec<PathBuf>,
}

impl AtomicFile {
    /// Starts writing `target`. Fails at once if `target` exists and `overwrite` is false,
    /// if it is a directory, or if its directory does not accept a new file.
    pub fn create(target: &Path, overwrite: bool) -> Result<Self> {
        check_target(target, overwrite)?;
        let dir = parent_dir(target);
        let name = target
            .file_name()
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or_default();
        let leftovers = remove_leftovers(target, dir, &name);
        let prefix = format!(".{name}.{TEMP_MARK}{}.", std::process::id());
        let mut builder = tempfile::Builder::new();
        builder.prefix(&prefix).suffix(".tmp");
        #[cfg(unix)]
        {
            // Like any newly created file (0666 less the umask), not tempfile's private 0600.
            use std::os::unix::fs::PermissionsExt;
            builder.permissions(std::fs::Permissions::from_mode(0o666));
        }
        let mut list = unfinished();
        let temp = builder.tempfile_in(dir).map_err(|error| NoiseError::Io {
            context: format!(
                "cannot create a file in {} (for {})",
                dir.display(),
                target.display()
            ),
            error: os_error(error),
        })?;
        list.push(temp.path().to_path_buf());
        Ok(AtomicFile {
            temp: Some(temp),
            target: target.to_path_buf(),
            overwrite,
            leftovers,
        })
    }

    /// The temporary file, to write to.
    pub fn file(&self) -> &File {
        self.temp().as_file()
    }

    /// The path the file will have once committed.
    pub fn target(&self) -> &Path {
        &self.target
    }

    /// The temporary file's path (for tests and diagnostics).
    pub fn temp_path(&self) -> &Path {
        self.temp().path()
    }

    /// Temporary files of the same output that processes killed outright had left behind
    /// (their process id no longer runs), deleted by [`AtomicFile::create`]; for a notice.
    pub fn removed_leftovers(&self) -> &[PathBuf] {
        &self.leftovers
    }

    fn temp(&self) -> &NamedTempFile {
        self.temp
            .as_ref()
            .expect("an AtomicFile holds its temporary file until committed")
    }

    /// Syncs the data to disk and renames the file into place. Without `overwrite` the
    /// rename refuses to replace a file that appeared meanwhile.
    pub fn commit(mut self) -> Result<()> {
        let target = std::mem::take(&mut self.target);
        self.temp()
            .as_file()
            .sync_all()
            .map_err(|error| NoiseError::Io {
                context: format!("writing {}", target.display()),
                error,
            })?;
        let mut list = unfinished();
        let temp = self.temp.take().expect("not yet committed");
        let temp_path = temp.path().to_path_buf();
        let persisted = if self.overwrite {
            temp.persist(&target)
        } else {
            temp.persist_noclobber(&target)
        };
        // On failure the returned NamedTempFile is dropped here (under the lock), deleting
        // the temporary file.
        let result = persisted.map(drop).map_err(|e| {
            if e.error.kind() == std::io::ErrorKind::AlreadyExists {
                NoiseError::OutputExists(target.clone())
            } else {
                NoiseError::Io {
                    context: format!("renaming the finished file to {}", target.display()),
                    error: e.error,
                }
            }
        });
        list.retain(|p| *p != temp_path);
        result
    }
}

impl Drop for AtomicFile {
    /// Deletes the temporary file of an uncommitted `AtomicFile`.
    fn drop(&mut self) {
        if let Some(temp) = self.temp.take() {
            let mut list = unfinished();
            let path = temp.path().to_path_buf();
            drop(temp);
            list.retain(|p| *p != path);
        }
    }
}

/// Deletes `.NAME.wgpu-noise-PID.XXXXXX.tmp` files in `dir` whose process `PID` no longer
/// runs (a `wgpu-noise` killed outright while writing `NAME`) and returns their paths
/// (beside `target`).
/// Best effort: an unreadable directory or a file that cannot be deleted is left alone
/// (creating the new file reports a real problem with the directory).
fn remove_leftovers(target: &Path, dir: &Path, name: &str) -> Vec<PathBuf> {
    let prefix = format!(".{name}.{TEMP_MARK}");
    let Ok(entries) = std::fs::read_dir(dir) else {
        return Vec::new();
    };
    let mut removed = Vec::new();
    for entry in entries.flatten() {
        let file_name = entry.file_name();
        let Some(rest) = file_name
            .to_str()
            .and_then(|n| n.strip_prefix(&prefix))
            .and_then(|n| n.strip_suffix(".tmp"))
        else {
            continue;
        };
        let Some(pid) = rest.split_once('.').and_then(|(pid, _)| pid.parse().ok()) else {
            continue;
        };
        if process_is_gone(pid) && std::fs::remove_file(entry.path()).is_ok() {
            removed.push(target.with_file_name(&file_name));
        }
    }
    removed.sort();
    removed
}

/// Whether no process `pid` runs (Linux: no `/proc/PID`). Elsewhere, and for this process's
/// own id, the answer is "it may run", so nothing is deleted.
fn process_is_gone(pid: u32) -> bool {
    if pid == std::process::id() {
        return false;
    }
    if cfg!(target_os = "linux") && Path::new("/proc/self").exists() {
        return !Path::new("/proc").join(pid.to_string()).exists();
    }
    false
}

/// The checks [`AtomicFile::create`] makes before it creates anything: the target is not a
/// directory nor another non-regular file, and exists only if `overwrite`.
pub fn check_target(target: &Path, overwrite: bool) -> Result<()> {
    if target.file_name().is_none() {
        return Err(NoiseError::Output(format!(
            "{} does not name a file",
            target.display()
        )));
    }
    // symlink_metadata: a dangling symlink still counts as "exists".
    if let Ok(meta) = std::fs::symlink_metadata(target) {
        if meta.is_dir() {
            return Err(NoiseError::Output(format!(
                "{} is a directory",
                target.display()
            )));
        }
        // The rename would replace a device node, FIFO or socket itself (e.g. /dev/null as
        // root), not write into it: never what "overwrite" means.
        if !(meta.is_file() || meta.file_type().is_symlink()) {
            return Err(NoiseError::Output(format!(
                "{} is not a regular file (refusing to replace it)",
                target.display()
            )));
        }
        if !overwrite {
            return Err(NoiseError::OutputExists(target.to_path_buf()));
        }
    }
    Ok(())
}

/// tempfile appends the random temporary name to the OS error ("... at path
/// \"dir/.out.npy.wgpu-noise-77.Xy12Ab.tmp\""); the message already names the directory and the output,
/// so the OS error alone reads better.
fn os_error(error: std::io::Error) -> std::io::Error {
    let text = error.to_string();
    match text.find(" at path \"") {
        Some(end) => std::io::Error::new(error.kind(), text[..end].to_string()),
        None => error,
    }
}

/// The directory a relative or absolute `target` lives in (`.` for a bare file name).
fn parent_dir(target: &Path) -> &Path {
    match target.parent() {
        Some(p) if !p.as_os_str().is_empty() => p,
        _ => Path::new("."),
    }
}
