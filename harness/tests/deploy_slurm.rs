//! `deploy/slurm/workers.sbatch` on a single-node Slurm started here: munged, slurmctld and
//! slurmd with a slurm.conf written to a temporary folder (free ports, the current user as
//! SlurmUser). An array job of workers drains a test in a throwaway PostgreSQL, each pair
//! committed exactly once, by tasks named slurm-JOBID-TASKID; and a submission without
//! HARNESS_STORE fails with the script's message. Skipped, with the reason, where Slurm or
//! PostgreSQL are not installed or cannot start, or the harness has no `worker` command.

mod deploy_common;
mod store_common;

use std::io::Read;
use std::net::TcpListener;
use std::os::unix::fs::PermissionsExt;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::{Duration, Instant};

use deploy_common::{StoreWithTest, harness_bin, repo_root, text, worker_command_missing};

/// The programs a single-node Slurm needs (Debian's `slurm-wlm`, which brings `munge`).
const PROGRAMS: [&str; 8] = [
    "munged",
    "slurmctld",
    "slurmd",
    "sbatch",
    "squeue",
    "scontrol",
    "scancel",
    "sinfo",
];

/// Finds `name` on PATH or in the sbin folders (not always on a test's PATH).
fn find_program(name: &str) -> Option<PathBuf> {
    let path = std::env::var_os("PATH").unwrap_or_default();
    std::env::split_paths(&path)
        .chain(["/usr/sbin", "/sbin", "/usr/bin"].map(PathBuf::from))
        .map(|dir| dir.join(name))
        .find(|p| p.is_file())
}

fn free_port() -> u16 {
    TcpListener::bind("127.0.0.1:0")
        .and_then(|l| l.local_addr())
        .map(|a| a.port())
        .expect("a free local port")
}

/// This machine's short host name (Slurm's node name for it).
fn short_hostname() -> String {
    let mut buf = [0u8; 256];
    let rc = unsafe { libc::gethostname(buf.as_mut_ptr().cast(), buf.len()) };
    assert_eq!(rc, 0, "gethostname");
    let end = buf.iter().position(|&b| b == 0).unwrap_or(buf.len());
    let name = String::from_utf8_lossy(&buf[..end]).into_owned();
    name.split('.').next().unwrap_or(&name).to_string()
}

fn user_name() -> String {
    let pw = unsafe { libc::getpwuid(libc::geteuid()) };
    assert!(!pw.is_null(), "no passwd entry for this user");
    unsafe { std::ffi::CStr::from_ptr((*pw).pw_name) }
        .to_string_lossy()
        .into_owned()
}

/// munged, slurmctld and slurmd of a one-node cluster in a temporary folder; stopped on drop
/// (jobs cancelled first).
struct Cluster {
    dir: tempfile::TempDir,
    programs: std::collections::HashMap<&'static str, PathBuf>,
}

impl Cluster {
    /// Starts the cluster, or prints `SKIP:` with the reason and returns `None`.
    fn start() -> Option<Self> {
        let mut programs = std::collections::HashMap::new();
        for name in PROGRAMS {
            let Some(path) = find_program(name) else {
                engine::testing::skip(format!("no {name} (apt-get install slurm-wlm)"));
                return None;
            };
            programs.insert(name, path);
        }
        let dir = tempfile::Builder::new()
            .prefix("harness-slurm-")
            .tempdir()
            .expect("a temporary folder");
        let cluster = Self { dir, programs };
        match cluster.boot() {
            Ok(()) => Some(cluster),
            Err(why) => {
                engine::testing::skip(format!("a single-node Slurm cannot start here: {why}"));
                None
            }
        }
    }

    fn path(&self, name: &str) -> PathBuf {
        self.dir.path().join(name)
    }

    fn conf(&self) -> PathBuf {
        self.path("slurm.conf")
    }

    /// A Slurm client command (sbatch, squeue, ...) using this cluster's slurm.conf.
    fn client(&self, name: &str) -> Command {
        let mut cmd = Command::new(&self.programs[name]);
        cmd.env("SLURM_CONF", self.conf());
        cmd
    }

