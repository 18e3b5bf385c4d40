//! The global allocator of grundy's binaries: the system allocator, told to keep freed
//! memory for reuse (glibc), with every large block (4 MiB and more) advised to the kernel
//! as a candidate for transparent huge pages (Linux).
//!
//! Beside it, [`prefetch`]: the hint with which the library's searches start loading a
//! table entry before they read it (the library itself has no `unsafe`).
//!
//! ```
//! #[global_allocator]
//! static ALLOCATOR: grundy_alloc::Allocator = grundy_alloc::Allocator;
//!
//! let table = vec![0u32; 4 << 20]; // 16 MiB: advised, then faulted in 2 MiB at a time
//! assert_eq!(table.len(), 4 << 20);
//! ```
//!
//! # Why
//! Solving a large game writes tables of a few bytes per vertex, and on a fresh process
//! every page written is new: the kernel must fault it in and zero it first. With 4 KiB
//! pages that costs about 0.4 ms per MiB on our machines, a fifth to a third of the whole
//! time of a parity solve on millions of vertices; with 2 MiB pages it is about a quarter
//! of that (`examples/parity_bench compare`; the figures are in the README). Most Linux
//! systems ship transparent huge pages in `madvise` mode, where only advised memory gets
//! them, so a program has to ask. Not every machine gains: on a virtual machine whose host
//! takes back the memory its guest frees (free page reporting), a huge page taken after
//! another process freed its memory is faulted in on the host too, and a whole parity solve
//! of about a second was measured taking up to 1.5 times as long with the advice as without
//! (README, "Parity games against Oink"); `GRUNDY_HUGE_PAGES=0` turns it off there.
//!
//! Fresh pages are also paid again and again by default: glibc serves every block from
//! 128 KiB up (up to 32 MiB, as it adapts) with a mapping of its own and unmaps it when it
//! is freed, so a solve that frees one stage's tables and allocates the next stage's faults
//! in the same amount of memory twice, and pays the unmapping besides. So on glibc the
//! allocator raises the mapping threshold to [`MAP_FROM`] and keeps up to [`KEEP_FREE`] of
//! free memory at the top of the heap: a freed table's pages serve the next table.
//!
//! # What it does not do
//! Small blocks are not advised (a huge page for a small vector wastes memory). Off Linux
//! it is the system allocator unchanged; the environment variable `GRUNDY_HUGE_PAGES=0`
//! turns the advice off, `GRUNDY_REUSE=0` the reuse. A table that is touched only here
//! and there costs more with huge pages (each touch zeroes 2 MiB), but never more than
//! writing the whole table would. Memory that is kept is not returned to the system until
//! the process ends, and a heap fragments where mappings do not: the peak of a process
//! that allocates and frees many large tables can be higher (on a random parity game of
//! 4·10^6 vertices: 3–4%); a program whose stages' tables are sized unlike each other (a
//! solve by tiers) turns the reuse off for large blocks with [`return_freed`].

#![deny(unsafe_op_in_unsafe_fn)]
#![warn(missing_docs)]

use std::alloc::{GlobalAlloc, Layout, System};

/// The system allocator, advising blocks of at least [`LARGE`] bytes as huge-page
/// candidates. See the [crate docs](crate).
#[derive(Debug, Clone, Copy, Default)]
pub struct Allocator;

/// The smallest block advised: large enough to hold at least one whole, aligned 2 MiB page.
pub const LARGE: usize = 4 << 20;

#[cfg(target_os = "linux")]
mod advice {
    use std::sync::atomic::{AtomicU8, Ordering};

    const HUGE: usize = 2 << 20;
    const UNKNOWN: u8 = 0;
    const ON: u8 = 1;
    const OFF: u8 = 2;
    static STATE: AtomicU8 = AtomicU8::new(UNKNOWN);

    /// Whether advice is wanted: read once from `GRUNDY_HUGE_PAGES`, without allocating
    /// (this runs inside the allocator).
    fn wanted() -> bool {
        match STATE.load(Ordering::Relaxed) {
            ON => true,
            OFF => false,
            _ => {
                // Safety: `getenv` reads the environment with a NUL-terminated name; the
                // result is only read, before any other call could change the variable.
                let value = unsafe { libc::getenv(c"GRUNDY_HUGE_PAGES".as_ptr()) };
                // Safety: a non-null result points to a NUL-terminated string.
                let off = !value.is_null() && unsafe { *value } == b'0' as libc::c_char;
                STATE.store(if off { OFF } else { ON }, Ordering::Relaxed);
                !off
            }
        }
    }

