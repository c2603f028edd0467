//! Watches an SQLite store's file under a running server: if it is deleted, replaced or made read-only, writes are
//! refused with [`StoreError::Unwritable`] instead of going on into a file that is no longer the database.
//!
//! SQLite keeps writing to the file it opened even after it is unlinked: every commit would succeed and every move
//! would be gone at the next start, which would then quietly make a new empty database (and a new cookie key, so
//! every player a new identity). One `stat` before each commit (a few microseconds, shared by every write of a group
//! commit) catches that.

use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, Ordering};

use crate::error::StoreError;

/// The database file as it was opened.
#[derive(Debug)]
pub(crate) struct FileGuard {
    path: PathBuf,
    /// Device and inode at open (Unix); the path naming another file means the database was replaced.
    id: Option<(u64, u64)>,
    /// Whether the file did not exist before this store opened it (a new, empty database).
    created: bool,
    /// Whether the last check found a problem (the log says so once per change).
    failing: AtomicBool,
}

impl FileGuard {
    /// The file an `sqlite://` URL names, or `None` for a database in memory.
    pub(crate) fn path_of(url: &str) -> Option<PathBuf> {
        if url.contains(":memory:") || url.contains("mode=memory") {
            return None;
        }
        let rest = url
            .strip_prefix("sqlite://")
            .or_else(|| url.strip_prefix("sqlite:"))?;
        let path = rest.split('?').next().unwrap_or(rest);
        (!path.is_empty()).then(|| PathBuf::from(path))
    }

    /// Whether the file exists yet (asked before opening).
    pub(crate) fn exists(path: &Path) -> bool {
        path.exists()
    }

    /// Starts watching `path`, just opened; `created` says it did not exist before.
    pub(crate) fn new(path: PathBuf, created: bool) -> FileGuard {
        let id = std::fs::metadata(&path).ok().and_then(|m| identity(&m));
        FileGuard {
            path,
            id,
            created,
            failing: AtomicBool::new(false),
        }
    }

    /// Whether this store made a new database file when it opened.
    pub(crate) fn created(&self) -> bool {
        self.created
    }

    /// The file's path.
    pub(crate) fn path(&self) -> &Path {
        &self.path
    }

    /// Checks that the path still names the opened file and that it is writable.
    ///
    /// # Errors
    /// [`StoreError::Unwritable`] saying what happened to the file.
    pub(crate) fn check(&self) -> Result<(), StoreError> {
        let problem = match std::fs::metadata(&self.path) {
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => Some("was deleted".to_owned()),
            Err(e) => Some(format!("cannot be checked: {e}")),
            Ok(m) if self.id.is_some() && identity(&m) != self.id => {
                Some("was replaced by another file".to_owned())
            }
            Ok(m) if m.permissions().readonly() => Some("was made read-only".to_owned()),
            Ok(_) => None,
        };
        match problem {
            None => {
                if self.failing.swap(false, Ordering::Relaxed) {
                    tracing::warn!(path = %self.path.display(), "the database file is writable again");
                }
                Ok(())
            }
            Some(problem) => {
                let message = format!("the database file {} {problem}", self.path.display());
                if !self.failing.swap(true, Ordering::Relaxed) {
                    tracing::error!("{message}: refusing every write until it is back");
                }
                Err(StoreError::Unwritable(message))
            }
        }
    }
}

#[cfg(unix)]
fn identity(meta: &std::fs::Metadata) -> Option<(u64, u64)> {
    use std::os::unix::fs::MetadataExt;
    Some((meta.dev(), meta.ino()))
}

#[cfg(not(unix))]
fn identity(_meta: &std::fs::Metadata) -> Option<(u64, u64)> {
    None
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]
    use super::*;

    #[test]
    fn the_path_comes_from_the_url() {
        assert_eq!(
            FileGuard::path_of("sqlite://data/p.db?mode=rwc"),
            Some(PathBuf::from("data/p.db"))
        );
        assert_eq!(FileGuard::path_of("sqlite:p.db"), Some(PathBuf::from("p.db")));
        assert_eq!(FileGuard::path_of("sqlite::memory:"), None);
        assert_eq!(FileGuard::path_of("sqlite://x?mode=memory"), None);
    }

    #[test]
    fn a_deleted_replaced_or_read_only_file_is_refused() {
        let dir = std::env::temp_dir().join(format!("parlor-guard-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("p.db");
        std::fs::write(&path, b"x").unwrap();
        let guard = FileGuard::new(path.clone(), true);
        assert!(guard.created());
        guard.check().unwrap();

        let mut perms = std::fs::metadata(&path).unwrap().permissions();
        perms.set_readonly(true);
        std::fs::set_permissions(&path, perms.clone()).unwrap();
        let err = guard.check().unwrap_err().to_string();
        assert!(err.contains("read-only"), "{err}");
        #[allow(clippy::permissions_set_readonly_false)]
        perms.set_readonly(false);
        std::fs::set_permissions(&path, perms).unwrap();
        guard.check().unwrap();

        // Held open so that the replacement below cannot get the same inode.
        let _held = std::fs::File::open(&path).unwrap();
        std::fs::remove_file(&path).unwrap();
        let err = guard.check().unwrap_err().to_string();
        assert!(err.contains("deleted"), "{err}");

        std::fs::write(&path, b"another").unwrap();
        if cfg!(unix) {
            let err = guard.check().unwrap_err().to_string();
            assert!(err.contains("replaced"), "{err}");
        }
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