    fn boot(&self) -> Result<(), String> {
        let root = self.dir.path();
        // munged wants its socket's folder (and the path to it) searchable by everyone, and
        // its key readable by its user only.
        for sub in ["", "run", "munge", "state", "spool", "log", "jobs"] {
            let d = root.join(sub);
            std::fs::create_dir_all(&d).map_err(|e| format!("create {}: {e}", d.display()))?;
            let mode = if sub == "munge" { 0o700 } else { 0o755 };
            std::fs::set_permissions(&d, std::fs::Permissions::from_mode(mode))
                .map_err(|e| format!("chmod {}: {e}", d.display()))?;
        }
        let mut key = vec![0u8; 1024];
        std::fs::File::open("/dev/urandom")
            .and_then(|mut f| f.read_exact(&mut key))
            .map_err(|e| format!("read /dev/urandom for the munge key: {e}"))?;
        let key_file = root.join("munge/munge.key");
        std::fs::write(&key_file, key).map_err(|e| format!("write the munge key: {e}"))?;
        std::fs::set_permissions(&key_file, std::fs::Permissions::from_mode(0o400))
            .map_err(|e| format!("chmod the munge key: {e}"))?;

        let socket = root.join("run/munge.socket");
        let arg = |flag: &str, p: &Path| format!("--{flag}={}", p.display());
        self.daemon(
            Command::new(&self.programs["munged"]).args([
                arg("socket", &socket),
                arg("key-file", &key_file),
                arg("log-file", &root.join("log/munged.log")),
                arg("pid-file", &root.join("run/munged.pid")),
                arg("seed-file", &root.join("munge/munged.seed")),
            ]),
            "munged",
            "log/munged.log",
        )?;

        let host = short_hostname();
        let user = user_name();
        let cpus = std::thread::available_parallelism().map_or(1, |n| n.get());
        let r = root.display();
        let conf = format!(
            "# A one-node cluster for harness's deploy test.\n\
             ClusterName=harnesstest\n\
             SlurmctldHost={host}(127.0.0.1)\n\
             SlurmctldPort={ctld_port}\n\
             SlurmdPort={slurmd_port}\n\
             AuthType=auth/munge\n\
             AuthInfo=socket={socket}\n\
             CredType=cred/munge\n\
             SlurmUser={user}\n\
             SlurmdUser={user}\n\
             StateSaveLocation={r}/state\n\
             SlurmdSpoolDir={r}/spool\n\
             SlurmctldPidFile={r}/run/slurmctld.pid\n\
             SlurmdPidFile={r}/run/slurmd.pid\n\
             SlurmctldLogFile={r}/log/slurmctld.log\n\
             SlurmdLogFile={r}/log/slurmd.log\n\
             MailProg=/bin/true\n\
             ProctrackType=proctrack/pgid\n\
             TaskPlugin=task/none\n\
             SelectType=select/cons_tres\n\
             SelectTypeParameters=CR_Core\n\
             JobAcctGatherType=jobacct_gather/none\n\
             AccountingStorageType=accounting_storage/none\n\
             MpiDefault=none\n\
             SwitchType=switch/none\n\
             ReturnToService=2\n\
             # Keep finished jobs visible to scontrol while the test reads them.\n\
             MinJobAge=600\n\
             NodeName={host} NodeAddr=127.0.0.1 CPUs={cpus} RealMemory=500 State=UNKNOWN\n\
             PartitionName=test Nodes={host} Default=YES MaxTime=INFINITE State=UP\n",
            ctld_port = free_port(),
            slurmd_port = free_port(),
            socket = socket.display(),
        );
        std::fs::write(self.conf(), conf).map_err(|e| format!("write slurm.conf: {e}"))?;
        let conf = self.conf();
        let conf = conf.to_str().expect("utf-8 path");
        self.daemon(
            Command::new(&self.programs["slurmctld"]).args(["-f", conf]),
            "slurmctld",
            "log/slurmctld.log",
        )?;
        self.daemon(
            Command::new(&self.programs["slurmd"]).args(["-f", conf]),
            "slurmd",
            "log/slurmd.log",
        )?;

        // The node registers and turns idle.
        let deadline = Instant::now() + Duration::from_secs(60);
        loop {
            let out = self
                .client("sinfo")
                .args(["-h", "-o", "%T"])
                .output()
                .map_err(|e| format!("run sinfo: {e}"))?;
            let state = text(&out.stdout).trim().to_string();
            if out.status.success() && state == "idle" {
                return Ok(());
            }
            if Instant::now() > deadline {
                return Err(format!(
                    "the node is not idle after 60 s (sinfo: '{state}' {})\n{}",
                    text(&out.stderr).trim(),
                    self.logs()
                ));
            }
            std::thread::sleep(Duration::from_millis(200));
        }
    }