    /// Advises the whole 2 MiB pages inside `[p, p + size)`.
    pub(crate) fn advise(p: *mut u8, size: usize) {
        if p.is_null() || size < super::LARGE || !wanted() {
            return;
        }
        let start = (p as usize).next_multiple_of(HUGE);
        let end = (p as usize + size) & !(HUGE - 1);
        if end > start {
            // Safety: `[start, end)` lies inside a block the system allocator just handed
            // out, and MADV_HUGEPAGE changes how it is backed, never its contents. Failure
            // (an old kernel, huge pages disabled) leaves the memory as it was: ignored.
            unsafe {
                libc::madvise(start as *mut libc::c_void, end - start, libc::MADV_HUGEPAGE);
            }
        }
    }
}

/// Blocks of at least this many bytes get a mapping of their own (glibc): the tables of
/// games of up to tens of millions of vertices come from the heap, and reuse its pages.
pub const MAP_FROM: usize = 256 << 20;

/// Free memory up to this many bytes at the top of the heap is kept, not returned.
pub const KEEP_FREE: usize = 512 << 20;

#[cfg(all(target_os = "linux", target_env = "gnu"))]
mod reuse {
    use std::sync::atomic::{AtomicBool, Ordering};

    static DONE: AtomicBool = AtomicBool::new(false);

    /// Sets glibc's thresholds, once, before the first block is allocated (unless
    /// `GRUNDY_REUSE` is `0`). The first allocation happens while the program is still one
    /// thread (the runtime's own set-up), so no two threads race here.
    #[inline]
    pub(crate) fn tune() {
        if DONE.load(Ordering::Relaxed) {
            return;
        }
        DONE.store(true, Ordering::Relaxed);
        // `mallopt` changes how later blocks are placed, never a block's contents, and
        // refuses values it does not take (the thresholds then stay as they were).
        if off() {
            return;
        }
        // Safety: as above.
        unsafe {
            libc::mallopt(libc::M_MMAP_THRESHOLD, super::MAP_FROM as libc::c_int);
            libc::mallopt(libc::M_TRIM_THRESHOLD, super::KEEP_FREE as libc::c_int);
        }
    }

    /// Whether `GRUNDY_REUSE` is `0`.
    pub(crate) fn off() -> bool {
        // Safety: `getenv` reads the environment with a NUL-terminated name; the result is
        // only read.
        unsafe {
            let value = libc::getenv(c"GRUNDY_REUSE".as_ptr());
            !value.is_null() && *value == b'0' as libc::c_char
        }
    }
}

#[cfg(all(target_os = "linux", target_env = "gnu"))]
mod serving {
    /// glibc's own starting thresholds (`M_MMAP_THRESHOLD`, `M_TRIM_THRESHOLD`): 128 KiB.
    const GLIBC_THRESHOLD: usize = 128 << 10;

    /// The address space each heap of a thread reserves (64-bit glibc's `HEAP_MAX_SIZE`).
    const HEAP_RESERVE: u64 = 64 << 20;

    /// Blocks from `map` bytes up mapped on their own, free heap top past `trim` returned.
    fn set(map: usize, trim: usize) {
        // The reuse's thresholds are set once, at the first allocation: set them now, so
        // that a first allocation after this call does not put them back.
        super::reuse::tune();
        let int = |v: usize| libc::c_int::try_from(v).unwrap_or(libc::c_int::MAX);
        // Safety: `mallopt` changes how later blocks are placed, never a block's contents,
        // and refuses values it does not take (the setting then stays as it was).
        unsafe {
            libc::mallopt(libc::M_MMAP_THRESHOLD, int(map));
            libc::mallopt(libc::M_TRIM_THRESHOLD, int(trim));
        }
    }

    pub(crate) fn return_freed(from: usize) {
        // With the reuse turned off, glibc's own (adaptive) thresholds stay.
        if super::reuse::off() {
            return;
        }
        let from = from.max(GLIBC_THRESHOLD);
        set(from, from.saturating_mul(2));
    }

    pub(crate) fn long_running(arenas: usize) {
        set(GLIBC_THRESHOLD, GLIBC_THRESHOLD);
        // Under `ulimit -v` the heaps reserve at most an eighth of the address space.
        let most = super::address_space_limit().map_or(usize::MAX, |l| {
            usize::try_from(l / 8 / HEAP_RESERVE)
                .unwrap_or(usize::MAX)
                .max(1)
        });
        let arenas = libc::c_int::try_from(arenas.min(most).max(1)).unwrap_or(libc::c_int::MAX);
        // Safety: as above.
        unsafe {
            libc::mallopt(libc::M_ARENA_MAX, arenas);
        }
    }
}

