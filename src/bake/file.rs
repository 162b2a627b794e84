//! Files that appear complete or not at all: a temporary file in the output's directory,
//! renamed over the output only after everything is written, flushed and synced.

use std::fs::File;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Mutex, MutexGuard};

use tempfile::NamedTempFile;

use crate::error::{NoiseError, Result};

/// The temporary files of every [`AtomicFile`] of this process that is neither committed
/// nor dropped yet. A file is created and added, and renamed or deleted and removed, under
/// this lock, so [`remove_unfinished`] (from a binary's signal handling thread) never misses
/// one nor deletes a committed output.
static UNFINISHED: Mutex<Vec<PathBuf>> = Mutex::new(Vec::new());

/// How many [`AtomicFile`]s of this process have been renamed into place; changed only under
/// the lock of [`UNFINISHED`], right after the rename, so [`remove_unfinished`] sees every
/// rename that finished before it took the lock.
static COMMITTED: AtomicU64 = AtomicU64::new(0);

fn unfinished() -> MutexGuard<'static, Vec<PathBuf>> {
    // The list stays consistent even if a holder panicked: every change is one push/retain.
    UNFINISHED
        .lock()
        .unwrap_or_else(|poisoned| poisoned.into_inner())
}

/// Deletes the temporary file of every unfinished output file (a bake, a picture) of this
/// process.
///
/// For a binary's signal handling (the library installs no signal handler): on SIGINT or
/// SIGTERM, call this, then end the process while holding the result, whose lock keeps any
/// other thread from creating a temporary file or renaming one into place meanwhile.
/// Outputs stay as they were: an unfinished file was never renamed over one.
/// [`RemovedUnfinished::committed`] says how many outputs were already renamed into
/// place (complete): a signal after that rename ends a process whose work is done.
pub fn remove_unfinished() -> RemovedUnfinished {
    let mut list = unfinished();
    let unfinished = list.len();
    let removed = list
        .drain(..)
        .filter(|path| std::fs::remove_file(path).is_ok())
        .collect();
    RemovedUnfinished {
        removed,
        unfinished,
        committed: COMMITTED.load(Ordering::SeqCst),
        _lock: list,
    }
}

/// What [`remove_unfinished`] deleted; holds the lock of the list of unfinished files.
pub struct RemovedUnfinished {
    /// The temporary files deleted.
    pub removed: Vec<PathBuf>,
    /// How many files were unfinished (written to, not yet renamed) when the lock was taken.
    pub unfinished: usize,
    /// How many output files of this process had been renamed into place by then.
    pub committed: u64,
    _lock: MutexGuard<'static, Vec<PathBuf>>,
}

/// The marker in a temporary file's name before the owner's process id:
/// `.NAME.wgpu-noise-PID.XXXXXX.tmp`.
const TEMP_MARK: &str = "wgpu-noise-";

/// The longest file name most file systems take (Linux `NAME_MAX`), in bytes.
const NAME_MAX: usize = 255;

/// What a temporary name adds to `NAME`, at most: `.`, `.`, [`TEMP_MARK`], a 10-digit
/// process id, `.`, 6 random characters, `.tmp`.
const TEMP_OVERHEAD: usize = 2 + TEMP_MARK.len() + 10 + 1 + 6 + 4;

/// The `NAME` part of the temporary names of the output `name`: `name` itself when the
/// temporary name fits in [`NAME_MAX`] bytes; for longer names (up to 255 bytes are valid
/// outputs) its start, `~` and a 64-bit FNV-1a hash of the whole name in hex, so that
/// outputs that share a long prefix keep apart temporary names and leftovers.
fn temp_stem(name: &str) -> String {
    let room = NAME_MAX - TEMP_OVERHEAD;
    if name.len() <= room {
        return name.to_string();
    }
    let hash = name.bytes().fold(0xcbf2_9ce4_8422_2325u64, |h, b| {
        (h ^ b as u64).wrapping_mul(0x0100_0000_01b3)
    });
    let mut end = room - 17;
    while !name.is_char_boundary(end) {
        end -= 1;
    }
    format!("{}~{hash:016x}", &name[..end])
}

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
        // The permission bits of the file being replaced, kept by the new one.
        #[cfg(unix)]
        let existing_mode = {
            use std::os::unix::fs::PermissionsExt;
            std::fs::symlink_metadata(target)
                .ok()
                .filter(|m| m.is_file())
                .map(|m| m.permissions().mode() & 0o7777)
        };
        let dir = parent_dir(target);
        let name = target
            .file_name()
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or_default();
        let stem = temp_stem(&name);
        let leftovers = remove_leftovers(target, dir, &stem);
        let prefix = format!(".{stem}.{TEMP_MARK}{}.", std::process::id());
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
        #[cfg(unix)]
        if let Some(mode) = existing_mode {
            // `--force` replaces the file's contents, not its permissions (fchmod: not
            // reduced by the umask as the mode at creation would be).
            use std::os::unix::fs::PermissionsExt;
            let _ = temp
                .as_file()
                .set_permissions(std::fs::Permissions::from_mode(mode));
        }
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
        if persisted.is_ok() {
            COMMITTED.fetch_add(1, Ordering::SeqCst);
        }
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

/// Deletes `.STEM.wgpu-noise-PID.XXXXXX.tmp` files in `dir` whose process `PID` no longer
/// runs (a `wgpu-noise` killed outright while writing the output whose [`temp_stem`] is
/// `STEM`) and returns their paths (beside `target`).
/// Best effort: an unreadable directory or a file that cannot be deleted is left alone
/// (creating the new file reports a real problem with the directory).
fn remove_leftovers(target: &Path, dir: &Path, stem: &str) -> Vec<PathBuf> {
    let prefix = format!(".{stem}.{TEMP_MARK}");
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

/// The checks [`AtomicFile::create`] makes before it creates anything: the target names a
/// file (no trailing `/`), is not a directory, a symbolic link nor another non-regular
/// file, and exists only if `overwrite`.
///
/// Outputs are regular files only: the final rename would replace a device node, FIFO,
/// socket or symbolic link itself (`/dev/stdout`, a link to a file elsewhere), not write
/// into it, which is never what "overwrite" means; such targets are refused with the
/// reason, before any work.
pub fn check_target(target: &Path, overwrite: bool) -> Result<()> {
    let text = target.as_os_str().as_encoded_bytes();
    if target.file_name().is_none() || text.ends_with(b"/") || text.ends_with(b"/.") {
        return Err(NoiseError::Output(format!(
            "{} does not name a file (a path ending in / is a directory)",
            target.display()
        )));
    }
    let name_len = target.file_name().map_or(0, |n| n.len());
    if name_len > NAME_MAX {
        return Err(NoiseError::Output(format!(
            "{}: the file name is {name_len} bytes, longer than the {NAME_MAX} a file name may have",
            target.display()
        )));
    }
    // symlink_metadata: a symbolic link is judged itself, not what it points to.
    if let Ok(meta) = std::fs::symlink_metadata(target) {
        if meta.is_dir() {
            return Err(NoiseError::Output(format!(
                "{} is a directory",
                target.display()
            )));
        }
        if meta.file_type().is_symlink() {
            let to = std::fs::read_link(target)
                .map(|p| format!(" to {}", p.display()))
                .unwrap_or_default();
            return Err(NoiseError::Output(format!(
                "{} is a symbolic link{to}, not a regular file (refusing to replace it; give \
                 the path of a regular file)",
                target.display()
            )));
        }
        if !meta.is_file() {
            return Err(NoiseError::Output(format!(
                "{} is not a regular file (a device, FIFO or socket; refusing to replace it)",
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
