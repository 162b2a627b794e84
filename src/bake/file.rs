//! Files that appear complete or not at all: a temporary file in the output's directory,
//! renamed over the output only after everything is written, flushed and synced.

use std::fs::File;
use std::path::{Path, PathBuf};

use tempfile::NamedTempFile;

use crate::error::{NoiseError, Result};

/// An output file under construction.
///
/// The data goes to a hidden temporary file `.NAME.XXXXXX.tmp` beside `NAME` (same
/// directory, so the final rename cannot cross file systems). [`AtomicFile::commit`] syncs
/// it and renames it into place; dropping an uncommitted `AtomicFile` (an error, a panic
/// that unwinds) deletes it. Only a process killed outright (SIGKILL, power loss) can leave
/// the temporary file behind — never a partial file under the output's name.
pub struct AtomicFile {
    temp: NamedTempFile,
    target: PathBuf,
    overwrite: bool,
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
        let prefix = format!(".{name}.");
        let mut builder = tempfile::Builder::new();
        builder.prefix(&prefix).suffix(".tmp");
        #[cfg(unix)]
        {
            // Like any newly created file (0666 less the umask), not tempfile's private 0600.
            use std::os::unix::fs::PermissionsExt;
            builder.permissions(std::fs::Permissions::from_mode(0o666));
        }
        let temp = builder.tempfile_in(dir).map_err(|error| NoiseError::Io {
            context: format!(
                "cannot create a file in {} (for {})",
                dir.display(),
                target.display()
            ),
            error: os_error(error),
        })?;
        Ok(AtomicFile {
            temp,
            target: target.to_path_buf(),
            overwrite,
        })
    }

    /// The temporary file, to write to.
    pub fn file(&self) -> &File {
        self.temp.as_file()
    }

    /// The path the file will have once committed.
    pub fn target(&self) -> &Path {
        &self.target
    }

    /// The temporary file's path (for tests and diagnostics).
    pub fn temp_path(&self) -> &Path {
        self.temp.path()
    }

    /// Syncs the data to disk and renames the file into place. Without `overwrite` the
    /// rename refuses to replace a file that appeared meanwhile.
    pub fn commit(self) -> Result<()> {
        let target = self.target;
        self.temp
            .as_file()
            .sync_all()
            .map_err(|error| NoiseError::Io {
                context: format!("writing {}", target.display()),
                error,
            })?;
        let persisted = if self.overwrite {
            self.temp.persist(&target)
        } else {
            self.temp.persist_noclobber(&target)
        };
        // On failure the returned NamedTempFile is dropped here, deleting the temporary file.
        persisted.map(drop).map_err(|e| {
            if e.error.kind() == std::io::ErrorKind::AlreadyExists {
                NoiseError::OutputExists(target.clone())
            } else {
                NoiseError::Io {
                    context: format!("renaming the finished file to {}", target.display()),
                    error: e.error,
                }
            }
        })
    }
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
/// \"dir/.out.npy.Xy12Ab.tmp\""); the message already names the directory and the output,
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