#[cfg(not(all(target_os = "linux", target_env = "gnu")))]
mod reuse {
    pub(crate) fn tune() {}
}

#[cfg(not(all(target_os = "linux", target_env = "gnu")))]
mod serving {
    pub(crate) fn return_freed(_from: usize) {}
    pub(crate) fn long_running(_arenas: usize) {}
}

/// The blocks a solve by tiers gets mapped on their own ([`return_freed`]): 1 MiB and up.
pub const TABLES_FROM: usize = 1 << 20;

/// Tunes the allocator, from now on, for a solve whose stages allocate tables of sizes the
/// next stages do not reuse well (a solve by tiers: each tier's records, bits and moves
/// are sized by that tier): every block of at least `from` bytes (at least glibc's own
/// 128 KiB) gets a mapping of its own and goes back to the system when freed, and free
/// memory at the top of the heap past twice that is returned. With `GRUNDY_REUSE=0` it
/// does nothing (glibc's own thresholds stay). Kept in the heap instead,
/// such tables leave holes the next tier's do not fit: `connect4[5x5]` on one thread
/// peaked at 158 MiB with the reuse and 118 MiB without, at the same time; quixo 4×4 on
/// two threads at 218 against 149 MiB with `from` at 1 MiB, for about 2% more CPU in the
/// kernel (fresh pages faulted in). Smaller blocks (messages, buffers) still reuse the
/// heap. Elsewhere than glibc it does nothing.
pub fn return_freed(from: usize) {
    serving::return_freed(from);
}

/// Tunes the allocator for a process that lives long and answers many bounded requests
/// (`grundy serve`), from now on: freed memory goes back to the system as glibc does by
/// default, rather than being kept for the next table (a server's footprint falls back
/// after a large request), and the threads share at most `arenas` heaps (at least one;
/// under `ulimit -v`, no more than an eighth of the address space reserves). On 64-bit
/// glibc each heap a thread gets reserves 64 MiB of address space, so a server whose
/// blocking pool grows to a dozen threads holds most of a 1 GiB `ulimit -v` before it
/// allocates anything. Elsewhere it does nothing.
pub fn long_running(arenas: usize) {
    serving::long_running(arenas);
}

/// The address space this process may take, in bytes (`ulimit -v`, `RLIMIT_AS`), or
/// `None` when it is not bounded (or off Linux).
pub fn address_space_limit() -> Option<u64> {
    #[cfg(target_os = "linux")]
    {
        let mut limit = libc::rlimit {
            rlim_cur: 0,
            rlim_max: 0,
        };
        // Safety: `getrlimit` writes the limit into the struct it is given, nothing else.
        let ok = unsafe { libc::getrlimit(libc::RLIMIT_AS, &mut limit) } == 0;
        (ok && limit.rlim_cur != libc::RLIM_INFINITY).then_some(limit.rlim_cur)
    }
    #[cfg(not(target_os = "linux"))]
    {
        None
    }
}

#[cfg(not(target_os = "linux"))]
mod advice {
    pub(crate) fn advise(_p: *mut u8, _size: usize) {}
}

// Safety: every call is forwarded to `System` with the caller's arguments unchanged; the
// advice afterwards does not touch the block's contents or its layout.
unsafe impl GlobalAlloc for Allocator {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        reuse::tune();
        // Safety: forwarded with the caller's guarantees.
        let p = unsafe { System.alloc(layout) };
        advice::advise(p, layout.size());
        p
    }

    unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
        reuse::tune();
        // Safety: forwarded with the caller's guarantees.
        let p = unsafe { System.alloc_zeroed(layout) };
        advice::advise(p, layout.size());
        p
    }

    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        // Safety: forwarded with the caller's guarantees.
        unsafe { System.dealloc(ptr, layout) }
    }

    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        // Safety: forwarded with the caller's guarantees.
        let p = unsafe { System.realloc(ptr, layout, new_size) };
        advice::advise(p, new_size);
        p
    }
}

