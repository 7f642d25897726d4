//! When a search must stop.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

/// Any combination of limits; the search stops at the first one reached. With none at all it
/// runs until the game tree is exhausted or a result is proven.
#[derive(Clone, Debug, Default)]
pub struct Limits {
    pub depth: Option<u32>,
    pub nodes: Option<u64>,
    /// The hard limit: the search returns by then, whatever it is doing.
    pub time: Option<Duration>,
    /// The time the search aims to spend, when it is less than `time`: a game clock lets a
    /// move whose best reply is still unclear run on past it, up to `time`. `None`: the aim
    /// is `time` itself.
    pub target: Option<Duration>,
    /// Set from another thread to stop at once.
    pub stop: Option<Arc<AtomicBool>>,
}

impl Limits {
    pub fn depth(depth: u32) -> Limits {
        Limits {
            depth: Some(depth),
            ..Limits::default()
        }
    }

    /// At most `nodes` positions, checked at every node (deterministic); the one that passes
    /// the limit is counted, so a stopped search reports `nodes + 1`.
    pub fn nodes(nodes: u64) -> Limits {
        Limits {
            nodes: Some(nodes),
            ..Limits::default()
        }
    }

    pub fn time(time: Duration) -> Limits {
        Limits {
            time: Some(time),
            ..Limits::default()
        }
    }

    /// The time the search aims to spend: `target`, else the hard limit.
    pub fn aim(&self) -> Option<Duration> {
        self.target.or(self.time)
    }

    pub fn with_stop(mut self, stop: Arc<AtomicBool>) -> Limits {
        self.stop = Some(stop);
        self
    }
}

/// The clock and counters a running search checks against its [`Limits`].
pub(crate) struct Budget {
    limits: Limits,
    start: Instant,
    deadline: Option<Instant>,
}

impl Budget {
    /// How many nodes pass between two looks at the clock and the stop flag: cheap enough
    /// to be negligible, often enough to stop within a millisecond or so on any game.
    const CHECK_EVERY: u64 = 256;

    pub fn start(limits: &Limits) -> Budget {
        let start = Instant::now();
        Budget {
            limits: limits.clone(),
            start,
            // A time past the clock's range is no deadline at all.
            deadline: limits.time.and_then(|t| start.checked_add(t)),
        }
    }

    pub fn elapsed(&self) -> Duration {
        self.start.elapsed()
    }

    pub fn max_depth(&self) -> Option<u32> {
        self.limits.depth
    }

    /// True once any limit is reached. Node limits are checked at every node, so that
    /// node-limited searches stay deterministic; the node that passes the limit is counted,
    /// so a search stopped by one reports `limit + 1` nodes.
    pub fn exhausted(&self, nodes: u64) -> bool {
        if self.limits.nodes.is_some_and(|limit| nodes > limit) {
            return true;
        }
        if !nodes.is_multiple_of(Self::CHECK_EVERY) {
            return false;
        }
        self.stop_requested()
            || self
                .deadline
                .is_some_and(|deadline| Instant::now() >= deadline)
    }

    pub fn stop_requested(&self) -> bool {
        self.limits
            .stop
            .as_ref()
            .is_some_and(|stop| stop.load(Ordering::Relaxed))
    }

    /// Whether another iteration is worth starting: one that cannot finish is wasted, and each
    /// takes several times as long as the last.
    pub fn worth_another_iteration(&self) -> bool {
        if self.stop_requested() {
            return false;
        }
        match self.limits.aim() {
            Some(time) => self.elapsed() < time / 2,
            None => true,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A time past the clock's range (`--give-up-after 18446744073709551615` seconds) is no
    /// deadline, not an overflow.
    #[test]
    fn the_longest_time_is_no_deadline() {
        let budget = Budget::start(&Limits::time(Duration::MAX));
        assert!(!budget.exhausted(Budget::CHECK_EVERY));
        let limit = crate::WorkLimit::new(u64::MAX, Some(Duration::MAX));
        assert!(format!("{limit:?}").contains("deadline: None"));
    }
}