    /// Runs a daemon that forks into the background; an error with its log if it fails.
    fn daemon(&self, cmd: &mut Command, name: &str, log: &str) -> Result<(), String> {
        let out = cmd
            .output()
            .map_err(|e| format!("cannot run {name}: {e}"))?;
        if !out.status.success() {
            return Err(format!(
                "{name} failed ({}): {}\n{}",
                out.status,
                text(&out.stderr).trim(),
                std::fs::read_to_string(self.path(log)).unwrap_or_default()
            ));
        }
        Ok(())
    }

    fn logs(&self) -> String {
        ["log/slurmctld.log", "log/slurmd.log", "log/munged.log"]
            .iter()
            .map(|l| {
                let body = std::fs::read_to_string(self.path(l)).unwrap_or_default();
                let tail: Vec<&str> = body.lines().rev().take(15).collect();
                let tail: Vec<&str> = tail.into_iter().rev().collect();
                format!("--- {l} (last lines)\n{}", tail.join("\n"))
            })
            .collect::<Vec<_>>()
            .join("\n")
    }

    /// Submits deploy/slurm/workers.sbatch as an array of `tasks` (with `env` added to the
    /// submitter's environment, which sbatch passes on) and returns the array's job id.
    fn submit(&self, tasks: u32, env: &[(&str, &str)], worker_args: &[&str]) -> u64 {
        let script = repo_root().join("deploy/slurm/workers.sbatch");
        let mut cmd = self.client("sbatch");
        cmd.arg("--parsable")
            .arg(format!("--array=0-{}", tasks - 1))
            .arg("--cpus-per-task=1")
            .arg(format!(
                "--output={}/jobs/%A_%a.out",
                self.dir.path().display()
            ))
            .arg(format!("--chdir={}", self.dir.path().display()))
            .arg(&script)
            .args(worker_args)
            .env_remove("HARNESS_STORE")
            .env_remove("HARNESS_STORE_FILE")
            .envs(env.iter().copied());
        let out = cmd.output().expect("run sbatch");
        assert!(
            out.status.success(),
            "sbatch failed: {}\n{}",
            text(&out.stderr),
            self.logs()
        );
        let id = text(&out.stdout);
        id.trim()
            .split(';')
            .next()
            .and_then(|s| s.parse().ok())
            .unwrap_or_else(|| panic!("sbatch --parsable printed '{id}'"))
    }

    /// Waits until no task of `job` is queued or running; then each task's state and exit
    /// code (`JobState=COMPLETED`, `ExitCode=0:0`) by task id.
    fn wait(&self, job: u64, limit: Duration) -> Vec<(u32, String, String)> {
        let deadline = Instant::now() + limit;
        loop {
            let out = self
                .client("squeue")
                .args(["-h", "-o", "%i %T", "-j", &job.to_string()])
                .output()
                .expect("run squeue");
            if out.status.success() && text(&out.stdout).trim().is_empty() {
                break;
            }
            assert!(
                Instant::now() < deadline,
                "job {job} still queued or running after {limit:?}:\n{}\n{}\n{}",
                text(&out.stdout),
                self.job_outputs(),
                self.logs()
            );
            std::thread::sleep(Duration::from_millis(250));
        }
        let out = self
            .client("scontrol")
            .args(["-o", "show", "job", &job.to_string()])
            .output()
            .expect("run scontrol");
        let field = |line: &str, key: &str| {
            line.split_whitespace()
                .find_map(|kv| kv.strip_prefix(key))
                .unwrap_or("")
                .to_string()
        };
        let mut tasks: Vec<(u32, String, String)> = text(&out.stdout)
            .lines()
            .filter(|l| !l.trim().is_empty())
            .map(|l| {
                let task = field(l, "ArrayTaskId=").parse().unwrap_or(u32::MAX);
                (task, field(l, "JobState="), field(l, "ExitCode="))
            })
            .collect();
        tasks.sort();
        tasks
    }

    /// Every task's output file, for failure messages.
    fn job_outputs(&self) -> String {
        let mut files: Vec<PathBuf> = std::fs::read_dir(self.path("jobs"))
            .map(|d| d.flatten().map(|e| e.path()).collect())
            .unwrap_or_default();
        files.sort();
        files
            .iter()
            .map(|f| {
                format!(
                    "--- {}\n{}",
                    f.display(),
                    std::fs::read_to_string(f).unwrap_or_default()
                )
            })
            .collect::<Vec<_>>()
            .join("\n")
    }

