//! A cgroup (version 2) per program: the kernel keeps every process the program starts in it,
//! however it forks, `cgroup.freeze` pauses them all at once, `cgroup.kill` kills them all.
//!
//! The host makes its cgroups below its own one in the cgroup2 hierarchy (on a hybrid system, the
//! one mounted at `/sys/fs/cgroup/unified`), named `botbox-PIDNS-HOSTPID-HOSTSTART-N` (the inode of
//! the host's pid namespace, its id, its start time, a count). It needs write
//! access there and to its own cgroup's `cgroup.procs` (root, or a delegated subtree), and a kernel
//! with `cgroup.kill` (5.14): [`Base::discover`] tries all of it once, by moving a `/bin/sh` into a
//! test cgroup, and the host falls back to the subreaper otherwise. Cgroups left behind by a host
//! that died (one of the same pid namespace whose id and start time name no live process) are
//! killed and removed then too.

use std::fs::File;
use std::io;
use std::os::unix::fs::FileExt;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use super::tree::{self, REAP_TIME};

/// The host's own directory in the cgroup2 hierarchy, where it makes the programs' cgroups.
#[derive(Debug)]
pub(super) struct Base {
    dir: PathBuf,
}

impl Base {
    /// The host's cgroup2 directory if programs can be put in cgroups below it, tried for real.
    /// `host` names the host (`PIDNS-HOSTPID-HOSTSTART`) in the test cgroup's name.
    pub(super) fn discover(host: &str) -> Option<Base> {
        let mountinfo = std::fs::read_to_string("/proc/self/mountinfo").ok()?;
        let own = std::fs::read_to_string("/proc/self/cgroup").ok()?;
        let path = own.lines().find_map(|l| l.strip_prefix("0::"))?;
        let base = cgroup2_mounts(&mountinfo)
            .into_iter()
            .filter_map(|(root, mount)| own_dir(&root, &mount, path))
            .map(|dir| Base { dir })
            .find(|b| b.works(host))?;
        base.remove_stale(host);
        Some(base)
    }

    /// Makes a cgroup below the host's for one program, frozen: a process that joins it stops.
    pub(super) fn create(&self, tag: &str) -> io::Result<Cgroup> {
        let dir = self.dir.join(format!("botbox-{tag}"));
        std::fs::create_dir(&dir)?;
        let freeze = match File::options().write(true).open(dir.join("cgroup.freeze")) {
            Ok(file) => file,
            Err(e) => {
                let _ = std::fs::remove_dir(&dir);
                return Err(e);
            }
        };
        // From here on, dropping it removes the directory.
        let cgroup = Cgroup { dir, freeze };
        cgroup.freeze.write_at(b"1", 0)?;
        Ok(cgroup)
    }

    /// Whether a cgroup made here can be joined, frozen and killed.
    fn works(&self, host: &str) -> bool {
        let test = self.dir.join(format!("botbox-{host}-test"));
        if std::fs::create_dir(&test).is_err() {
            return false;
        }
        let has = |file: &str| test.join(file).exists();
        let joined = has("cgroup.freeze")
            && has("cgroup.kill")
            && Command::new("/bin/sh")
                .arg("-c")
                .arg("echo $$ > \"$1\"")
                .arg("sh")
                .arg(test.join("cgroup.procs"))
                .stdin(Stdio::null())
                .stdout(Stdio::null())
                .stderr(Stdio::null())
                .status()
                .is_ok_and(|s| s.success());
        remove_dir(&test, Instant::now() + Duration::from_millis(200));
        joined
    }

    /// Kills the processes of, and removes, the cgroups of hosts of the same pid namespace as
    /// `host` that are no longer alive.
    fn remove_stale(&self, host: &str) {
        let Ok(entries) = std::fs::read_dir(&self.dir) else {
            return;
        };
        let Some((ns, _, _)) = parse_name(&format!("botbox-{host}")) else {
            return;
        };
        for entry in entries.flatten() {
            let name = entry.file_name();
            let Some((their_ns, pid, start)) = name.to_str().and_then(parse_name) else {
                continue;
            };
            if their_ns != ns || tree::alive(pid, start) {
                continue;
            }
            let dir = entry.path();
            let _ = std::fs::write(dir.join("cgroup.kill"), "1");
            remove_dir(&dir, Instant::now() + Duration::from_millis(200));
        }
    }
}

/// The mounts of type cgroup2 in `mountinfo` (`/proc/self/mountinfo`): the hierarchy's directory
/// that each shows (its root), and where.
pub(super) fn cgroup2_mounts(mountinfo: &str) -> Vec<(String, PathBuf)> {
    mountinfo
        .lines()
        .filter_map(|line| {
            let (mount, fs) = line.split_once(" - ")?;
            if fs.split(' ').next()? != "cgroup2" {
                return None;
            }
            let fields: Vec<&str> = mount.split(' ').collect();
            Some((
                unescape(fields.get(3)?),
                PathBuf::from(unescape(fields.get(4)?)),
            ))
        })
        .collect()
}

/// `mountinfo` writes a space, a tab, a newline and a backslash in a path as octal escapes.
fn unescape(field: &str) -> String {
    field
        .replace("\\040", " ")
        .replace("\\011", "\t")
        .replace("\\012", "\n")
        .replace("\\134", "\\")
}

