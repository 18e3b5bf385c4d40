//! `grundy solve --processes N`: separate `grundy` processes on loopback, each with its
//! own tablebase directory as on separate machines, or all sharing one as on a cluster's
//! shared file system; the union of their tier files, or the one directory's, is the
//! single-machine tablebase, byte for byte. Faults: a process of another run is refused
//! at the handshake, a killed process stops the others with an error (its locks go with
//! it), and the rerun resumes.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Output, Stdio};
use std::time::{Duration, Instant};

const GRUNDY: &str = env!("CARGO_BIN_EXE_grundy");

/// Free loopback ports (bound, then released).
fn ports(n: usize) -> Vec<u16> {
    let listeners: Vec<std::net::TcpListener> = (0..n)
        .map(|_| std::net::TcpListener::bind("127.0.0.1:0").unwrap())
        .collect();
    listeners
        .iter()
        .map(|l| l.local_addr().unwrap().port())
        .collect()
}

fn hosts(dir: &Path, n: usize) -> PathBuf {
    let path = dir.join("hosts");
    let text: String = ports(n)
        .iter()
        .map(|p| format!("127.0.0.1:{p}\n"))
        .collect();
    std::fs::write(&path, text).unwrap();
    path
}

/// Starts process `i` of `n`, writing the tablebase in `dir`.
fn start(spec: &str, dir: &Path, hosts: &Path, n: usize, i: usize, extra: &[&str]) -> Child {
    Command::new(GRUNDY)
        .args(["solve", spec, "--tablebase"])
        .arg(dir)
        .args([
            "--workers",
            "1",
            "--processes",
            &n.to_string(),
            "--process",
            &i.to_string(),
            "--hosts",
        ])
        .arg(hosts)
        .args(["--peer-timeout", "20"])
        .args(extra)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap()
}

/// Waits for a child at most `limit`, killing it past that.
fn wait(mut child: Child, limit: Duration) -> Output {
    let started = Instant::now();
    while child.try_wait().unwrap().is_none() {
        if started.elapsed() > limit {
            child.kill().unwrap();
            let out = child.wait_with_output().unwrap();
            panic!(
                "a process ran past {limit:?}: {}",
                String::from_utf8_lossy(&out.stderr)
            );
        }
        std::thread::sleep(Duration::from_millis(20));
    }
    child.wait_with_output().unwrap()
}

/// The tier files of `dirs` (not their locks or manifest), by name; a name in several
/// must hold the same bytes in each.
fn files(dirs: &[PathBuf]) -> BTreeMap<String, Vec<u8>> {
    let mut all = BTreeMap::new();
    for dir in dirs {
        for e in std::fs::read_dir(dir).unwrap() {
            let e = e.unwrap();
            let name = e.file_name().into_string().unwrap();
            if grundy_tablebase::tier_of_file_name(&name).is_none() {
                continue;
            }
            let bytes = std::fs::read(e.path()).unwrap();
            if let Some(before) = all.insert(name.clone(), bytes.clone()) {
                assert_eq!(before, bytes, "{name} differs between processes");
            }
        }
    }
    all
}

fn single(spec: &str, dir: &Path) -> BTreeMap<String, Vec<u8>> {
    let out = Command::new(GRUNDY)
        .args(["solve", spec, "--tablebase"])
        .arg(dir)
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    files(&[dir.to_owned()])
}

/// The tablebase directory of each of `n` processes under `dir`: its own (`p0`, `p1`, …)
/// as on separate machines, or one they share (`shared`).
fn dirs(dir: &Path, n: usize, shared: bool) -> Vec<PathBuf> {
    (0..n)
        .map(|i| {
            dir.join(if shared {
                "shared".to_owned()
            } else {
                format!("p{i}")
            })
        })
        .collect()
}

