//! Zeroed memory that costs nothing until it is used: a big table is asked of the allocator
//! already zeroed, and the system maps its pages as they are first written. Allocating and
//! clearing a table of hundreds of megabytes page by page takes from a tenth of a second to
//! over a second; a front end that must make a table on a move's clock (a Gomocup manager
//! sends `INFO max_memory` just before its `TURN`) makes it this way and lets the pages be
//! mapped on another thread (`SharedTable::map_next_chunk`), or by the search as it goes.

use std::alloc::{alloc_zeroed, dealloc, handle_alloc_error, Layout};
use std::ptr::NonNull;

/// The allocator's alignment for which it hands out calloc'd memory: fresh pages from the
/// system are known to be zero and are not written. (Rust's allocator clears a more aligned
/// block itself, which would map every page at once.)
const CALLOC_ALIGN: usize = 16;

/// Bytes of one small memory page: a write to one byte of each maps them all.
pub(crate) const PAGE: usize = 4096;

/// An owned block of zeroed bytes, at least 16-byte aligned.
pub(crate) struct ZeroedMemory {
    ptr: NonNull<u8>,
    layout: Layout,
}

// SAFETY: the block is plain memory owned by this value alone; what is stored in it and how
// threads share it is up to its user (the shared table keeps only atomics there).
unsafe impl Send for ZeroedMemory {}
// SAFETY: as above; `&ZeroedMemory` hands out only its address.
unsafe impl Sync for ZeroedMemory {}

impl ZeroedMemory {
    /// `bytes` zeroed bytes (at least one, so that the allocation is real).
    pub(crate) fn new(bytes: usize) -> ZeroedMemory {
        let layout = Layout::from_size_align(bytes.max(CALLOC_ALIGN), CALLOC_ALIGN)
            .expect("a table smaller than the address space");
        // SAFETY: the layout's size is not zero.
        let ptr = unsafe { alloc_zeroed(layout) };
        let ptr = NonNull::new(ptr).unwrap_or_else(|| handle_alloc_error(layout));
        ZeroedMemory { ptr, layout }
    }

    /// The first byte's address.
    pub(crate) fn address(&self) -> usize {
        self.ptr.as_ptr() as usize
    }

    /// The first byte (for pointers into the block: `address` is for arithmetic only).
    pub(crate) fn as_ptr(&self) -> *const u8 {
        self.ptr.as_ptr()
    }

    pub(crate) fn len(&self) -> usize {
        self.layout.size()
    }
}

impl Drop for ZeroedMemory {
    fn drop(&mut self) {
        // SAFETY: allocated in `new` with this very layout, and freed only here.
        unsafe { dealloc(self.ptr.as_ptr(), self.layout) }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_memory_is_zero_and_aligned() {
        for bytes in [0, 1, 100, 1 << 20, 40 << 20] {
            let m = ZeroedMemory::new(bytes);
            assert!(m.len() >= bytes);
            assert_eq!(m.address() % CALLOC_ALIGN, 0);
            // SAFETY: `len` bytes from `address` belong to `m`, and nothing else uses them.
            let slice = unsafe { std::slice::from_raw_parts(m.as_ptr(), m.len()) };
            assert!(slice.iter().step_by(997).all(|&b| b == 0));
        }
    }
}
