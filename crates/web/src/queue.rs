//! The wait queue in front of the search slots. A burst of requests waits its turn (first come,
//! first served: tokio's semaphore is FIFO-fair) instead of being turned away, up to a bound
//! on the queue's length and on each request's wait; one client address may hold only so many
//! places (running or waiting), so it cannot fill the queue for everyone else.

use axum::extract::State;
use axum::http::{header, HeaderValue, StatusCode};
use axum::response::Response;
use std::collections::{BTreeSet, HashMap};
use std::net::IpAddr;
use std::sync::{Arc, Mutex, MutexGuard};
use std::time::Duration;
use tokio::sync::{watch, OwnedSemaphorePermit, Semaphore};

/// The queue's limits.
#[derive(Clone, Copy, Debug)]
pub struct QueueLimits {
    /// Searches running at once.
    pub slots: usize,
    /// Requests that may wait for a slot (more get 503 at once).
    pub capacity: usize,
    /// The longest a request waits for a slot (then 503).
    pub max_wait: Duration,
    /// Searches one client may have running or waiting at once (more get 429).
    pub per_client: usize,
}

/// Why a request got no search slot.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Refusal {
    /// The client already has `per_client` searches running or waiting.
    ClientLimit,
    QueueFull,
    WaitedTooLong,
    ShuttingDown,
}

impl Refusal {
    pub fn status(self) -> StatusCode {
        match self {
            Refusal::ClientLimit => StatusCode::TOO_MANY_REQUESTS,
            _ => StatusCode::SERVICE_UNAVAILABLE,
        }
    }

    pub fn message(self) -> &'static str {
        match self {
            Refusal::ClientLimit => {
                "too many searches from your address at once; wait for them to finish"
            }
            Refusal::QueueFull => "the engine's queue is full; try again in a moment",
            Refusal::WaitedTooLong => "the engine stayed busy too long; try again in a moment",
            Refusal::ShuttingDown => "the server is restarting; try again in a moment",
        }
    }
}

/// Who waits and who runs, under one lock.
#[derive(Default)]
struct Book {
    next_ticket: u64,
    /// Tickets of the waiting requests, oldest first.
    waiting: BTreeSet<u64>,
    /// Places (running or waiting) held by each client.
    by_client: HashMap<IpAddr, usize>,
}

impl Book {
    fn release_client(&mut self, client: IpAddr) {
        if let Some(n) = self.by_client.get_mut(&client) {
            *n -= 1;
            if *n == 0 {
                self.by_client.remove(&client);
            }
        }
    }
}

pub struct SearchQueue {
    limits: QueueLimits,
    slots: Arc<Semaphore>,
    book: Arc<Mutex<Book>>,
    /// Bumped whenever a waiting request leaves the queue, so the others re-count their place.
    moved: watch::Sender<u64>,
}

/// A search slot, held until dropped (move it into the search's thread, so the slot stays
/// taken while the search runs even if the client goes away).
pub struct Slot {
    _permit: OwnedSemaphorePermit,
    book: Arc<Mutex<Book>>,
    client: IpAddr,
}

impl Drop for Slot {
    fn drop(&mut self) {
        lock(&self.book).release_client(self.client);
    }
}

/// A place in the queue; leaving it (served, timed out, or the client gone) frees the place.
struct Place<'a> {
    queue: &'a SearchQueue,
    ticket: u64,
    client: IpAddr,
    served: bool,
}

impl Drop for Place<'_> {
    fn drop(&mut self) {
        let mut book = lock(&self.queue.book);
        book.waiting.remove(&self.ticket);
        if !self.served {
            book.release_client(self.client);
        }
        drop(book);
        self.queue.moved.send_modify(|n| *n = n.wrapping_add(1));
    }
}

/// The book stays consistent whatever panicked while holding it, so a poisoned lock is used.
fn lock(book: &Mutex<Book>) -> MutexGuard<'_, Book> {
    book.lock().unwrap_or_else(|poisoned| poisoned.into_inner())
}

