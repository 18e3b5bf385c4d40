// The `grundy` binary is linked as a position-dependent executable on Linux with glibc: a
// PIE of this size carries about 350 KB of relocations that the loader reads, and 200 KB of
// vtables and string tables it writes, at every start, before `main`. Without them the peak
// memory of a small solve went from about 6.1 to 5.1 MB.
fn main() {
    let os = std::env::var("CARGO_CFG_TARGET_OS").unwrap_or_default();
    let env = std::env::var("CARGO_CFG_TARGET_ENV").unwrap_or_default();
    // glibc only: musl's toolchains link static PIEs by their own flags.
    if os == "linux" && env == "gnu" {
        println!("cargo:rustc-link-arg-bins=-no-pie");
    }
}
