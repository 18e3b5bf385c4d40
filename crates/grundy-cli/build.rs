// The `grundy` binary is linked as a position-dependent executable on Linux: a PIE of this
// size carries about 350 KB of relocations that the loader reads, and 200 KB of vtables and
// string tables it writes, at every start, before `main` — a quarter of the peak memory of a
// small solve, and paid again by each process.
fn main() {
    let os = std::env::var("CARGO_CFG_TARGET_OS").unwrap_or_default();
    if os == "linux" {
        println!("cargo:rustc-link-arg-bins=-no-pie");
    }
}