impl SearchQueue {
    pub fn new(limits: QueueLimits) -> SearchQueue {
        let limits = QueueLimits {
            slots: limits.slots.max(1),
            per_client: limits.per_client.max(1),
            ..limits
        };
        SearchQueue {
            slots: Arc::new(Semaphore::new(limits.slots)),
            limits,
            book: Arc::default(),
            moved: watch::channel(0).0,
        }
    }

    /// (searches running, requests waiting).
    pub fn load(&self) -> (usize, usize) {
        let running = self.limits.slots - self.slots.available_permits();
        (running, lock(&self.book).waiting.len())
    }

    /// A search slot for `client`: at once if one is free, else after waiting in line.
    /// `on_position` hears the request's place (1 = next) whenever it changes.
    /// `shutdown` resolves when the server begins to stop: waiting requests then give up.
    pub async fn admit(
        &self,
        client: IpAddr,
        mut on_position: impl FnMut(usize),
        shutdown: impl std::future::Future<Output = ()>,
    ) -> Result<Slot, Refusal> {
        let ticket = {
            let mut book = lock(&self.book);
            let held = book.by_client.get(&client).copied().unwrap_or(0);
            if held >= self.limits.per_client {
                return Err(Refusal::ClientLimit);
            }
            if let Ok(permit) = self.slots.clone().try_acquire_owned() {
                *book.by_client.entry(client).or_default() += 1;
                return Ok(self.slot(permit, client));
            }
            if book.waiting.len() >= self.limits.capacity {
                return Err(Refusal::QueueFull);
            }
            let ticket = book.next_ticket;
            book.next_ticket += 1;
            book.waiting.insert(ticket);
            *book.by_client.entry(client).or_default() += 1;
            ticket
        };
        let mut place = Place {
            queue: self,
            ticket,
            client,
            served: false,
        };
        let mut moved = self.moved.subscribe();
        let acquire = self.slots.clone().acquire_owned();
        let deadline = tokio::time::sleep(self.limits.max_wait);
        tokio::pin!(acquire, deadline, shutdown);
        on_position(self.position(ticket));
        loop {
            tokio::select! {
                biased;
                permit = &mut acquire => {
                    // The semaphore is never closed.
                    let Ok(permit) = permit else { return Err(Refusal::ShuttingDown) };
                    place.served = true;
                    drop(place);
                    return Ok(self.slot(permit, client));
                }
                () = &mut shutdown => return Err(Refusal::ShuttingDown),
                () = &mut deadline => return Err(Refusal::WaitedTooLong),
                Ok(()) = moved.changed() => on_position(self.position(ticket)),
            }
        }
    }

    fn slot(&self, permit: OwnedSemaphorePermit, client: IpAddr) -> Slot {
        Slot {
            _permit: permit,
            book: self.book.clone(),
            client,
        }
    }

    /// 1 for the oldest waiting request.
    fn position(&self, ticket: u64) -> usize {
        lock(&self.book).waiting.range(..ticket).count() + 1
    }
}

/// Seconds a refused client should wait before trying again: by then every search running
/// now has ended, since none thinks longer than the cap.
pub fn retry_after_secs(max_time_ms: u64) -> u64 {
    max_time_ms.div_ceil(1000).max(1)
}

