//! `long_running` in a process of its own (it changes the allocator's settings for the
//! whole process, which the unit tests' reuse check would see).
#![cfg(all(target_os = "linux", target_env = "gnu"))]

use std::alloc::{GlobalAlloc, Layout};

use grundy_alloc::Allocator;

/// After `long_running`, a large block is mapped on its own again (glibc's default), as
/// it is not under the reuse the allocator sets up otherwise: freed, it goes back to the
/// system at once. (The second block is larger than the first, which the heap's top may
/// still hold free.)
#[test]
fn a_long_running_process_maps_large_blocks_on_their_own() {
    if std::env::var_os("GRUNDY_REUSE").is_some_and(|v| v == "0") {
        return;
    }
    let layout = Layout::from_size_align(8 << 20, 8).unwrap();
    let larger = Layout::from_size_align(16 << 20, 8).unwrap();
    let small = Layout::from_size_align(16, 8).unwrap();
    // Safety: valid layouts; each block is freed with its layout. `mallinfo2` only reads
    // the allocator's statistics.
    unsafe {
        let first = Allocator.alloc(small);
        Allocator.dealloc(first, small);
        let mapped = |size| {
            let before = libc::mallinfo2().hblks;
            let p = Allocator.alloc(size);
            assert!(!p.is_null());
            let during = libc::mallinfo2().hblks;
            Allocator.dealloc(p, size);
            during > before
        };
        assert!(!mapped(layout), "reuse: an 8 MiB block comes from the heap");
        grundy_alloc::long_running(1);
        assert!(mapped(larger), "long running: a 16 MiB block is mapped");
    }
}

/// The address-space limit is read as `ulimit -v` sets it: lowered to 1 TiB (far above
/// what this process takes; the hard limit where that is lower), then put back.
#[test]
fn the_address_space_limit_is_read() {
    let mut was = libc::rlimit {
        rlim_cur: 0,
        rlim_max: 0,
    };
    // Safety: `getrlimit` writes into the struct it is given; `setrlimit` reads the one
    // it is given, a soft limit within the hard one (and then the one read before).
    unsafe {
        assert_eq!(libc::getrlimit(libc::RLIMIT_AS, &mut was), 0);
        let bound = was.rlim_max.min(1 << 40);
        let lowered = libc::rlimit {
            rlim_cur: bound,
            rlim_max: was.rlim_max,
        };
        assert_eq!(libc::setrlimit(libc::RLIMIT_AS, &lowered), 0);
        let read = grundy_alloc::address_space_limit();
        assert_eq!(libc::setrlimit(libc::RLIMIT_AS, &was), 0);
        assert_eq!(read, Some(bound));
    }
    let expected = (was.rlim_cur != libc::RLIM_INFINITY).then_some(was.rlim_cur);
    assert_eq!(grundy_alloc::address_space_limit(), expected);
}
