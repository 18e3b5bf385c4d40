use std::path::PathBuf;
use std::process::Command;

fn main() {
    println!("cargo:rerun-if-changed=build.rs");
    println!("cargo:rerun-if-changed=text-order.txt");
    let os = std::env::var("CARGO_CFG_TARGET_OS").unwrap_or_default();
    let env = std::env::var("CARGO_CFG_TARGET_ENV").unwrap_or_default();
    if os != "linux" || env != "gnu" {
        return;
    }
    // The `grundy` binary is linked as a position-dependent executable on Linux with glibc:
    // a PIE of this size carries about 350 KB of relocations that the loader reads, and
    // 200 KB of vtables and string tables it writes, at every start, before `main`.
    // Without them the peak memory of a small solve went from about 6.1 to 5.1 MB. (musl's
    // toolchains link static PIEs by their own flags.)
    println!("cargo:rustc-link-arg-bins=-no-pie");

    // In a release build, the code that a start and a small solve run is laid out first and
    // together (text-order.txt, written by text-order.sh): the kernel maps each page of code
    // entered with those around it, and spread over the text that code had mapped 1.8 MB by
    // the time a process waited for its input; laid out together, 0.75 MB. Only where the
    // linker takes the list (rustc's own LLD does); a linker that does not gets nothing, so
    // the binary builds everywhere.
    if std::env::var("PROFILE").as_deref() == Ok("release") {
        let dir = PathBuf::from(std::env::var_os("CARGO_MANIFEST_DIR").expect("set by cargo"));
        let list = dir.join("text-order.txt");
        let args = [
            format!("-Wl,--symbol-ordering-file={}", list.display()),
            "-Wl,--no-warn-symbol-ordering".to_string(),
        ];
        if linker_takes(&args) {
            for arg in args {
                println!("cargo:rustc-link-arg-bins={arg}");
            }
        }
    }
}

/// Whether rustc, with this build's target and flags, links an empty program with `args`.
fn linker_takes(args: &[String]) -> bool {
    let (Some(rustc), Some(out)) = (std::env::var_os("RUSTC"), std::env::var_os("OUT_DIR")) else {
        return false;
    };
    let out = PathBuf::from(out);
    let source = out.join("probe.rs");
    if std::fs::write(&source, "fn main() {}\n").is_err() {
        return false;
    }
    let mut probe = Command::new(rustc);
    if let Ok(target) = std::env::var("TARGET") {
        probe.arg("--target").arg(target);
    }
    if let Ok(flags) = std::env::var("CARGO_ENCODED_RUSTFLAGS") {
        probe.args(flags.split('\x1f').filter(|flag| !flag.is_empty()));
    }
    for arg in args {
        probe.arg("-C").arg(format!("link-arg={arg}"));
    }
    probe
        .arg("-o")
        .arg(out.join("probe"))
        .arg(&source)
        .output()
        .is_ok_and(|output| output.status.success())
}