/// Adds `Retry-After` to every 429 and 503, whichever handler refused.
pub async fn add_retry_after(
    State(state): State<Arc<crate::AppState>>,
    mut response: Response,
) -> Response {
    let status = response.status();
    if (status == StatusCode::TOO_MANY_REQUESTS || status == StatusCode::SERVICE_UNAVAILABLE)
        && !response.headers().contains_key(header::RETRY_AFTER)
    {
        let secs = retry_after_secs(state.config.max_time_ms);
        response
            .headers_mut()
            .insert(header::RETRY_AFTER, HeaderValue::from(secs));
    }
    response
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::future::pending;
    use std::net::Ipv4Addr;

    fn queue(slots: usize, capacity: usize, per_client: usize) -> Arc<SearchQueue> {
        Arc::new(SearchQueue::new(QueueLimits {
            slots,
            capacity,
            max_wait: Duration::from_secs(30),
            per_client,
        }))
    }

    fn ip(n: u8) -> IpAddr {
        IpAddr::V4(Ipv4Addr::new(10, 0, 0, n))
    }

    #[tokio::test]
    async fn a_free_slot_is_taken_at_once_and_given_back() {
        let q = queue(1, 0, 4);
        let slot = q.admit(ip(1), |_| {}, pending()).await.unwrap();
        assert_eq!(q.load(), (1, 0));
        assert_eq!(
            q.admit(ip(2), |_| {}, pending()).await.err(),
            Some(Refusal::QueueFull),
            "no queue: busy at once"
        );
        drop(slot);
        assert_eq!(q.load(), (0, 0));
        assert!(q.admit(ip(2), |_| {}, pending()).await.is_ok());
    }

    #[tokio::test]
    async fn waiters_are_served_in_order_and_hear_their_place() {
        let q = queue(1, 10, 10);
        let first = q.admit(ip(1), |_| {}, pending()).await.unwrap();
        let (tx, mut rx) = tokio::sync::mpsc::unbounded_channel();
        let mut waiters = Vec::new();
        for n in 2..=4 {
            let (queue, tx) = (q.clone(), tx.clone());
            waiters.push(tokio::spawn(async move {
                let places = std::sync::Mutex::new(Vec::new());
                let slot = queue
                    .admit(ip(n), |p| places.lock().unwrap().push(p), pending())
                    .await
                    .unwrap();
                tx.send(n).unwrap();
                drop(slot);
                places.into_inner().unwrap()
            }));
            // Let each one take its place before the next arrives.
            while q.load().1 < (n - 1) as usize {
                tokio::task::yield_now().await;
            }
        }
        assert_eq!(q.load(), (1, 3));
        drop(first);
        let mut order = Vec::new();
        for _ in 0..3 {
            order.push(rx.recv().await.unwrap());
        }
        assert_eq!(order, [2, 3, 4], "first come, first served");
        let last = waiters.pop().unwrap().await.unwrap();
        assert_eq!(last.first(), Some(&3), "the third in line: {last:?}");
        assert!(last.windows(2).all(|w| w[1] <= w[0]), "{last:?}");
        assert_eq!(q.load(), (0, 0));
    }

    #[tokio::test]
    async fn one_client_cannot_take_every_place() {
        let q = queue(1, 10, 2);
        let _running = q.admit(ip(1), |_| {}, pending()).await.unwrap();
        let waiter = {
            let q = q.clone();
            tokio::spawn(async move { q.admit(ip(1), |_| {}, pending()).await.is_ok() })
        };
        while q.load().1 < 1 {
            tokio::task::yield_now().await;
        }
        assert_eq!(
            q.admit(ip(1), |_| {}, pending()).await.err(),
            Some(Refusal::ClientLimit)
        );
        let other = q.clone();
        let other =
            tokio::spawn(async move { other.admit(ip(2), |_| {}, pending()).await.is_ok() });
        while q.load().1 < 2 {
            tokio::task::yield_now().await;
        }
        waiter.abort();
        other.abort();
    }

    #[tokio::test]
    async fn a_wait_ends_at_its_bound_or_at_shutdown() {
        let q = Arc::new(SearchQueue::new(QueueLimits {
            slots: 1,
            capacity: 10,
            max_wait: Duration::from_millis(50),
            per_client: 10,
        }));
        let _running = q.admit(ip(1), |_| {}, pending()).await.unwrap();
        assert_eq!(
            q.admit(ip(2), |_| {}, pending()).await.err(),
            Some(Refusal::WaitedTooLong)
        );
        assert_eq!(
            q.admit(ip(2), |_| {}, async {}).await.err(),
            Some(Refusal::ShuttingDown)
        );
        assert_eq!(q.load(), (1, 0), "the refused left no trace");
    }

    #[test]
    fn retry_after_is_at_least_a_second() {
        assert_eq!(retry_after_secs(1), 1);
        assert_eq!(retry_after_secs(10_000), 10);
        assert_eq!(retry_after_secs(1_500), 2);
    }
}
