//! A throwaway PostgreSQL server for the store's tests: `initdb` into a temporary folder,
//! a free port on 127.0.0.1, password authentication over TCP; stopped on drop.
//! Run as `nobody` when the tests run as root (PostgreSQL refuses to run as root).

#![allow(dead_code)]

use std::net::TcpListener;
use std::path::{Path, PathBuf};
use std::process::Command;

use harness::store::StoreUrl;

/// The superuser's name and password in the throwaway cluster.
pub const ADMIN: &str = "harness";
pub const PASSWORD: &str = "pw-Zq7-not-for-logs";

pub struct PgServer {
    dir: tempfile::TempDir,
    bin: PathBuf,
    pub port: u16,
    /// `Some("nobody")` when the tests run as root.
    run_as: Option<&'static str>,
}

/// The directory of Debian's PostgreSQL binaries (highest version), if installed.
fn pg_bin() -> Option<PathBuf> {
    let mut found: Vec<(u32, PathBuf)> = std::fs::read_dir("/usr/lib/postgresql")
        .ok()?
        .flatten()
        .filter_map(|e| {
            let v: u32 = e.file_name().to_str()?.parse().ok()?;
            let bin = e.path().join("bin");
            bin.join("initdb").exists().then_some((v, bin))
        })
        .collect();
    found.sort();
    found.pop().map(|(_, b)| b)
}

fn free_port() -> u16 {
    TcpListener::bind("127.0.0.1:0")
        .and_then(|l| l.local_addr())
        .map(|a| a.port())
        .expect("a free local port")
}

impl PgServer {
    /// Starts a server, or prints `SKIP:` and returns `None` when PostgreSQL is not installed.
    pub fn start(test: &str) -> Option<Self> {
        let Some(bin) = pg_bin() else {
            engine::testing::skip(format!(
                "{test}: no PostgreSQL binaries in /usr/lib/postgresql/*/bin (apt-get install postgresql)"
            ));
            return None;
        };
        let is_root = unsafe { libc::geteuid() } == 0;
        let run_as = is_root.then_some("nobody");
        let dir = tempfile::Builder::new()
            .prefix("harness-pg-")
            .tempdir()
            .expect("a temporary folder");
        std::fs::write(dir.path().join("pwfile"), PASSWORD).expect("write the password file");
        if is_root {
            let uid = nobody_uid();
            for p in [dir.path().to_path_buf(), dir.path().join("pwfile")] {
                let c = std::ffi::CString::new(p.to_str().expect("utf-8 path")).expect("path");
                let rc = unsafe { libc::chown(c.as_ptr(), uid, uid) };
                assert_eq!(rc, 0, "chown {} to nobody", p.display());
            }
        }
        let server = Self {
            dir,
            bin,
            port: free_port(),
            run_as,
        };
        let data = server.data_dir();
        let pwfile = server.dir.path().join("pwfile");
        server.run_tool(
            "initdb",
            &[
                "-D",
                data.to_str().expect("utf-8"),
                "-U",
                ADMIN,
                "--pwfile",
                pwfile.to_str().expect("utf-8"),
                "--auth-local=trust",
                "--auth-host=scram-sha-256",
                "-E",
                "UTF8",
                "--no-sync",
            ],
        );
        server.start_again();
        Some(server)
    }

    fn data_dir(&self) -> PathBuf {
        self.dir.path().join("data")
    }

    fn run_tool(&self, tool: &str, args: &[&str]) {
        let exe = self.bin.join(tool);
        let mut cmd = match self.run_as {
            Some(user) => {
                let mut c = Command::new("runuser");
                c.args(["-u", user, "--"]).arg(&exe);
                c
            }
            None => Command::new(&exe),
        };
        cmd.args(args).current_dir(self.dir.path());
        let out = cmd.output().unwrap_or_else(|e| panic!("run {tool}: {e}"));
        assert!(
            out.status.success(),
            "{tool} {args:?} failed: {}\n{}\nserver log:\n{}",
            String::from_utf8_lossy(&out.stdout),
            String::from_utf8_lossy(&out.stderr),
            std::fs::read_to_string(self.dir.path().join("log")).unwrap_or_default()
        );
    }

    /// Starts the server (again, after [`PgServer::stop`]) on the same port and data.
    pub fn start_again(&self) {
        let opts = format!(
            "-p {} -k {} -c listen_addresses=127.0.0.1 -c max_connections=120 -c fsync=off",
            self.port,
            self.dir.path().display()
        );
        let data = self.data_dir();
        let log = self.dir.path().join("log");
        self.run_tool(
            "pg_ctl",
            &[
                "-D",
                data.to_str().expect("utf-8"),
                "-l",
                log.to_str().expect("utf-8"),
                "-o",
                &opts,
                "-w",
                "-t",
                "60",
                "start",
            ],
        );
    }

    /// Stops the server (fast shutdown: open sessions are cut, committed data kept).
    pub fn stop(&self) {
        let data = self.data_dir();
        self.run_tool(
            "pg_ctl",
            &[
                "-D",
                data.to_str().expect("utf-8"),
                "-m",
                "fast",
                "-w",
                "stop",
            ],
        );
    }

    /// The URL of database `db` as the superuser (with its password).
    pub fn url(&self, db: &str) -> StoreUrl {
        self.url_as(ADMIN, PASSWORD, db)
    }

    pub fn url_as(&self, user: &str, password: &str, db: &str) -> StoreUrl {
        StoreUrl::parse(&format!(
            "postgres://{user}:{password}@127.0.0.1:{}/{db}",
            self.port
        ))
        .expect("a valid URL")
    }

    /// Runs SQL as the superuser in database `db`.
    pub fn sql(&self, db: &str, sql: &str) {
        let mut client = self
            .url(db)
            .config()
            .connect(postgres::NoTls)
            .expect("connect as the superuser");
        client.batch_execute(sql).expect("run SQL");
    }

    /// Creates an empty database.
    pub fn create_database(&self, name: &str) -> StoreUrl {
        self.sql("postgres", &format!("CREATE DATABASE {name}"));
        self.url(name)
    }

    pub fn dir(&self) -> &Path {
        self.dir.path()
    }
}

impl Drop for PgServer {
    fn drop(&mut self) {
        let exe = self.bin.join("pg_ctl");
        let data = self.data_dir();
        let mut cmd = match self.run_as {
            Some(user) => {
                let mut c = Command::new("runuser");
                c.args(["-u", user, "--"]).arg(&exe);
                c
            }
            None => Command::new(&exe),
        };
        let _ = cmd
            .arg("-D")
            .arg(&data)
            .args(["-m", "immediate", "-w", "stop"])
            .output();
    }
}

fn nobody_uid() -> u32 {
    let pw = unsafe { libc::getpwnam(c"nobody".as_ptr()) };
    assert!(!pw.is_null(), "no user nobody");
    unsafe { (*pw).pw_uid }
}
