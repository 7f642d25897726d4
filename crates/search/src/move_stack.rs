//! One reusable move buffer per ply, so a recursive search allocates only while it warms up.

/// Buffers indexed by ply. `take` lends a buffer out (leaving an empty `Vec`, which costs
/// nothing) so the search can recurse while iterating it; `give` returns it for reuse.
pub struct MoveStack<M> {
    buffers: Vec<Vec<M>>,
}

impl<M> Default for MoveStack<M> {
    fn default() -> Self {
        MoveStack {
            buffers: Vec::new(),
        }
    }
}

impl<M> MoveStack<M> {
    /// An empty buffer for `ply`, with whatever capacity earlier searches gave it.
    pub fn take(&mut self, ply: usize) -> Vec<M> {
        if self.buffers.len() <= ply {
            self.buffers.resize_with(ply + 1, Vec::new);
        }
        let mut buffer = std::mem::take(&mut self.buffers[ply]);
        buffer.clear();
        buffer
    }

    pub fn give(&mut self, ply: usize, buffer: Vec<M>) {
        self.buffers[ply] = buffer;
    }
}
