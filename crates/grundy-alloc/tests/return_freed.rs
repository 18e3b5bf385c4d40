//! `return_freed` in a process of its own (it changes the allocator's settings for the
//! whole process, which the unit tests' reuse check would see).
#![cfg(all(target_os = "linux", target_env = "gnu"))]

use std::alloc::{GlobalAlloc, Layout};

use grundy_alloc::Allocator;

/// Whether a block of `size` bytes gets a mapping of its own (held, then freed).
fn mapped(size: usize) -> bool {
    let layout = Layout::from_size_align(size, 8).unwrap();
    // Safety: a valid layout, freed with it. `mallinfo2` only reads the allocator's
    // statistics.
    unsafe {
        let before = libc::mallinfo2().hblks;
        let p = Allocator.alloc(layout);
        assert!(!p.is_null());
        let during = libc::mallinfo2().hblks;
        Allocator.dealloc(p, layout);
        during > before
    }
}

/// After `return_freed(TABLES_FROM)`, blocks of 2 and 4 MiB are mapped on their own (and
/// so go back to the system when freed) where the reuse serves a block of 512 KiB from the
/// heap, while a block under the threshold still comes from the heap. (Free memory the
/// heap already holds still serves what fits in it, so the blocks after the call are
/// larger than the one before.)
#[test]
fn blocks_from_the_threshold_up_are_mapped_on_their_own() {
    if std::env::var_os("GRUNDY_REUSE").is_some_and(|v| v == "0") {
        return;
    }
    // The first allocation sets up the reuse.
    drop(vec![0u8; 16]);
    assert!(
        !mapped(512 << 10),
        "reuse: a 512 KiB block comes from the heap"
    );
    grundy_alloc::return_freed(grundy_alloc::TABLES_FROM);
    assert!(mapped(2 << 20), "a 2 MiB block is mapped on its own");
    assert!(mapped(4 << 20), "a 4 MiB block is mapped on its own");
    assert!(
        !mapped(256 << 10),
        "a 256 KiB block still comes from the heap"
    );
}