    fn stop_daemon(&self, pid_file: &str) {
        let Some(pid) = std::fs::read_to_string(self.path(pid_file))
            .ok()
            .and_then(|p| p.trim().parse::<i32>().ok())
        else {
            return;
        };
        unsafe { libc::kill(pid, libc::SIGTERM) };
        let deadline = Instant::now() + Duration::from_secs(10);
        while unsafe { libc::kill(pid, 0) } == 0 && Instant::now() < deadline {
            std::thread::sleep(Duration::from_millis(50));
        }
        if unsafe { libc::kill(pid, 0) } == 0 {
            unsafe { libc::kill(pid, libc::SIGKILL) };
        }
    }
}

impl Drop for Cluster {
    fn drop(&mut self) {
        // Jobs first (a failed test may leave some), then the daemons.
        if let Some(scancel) = self.programs.get("scancel") {
            let _ = Command::new(scancel)
                .env("SLURM_CONF", self.conf())
                .args(["--user", &user_name()])
                .output();
            std::thread::sleep(Duration::from_millis(300));
        }
        self.stop_daemon("run/slurmd.pid");
        self.stop_daemon("run/slurmctld.pid");
        self.stop_daemon("run/munged.pid");
    }
}

#[test]
fn sbatch_without_a_store_url_fails_with_the_scripts_message() {
    let Some(cluster) = Cluster::start() else {
        return;
    };
    let bin = harness_bin();
    let job = cluster.submit(1, &[("HARNESS_BIN", bin.to_str().expect("utf-8"))], &[]);
    let tasks = cluster.wait(job, Duration::from_secs(120));
    assert_eq!(tasks.len(), 1, "{tasks:?}");
    assert_eq!(tasks[0].1, "FAILED", "{tasks:?}\n{}", cluster.job_outputs());
    assert_eq!(tasks[0].2, "2:0", "{tasks:?}");
    let output = cluster.job_outputs();
    assert!(
        output.contains("workers.sbatch: HARNESS_STORE is not set"),
        "{output}"
    );

    // The URL from a file (kept out of the job's environment) that cannot be read.
    let missing = cluster.path("no-such-url-file");
    let missing = missing.to_str().expect("utf-8");
    let job = cluster.submit(
        1,
        &[
            ("HARNESS_BIN", bin.to_str().expect("utf-8")),
            ("HARNESS_STORE_FILE", missing),
        ],
        &[],
    );
    let tasks = cluster.wait(job, Duration::from_secs(120));
    assert_eq!(tasks.len(), 1, "{tasks:?}");
    assert_eq!(
        (tasks[0].1.as_str(), tasks[0].2.as_str()),
        ("FAILED", "2:0")
    );
    let output = cluster.job_outputs();
    assert!(
        output.contains(&format!("cannot read HARNESS_STORE_FILE={missing}")),
        "{output}"
    );
}

#[test]
fn an_array_job_of_workers_drains_a_test() {
    let test = "an_array_job_of_workers_drains_a_test";
    let bin = harness_bin();
    if let Some(reason) = worker_command_missing(&bin) {
        engine::testing::skip(reason);
        return;
    }
    let Some(cluster) = Cluster::start() else {
        return;
    };
    let Some(store) = StoreWithTest::start(test, "deploy_slurm", 12) else {
        return;
    };
    let worker_url = store.worker_url();
    let test_id = store.test_id.to_string();
    let job = cluster.submit(
        2,
        &[
            ("HARNESS_STORE", &worker_url),
            ("HARNESS_BIN", bin.to_str().expect("utf-8")),
        ],
        &["--test", &test_id, "--batch", "2"],
    );
    let tasks = cluster.wait(job, Duration::from_secs(300));
    let outputs = cluster.job_outputs();
    assert_eq!(
        tasks,
        vec![
            (0, "COMPLETED".to_string(), "0:0".to_string()),
            (1, "COMPLETED".to_string(), "0:0".to_string()),
        ],
        "{outputs}"
    );
    assert!(
        !outputs.contains(deploy_common::WORKER_PASSWORD),
        "a password in the job output:\n{outputs}"
    );
    let names = [format!("slurm-{job}-0"), format!("slurm-{job}-1")];
    let workers = store.assert_drained(|w| names.iter().any(|n| n == w));
    eprintln!("pairs committed by {workers:?}");
}