/// Asks the processor to start loading the cache line of `value`, and returns at once: a
/// hint, which changes no value and never faults. A search that knows which table entry
/// it will read soon calls it first, so that the work in between overlaps the wait for
/// memory (the exact search: 5 to 10% less time on connect four's larger searches, whose
/// table is read at nearly every node). On processors other than x86-64 it does nothing.
#[inline(always)]
pub fn prefetch<T>(value: &T) {
    #[cfg(target_arch = "x86_64")]
    // Safety: `_mm_prefetch` needs SSE, which every x86-64 processor has; it reads no
    // memory the program can observe, and the address is that of a live reference.
    unsafe {
        use std::arch::x86_64::{_mm_prefetch, _MM_HINT_T0};
        _mm_prefetch::<_MM_HINT_T0>(std::ptr::from_ref(value).cast());
    }
    #[cfg(not(target_arch = "x86_64"))]
    let _ = value;
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Blocks of every size class come back usable, zeroed where asked, and keep their
    /// contents across growth.
    #[test]
    fn behaves_as_the_system_allocator() {
        let a = Allocator;
        for &size in &[1usize, 64, 4096, LARGE - 1, LARGE, 3 * LARGE + 12345] {
            let layout = Layout::from_size_align(size, 8).unwrap();
            // Safety: non-zero sizes, valid layouts; every block is freed with its layout.
            unsafe {
                let z = a.alloc_zeroed(layout);
                assert!(!z.is_null());
                assert!(std::slice::from_raw_parts(z, size).iter().all(|&b| b == 0));
                a.dealloc(z, layout);
                let p = a.alloc(layout);
                assert!(!p.is_null());
                std::ptr::write_bytes(p, 0xab, size);
                let q = a.realloc(p, layout, 2 * size + LARGE);
                assert!(!q.is_null());
                assert!(std::slice::from_raw_parts(q, size)
                    .iter()
                    .all(|&b| b == 0xab));
                a.dealloc(q, Layout::from_size_align(2 * size + LARGE, 8).unwrap());
            }
        }
    }

    /// On glibc a block below [`MAP_FROM`] comes from the heap, not from a mapping of its
    /// own (which glibc would give any block from 128 KiB up): the count of mapped blocks
    /// does not grow while one is held.
    #[cfg(all(target_os = "linux", target_env = "gnu"))]
    #[test]
    fn blocks_below_the_threshold_come_from_the_heap() {
        if std::env::var_os("GRUNDY_REUSE").is_some_and(|v| v == "0") {
            return;
        }
        let layout = Layout::from_size_align(8 << 20, 8).unwrap();
        // Safety: valid layouts; each block is freed with its layout. `mallinfo2` only
        // reads the allocator's statistics.
        unsafe {
            let first = Allocator.alloc(Layout::from_size_align(16, 8).unwrap());
            Allocator.dealloc(first, Layout::from_size_align(16, 8).unwrap());
            let before = libc::mallinfo2().hblks;
            let p = Allocator.alloc(layout);
            assert!(!p.is_null());
            let during = libc::mallinfo2().hblks;
            Allocator.dealloc(p, layout);
            assert_eq!(during, before, "an 8 MiB block was mapped on its own");
        }
    }

    /// On Linux a large block is advised: the kernel marks its mapping `hg` (huge-page
    /// advice) in `/proc/self/smaps`, whether or not huge pages are free to back it.
    #[cfg(target_os = "linux")]
    #[test]
    fn large_blocks_are_advised() {
        if std::env::var_os("GRUNDY_HUGE_PAGES").is_some_and(|v| v == "0") {
            return;
        }
        let size = 4 * LARGE;
        let layout = Layout::from_size_align(size, 8).unwrap();
        // Safety: a valid layout; freed with it below.
        let p = unsafe { Allocator.alloc(layout) } as usize;
        let smaps = std::fs::read_to_string("/proc/self/smaps").unwrap();
        // The mapping holding the middle of the block, and its VmFlags line.
        let middle = p + size / 2;
        let mut inside = false;
        let mut flags = None;
        for line in smaps.lines() {
            let head = line.split_whitespace().next().unwrap_or("");
            if let Some((lo, hi)) = head.split_once('-') {
                if let (Ok(lo), Ok(hi)) =
                    (usize::from_str_radix(lo, 16), usize::from_str_radix(hi, 16))
                {
                    inside = lo <= middle && middle < hi;
                    continue;
                }
            }
            if inside && line.starts_with("VmFlags:") {
                flags = Some(line.to_string());
            }
        }
        // Safety: allocated above with this layout.
        unsafe { Allocator.dealloc(p as *mut u8, layout) };
        let flags = flags.expect("the block's mapping is listed");
        assert!(flags.split_whitespace().any(|f| f == "hg"), "{flags}");
    }
}