/// Runs `n` processes of one worker each to the end, process `i` writing `dirs(dir, n,
/// shared)[i]`; returns process 0's standard output and every process's standard error.
fn cluster(spec: &str, dir: &Path, n: usize, shared: bool) -> (String, Vec<String>) {
    let hosts = hosts(dir, n);
    let children: Vec<Child> = dirs(dir, n, shared)
        .iter()
        .enumerate()
        .map(|(i, d)| start(spec, d, &hosts, n, i, &[]))
        .collect();
    let mut first = String::new();
    let mut errs = Vec::new();
    for (i, c) in children.into_iter().enumerate() {
        let out = wait(c, Duration::from_secs(120));
        let err = String::from_utf8_lossy(&out.stderr).into_owned();
        assert!(out.status.success(), "{spec}, process {i} of {n}: {err}");
        if i == 0 {
            first = String::from_utf8_lossy(&out.stdout).into_owned();
        }
        errs.push(err);
    }
    (first, errs)
}

fn same_as_single(spec: &str, n: usize, shared: bool) {
    let tmp = tempfile::tempdir().unwrap();
    let want = single(spec, &tmp.path().join("single"));
    let (out, _) = cluster(spec, tmp.path(), n, shared);
    assert!(out.contains(spec.split('[').next().unwrap()), "{out}");
    let mut dirs = dirs(tmp.path(), n, shared);
    dirs.dedup();
    let got = files(&dirs);
    assert_eq!(
        got.keys().collect::<Vec<_>>(),
        want.keys().collect::<Vec<_>>(),
        "{spec}"
    );
    for (name, bytes) in &want {
        assert!(
            got[name] == *bytes,
            "{spec} on {n} processes: {name} differs"
        );
    }
    // The processes' directories queried as one (`--also`) answer as the single one.
    let single_answer = query(spec, &tmp.path().join("single"), &[]);
    assert_eq!(query(spec, &dirs[0], &dirs[1..]), single_answer, "{spec}");
    if dirs.len() > 1 {
        // Without the others' files the start's tier or a tier it needs may be missing:
        // then the answer is refused, never different.
        let alone = Command::new(GRUNDY)
            .args(["query", spec, "--json", "--tablebase"])
            .arg(&dirs[0])
            .output()
            .unwrap();
        if alone.status.success() {
            assert_eq!(
                String::from_utf8_lossy(&alone.stdout),
                single_answer,
                "{spec}"
            );
        }
    }
}