/// Where the cgroup `path` (from `/proc/self/cgroup`) is, on a cgroup2 mount at `mount` showing the
/// hierarchy from `root`; `None` if that mount does not show it.
pub(super) fn own_dir(root: &str, mount: &Path, path: &str) -> Option<PathBuf> {
    let rest = if root == "/" {
        path
    } else {
        path.strip_prefix(root)?
    };
    let dir = mount.join(rest.trim_start_matches('/'));
    dir.join("cgroup.procs").exists().then_some(dir)
}

/// The host's pid namespace, id and start time in a cgroup's name,
/// `botbox-PIDNS-HOSTPID-HOSTSTART-N`.
pub(super) fn parse_name(name: &str) -> Option<(u64, i32, u64)> {
    let mut parts = name.strip_prefix("botbox-")?.split('-');
    let ns = parts.next()?.parse().ok()?;
    let pid = parts.next()?.parse().ok()?;
    let start = parts.next()?.parse().ok()?;
    Some((ns, pid, start))
}

/// Removes an empty cgroup, trying until `deadline` while its processes finish dying.
fn remove_dir(dir: &Path, deadline: Instant) {
    let mut pause = Duration::from_micros(50);
    while std::fs::remove_dir(dir).is_err_and(|e| e.kind() != io::ErrorKind::NotFound) {
        if Instant::now() >= deadline {
            return;
        }
        std::thread::sleep(pause);
        pause = (pause * 2).min(Duration::from_millis(5));
    }
}

/// One program's cgroup; dropping it kills whatever is left in it and removes it.
#[derive(Debug)]
pub(super) struct Cgroup {
    dir: PathBuf,
    /// Kept open: pausing and resuming is one write each.
    freeze: File,
}

impl Cgroup {
    /// The file a process writes its id to, to join the cgroup.
    pub(super) fn procs(&self) -> PathBuf {
        self.dir.join("cgroup.procs")
    }

    /// The cgroup's CPU time file (`usage_usec`: every process and thread in it).
    pub(super) fn cpu_stat(&self) -> PathBuf {
        self.dir.join("cpu.stat")
    }

    pub(super) fn freeze(&self, frozen: bool) {
        let _ = self.freeze.write_at(if frozen { b"1" } else { b"0" }, 0);
    }

    /// The processes in the cgroup now: id and start time.
    pub(super) fn members(&self) -> Vec<(i32, u64)> {
        let text = std::fs::read_to_string(self.procs()).unwrap_or_default();
        text.lines()
            .filter_map(|l| tree::stat(l.trim().parse().ok()?))
            .map(|s| (s.pid, s.start))
            .collect()
    }

    /// Sends `SIGKILL` to every process in the cgroup, frozen or not; the kernel also kills those
    /// being forked meanwhile.
    pub(super) fn kill(&self) {
        if std::fs::write(self.dir.join("cgroup.kill"), "1").is_err() {
            for (pid, _) in self.members() {
                let _ = nix::sys::signal::kill(
                    nix::unistd::Pid::from_raw(pid),
                    nix::sys::signal::Signal::SIGKILL,
                );
            }
        }
    }

    /// Waits until no process is left in the cgroup (zombies do not count), at most until
    /// `deadline`.
    pub(super) fn wait_empty(&self, deadline: Instant) {
        let events = self.dir.join("cgroup.events");
        let mut pause = Duration::from_micros(50);
        while std::fs::read_to_string(&events).is_ok_and(|e| e.contains("populated 1")) {
            if Instant::now() >= deadline {
                return;
            }
            std::thread::sleep(pause);
            pause = (pause * 2).min(Duration::from_millis(5));
        }
    }
}

impl Drop for Cgroup {
    fn drop(&mut self) {
        self.kill();
        let deadline = Instant::now() + REAP_TIME;
        self.wait_empty(deadline);
        remove_dir(&self.dir, deadline);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cgroup2_mounts_are_found_in_mountinfo() {
        let mountinfo = "\
30 24 0:26 / /sys/fs/cgroup/memory rw,relatime shared:10 - cgroup cgroup rw,memory
41 31 0:38 / /sys/fs/cgroup/unified rw,relatime - cgroup2 cgroup2 rw
52 40 0:38 /kube/pod\\0401 /sys/fs/cgroup rw - cgroup2 cgroup2 rw,nsdelegate
";
        assert_eq!(
            cgroup2_mounts(mountinfo),
            [
                ("/".to_string(), PathBuf::from("/sys/fs/cgroup/unified")),
                ("/kube/pod 1".to_string(), PathBuf::from("/sys/fs/cgroup")),
            ]
        );
    }

    #[test]
    fn cgroup_names_tell_their_host() {
        let host = Some((4026531836, 4242, 98765));
        assert_eq!(parse_name("botbox-4026531836-4242-98765-3"), host);
        assert_eq!(parse_name("botbox-4026531836-4242-98765-test"), host);
        assert_eq!(parse_name("system.slice"), None);
        assert_eq!(parse_name("botbox-1-x-1-2"), None);
    }
}
