#![no_main]
// The property lives in the library so that the corpus-replay test checks the same thing.
libfuzzer_sys::fuzz_target!(|data: &[u8]| grundy_fuzz::tablebase(data));