/// `grundy query SPEC --json` on `dir`, reading `also` too.
fn query(spec: &str, dir: &Path, also: &[PathBuf]) -> String {
    let mut cmd = Command::new(GRUNDY);
    cmd.args(["query", spec, "--json", "--tablebase"]).arg(dir);
    for d in also {
        cmd.arg("--also").arg(d);
    }
    let out = cmd.output().unwrap();
    assert!(
        out.status.success(),
        "{spec}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8_lossy(&out.stdout).into_owned()
}

#[test]
fn two_processes_write_the_single_machine_tablebase() {
    for spec in [
        "tictactoe",
        "connect4[4x4]",
        "quixo[3]",
        "dots[2x2]",
        "kalah[3,3]",
        "hex[3]",
    ] {
        same_as_single(spec, 2, false);
        same_as_single(spec, 2, true);
    }
}

#[test]
fn four_processes_write_the_single_machine_tablebase() {
    for (spec, shared) in [
        ("connect4[4x4]", false),
        ("quixo[3]", true),
        ("kalah[3,3]", false),
    ] {
        same_as_single(spec, 4, shared);
    }
}

#[test]
fn a_solve_of_another_game_is_refused_a_shared_directory() {
    let tmp = tempfile::tempdir().unwrap();
    cluster("tictactoe", tmp.path(), 2, true);
    let shared = tmp.path().join("shared");
    let want = files(std::slice::from_ref(&shared));
    let hosts = hosts(tmp.path(), 2);
    let a = start("connect4[4x4]", &shared, &hosts, 2, 0, &[]);
    let b = start("connect4[4x4]", &shared, &hosts, 2, 1, &[]);
    for c in [a, b] {
        let out = wait(c, Duration::from_secs(60));
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(!out.status.success());
        assert!(
            err.contains("holds the tablebase of another game")
                && err.contains("says `game tictactoe`, not `game connect4[4x4]`"),
            "{err}"
        );
    }
    // A solve of one process is refused too, by the same manifest.
    let out = Command::new(GRUNDY)
        .args(["solve", "connect4[4x4]", "--tablebase"])
        .arg(&shared)
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(!out.status.success());
    assert!(err.contains("holds the tablebase of another game"), "{err}");
    assert!(files(&[shared]) == want, "a refused solve wrote a file");
}

#[test]
fn process_zero_reports_each_tier_and_the_start() {
    let tmp = tempfile::tempdir().unwrap();
    let (out, errs) = cluster("tictactoe", tmp.path(), 2, false);
    assert!(out.contains("draw (5478 positions)"), "{out}");
    assert!(
        errs[0].contains("tier 0 solved: 1 positions"),
        "{}",
        errs[0]
    );
    assert!(!errs[1].contains("tier 0 solved"), "{}", errs[1]);
}

#[test]
fn a_process_of_another_game_is_refused_at_the_handshake() {
    let tmp = tempfile::tempdir().unwrap();
    let hosts = hosts(tmp.path(), 2);
    let a = start("connect4[4x4]", &tmp.path().join("p0"), &hosts, 2, 0, &[]);
    let b = start("connect4[5x4]", &tmp.path().join("p1"), &hosts, 2, 1, &[]);
    for c in [a, b] {
        let out = wait(c, Duration::from_secs(60));
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(!out.status.success());
        assert!(
            err.contains("is not part of this run") && err.contains("solves connect4["),
            "{err}"
        );
    }
}

#[test]
fn a_process_with_another_process_count_is_refused_at_the_handshake() {
    let tmp = tempfile::tempdir().unwrap();
    let hosts = hosts(tmp.path(), 3);
    let a = start("tictactoe", &tmp.path().join("p0"), &hosts, 2, 0, &[]);
    let b = start("tictactoe", &tmp.path().join("p1"), &hosts, 3, 1, &[]);
    let out = wait(a, Duration::from_secs(60));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(!out.status.success());
    assert!(err.contains("--processes 3, this one with 2"), "{err}");
    let out = wait(b, Duration::from_secs(60));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(!out.status.success());
    assert!(err.contains("--processes 2, this one with 3"), "{err}");
}

#[test]
fn a_killed_process_stops_the_others_and_the_rerun_resumes() {
    let spec = "connect4[5x4]";
    let tmp = tempfile::tempdir().unwrap();
    let want = single(spec, &tmp.path().join("single"));
    let hosts = hosts(tmp.path(), 2);
    // One directory they share: process 1 killed while it writes leaves its tier's lock
    // to the system, and perhaps a temporary file, which the rerun removes.
    let shared = tmp.path().join("shared");
    let a = start(spec, &shared, &hosts, 2, 0, &[]);
    let mut b = start(spec, &shared, &hosts, 2, 1, &[]);
    // Kill process 1 once it has written a few tiers (the odd ones are its).
    let started = Instant::now();
    loop {
        let written = std::fs::read_dir(&shared)
            .map(|d| {
                d.filter_map(Result::ok)
                    .filter_map(|e| {
                        grundy_tablebase::tier_of_file_name(&e.file_name().to_string_lossy())
                    })
                    .filter(|t| t % 2 == 1)
                    .count()
            })
            .unwrap_or(0);
        if written >= 2 {
            break;
        }
        assert!(
            started.elapsed() < Duration::from_secs(120),
            "no tier written"
        );
        std::thread::sleep(Duration::from_millis(5));
    }
    b.kill().unwrap();
    b.wait().unwrap();
    let out = wait(a, Duration::from_secs(60));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(!out.status.success(), "process 0 went on: {err}");
    assert!(err.contains("lost") || err.contains("no answer"), "{err}");
    let kept = files(std::slice::from_ref(&shared)).len();
    assert!(
        kept >= 2 && kept < want.len(),
        "{kept} tiers kept of {}",
        want.len()
    );
    // The rerun reads what both kept and solves the rest.
    let (_, errs) = cluster(spec, tmp.path(), 2, true);
    assert!(
        errs[0].contains(&format!("{} solved now", want.len() - kept)) || errs[0].contains("read)"),
        "{}",
        errs[0]
    );
    let got = files(&[shared]);
    assert!(got == want, "the resumed tablebase differs");
}

/// Two network namespaces of the test's own joined by a veth pair, removed on drop.
struct Namespaces {
    names: [String; 2],
}

impl Namespaces {
    /// `None` (with the reason) where the machine refuses them (not root, no `ip`).
    fn new() -> Result<Namespaces, String> {
        let id = std::process::id() % 10_000;
        let names = [format!("grundy-a{id}"), format!("grundy-b{id}")];
        let ip = |args: &[&str]| -> Result<(), String> {
            let out = Command::new("ip")
                .args(args)
                .output()
                .map_err(|e| format!("cannot run ip: {e}"))?;
            if out.status.success() {
                Ok(())
            } else {
                Err(format!(
                    "ip {}: {}",
                    args.join(" "),
                    String::from_utf8_lossy(&out.stderr).trim()
                ))
            }
        };
        let ns = Namespaces {
            names: names.clone(),
        };
        let [a, b] = &names;
        let (va, vb) = (format!("gva{id}"), format!("gvb{id}"));
        ip(&["netns", "add", a])?;
        ip(&["netns", "add", b])?;
        ip(&["link", "add", &va, "type", "veth", "peer", "name", &vb])?;
        ip(&["link", "set", &va, "netns", a])?;
        ip(&["link", "set", &vb, "netns", b])?;
        for (n, v, addr) in [(a, &va, "10.213.7.1/24"), (b, &vb, "10.213.7.2/24")] {
            ip(&["-n", n, "addr", "add", addr, "dev", v])?;
            ip(&["-n", n, "link", "set", v, "up"])?;
            ip(&["-n", n, "link", "set", "lo", "up"])?;
        }
        Ok(ns)
    }
}

impl Drop for Namespaces {
    fn drop(&mut self) {
        for n in &self.names {
            let _ = Command::new("ip").args(["netns", "del", n]).output();
        }
    }
}

#[test]
fn two_processes_in_network_namespaces_talk_over_veth() {
    let ns = match Namespaces::new() {
        Ok(ns) => ns,
        Err(why) => {
            eprintln!("skipped: network namespaces are refused here ({why})");
            return;
        }
    };
    let spec = "connect4[4x4]";
    let tmp = tempfile::tempdir().unwrap();
    let want = single(spec, &tmp.path().join("single"));
    let hosts = tmp.path().join("hosts");
    std::fs::write(&hosts, "10.213.7.1:2101\n10.213.7.2:2101\n").unwrap();
    let children: Vec<Child> = (0..2)
        .map(|i| {
            Command::new("ip")
                .args([
                    "netns",
                    "exec",
                    &ns.names[i],
                    GRUNDY,
                    "solve",
                    spec,
                    "--tablebase",
                ])
                .arg(tmp.path().join(format!("p{i}")))
                .args([
                    "--workers",
                    "1",
                    "--processes",
                    "2",
                    "--process",
                    &i.to_string(),
                    "--hosts",
                ])
                .arg(&hosts)
                .args(["--peer-timeout", "20"])
                .stdin(Stdio::null())
                .stdout(Stdio::piped())
                .stderr(Stdio::piped())
                .spawn()
                .unwrap()
        })
        .collect();
    for (i, c) in children.into_iter().enumerate() {
        let out = wait(c, Duration::from_secs(120));
        assert!(
            out.status.success(),
            "process {i}: {}",
            String::from_utf8_lossy(&out.stderr)
        );
    }
    let got = files(&[tmp.path().join("p0"), tmp.path().join("p1")]);
    assert!(
        got == want,
        "the tablebase over veth differs from the single machine's"
    );
    drop(ns);
}
