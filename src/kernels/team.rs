//! The intra-op worker team: `num_threads() - 1` threads that help each parallel
//! call (`parallel::run_tasks`) and spin for a while before they sleep.
//!
//! Note [Workers spin before they sleep]: a call of a large kernel lasts 30-300 µs,
//! and waking a sleeping thread (a futex wake, then the scheduler) takes 20-100 µs
//! on a VM like this one: a worker woken per call often arrives when the caller has
//! done most of the work alone, so a 1M-element `add` took 76-155 µs from one run
//! to the next. torch's OpenMP workers instead spin after a parallel region before
//! they block, so back-to-back calls find them awake. This team does the same: a
//! worker that finished watches for the next call for `SPIN` before it blocks on
//! a condition variable (a call wakes it only when one is blocked), so a sequence
//! of large calls pays no wake-up and an idle process sleeps after `SPIN`. (rayon,
//! used before, parks its workers after a few microseconds of yielding, with no
//! knob to keep them awake longer.) The caller's own wait for the helpers that
//! joined it spins the same way (`wait_until`).
//!
//! A call posts its job and goes on with the tasks itself (Note [Caller takes
//! part], parallel.rs); the workers take the latest job posted. Two calls from
//! two Python threads at once (kernels run with the GIL released) may leave one
//! of them without helpers: its caller then runs every task itself, as with one
//! thread. What a task computes never depends on which thread runs it.

use std::sync::atomic::{AtomicBool, AtomicU64, AtomicUsize, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

use parking_lot::{Condvar, Mutex};

/// How long a worker watches for the next call before it blocks, and how long a
/// caller spins for its helpers before it blocks (Note [Workers spin before they
/// sleep]).
pub const SPIN: Duration = Duration::from_micros(200);

/// The first part of `SPIN`, spent spinning without yielding.
const BUSY: Duration = Duration::from_micros(10);

/// A job the workers help with: `help` runs tasks until none is left (returning
/// at once when the call has closed).
pub trait Job: Send + Sync {
    fn help(&self);
}

/// Spins until `done()` holds or `SPIN` passes; whether it holds. Past the first
/// `BUSY` of it, each round yields the core to any other runnable thread (another
/// library's BLAS workers, say), so a waiting worker never takes a core that real
/// work wants.
pub fn spin_until(done: impl Fn() -> bool) -> bool {
    let start = Instant::now();
    let mut spins = 0u32;
    let mut polite = false;
    loop {
        if done() {
            return true;
        }
        spins = spins.wrapping_add(1);
        if polite {
            std::thread::yield_now();
            if start.elapsed() >= SPIN {
                return done();
            }
            continue;
        }
        if spins.is_multiple_of(64) && start.elapsed() >= BUSY {
            polite = true;
        }
        std::hint::spin_loop();
    }
}

/// What the team's threads share.
struct Board {
    /// The latest job posted.
    job: Mutex<Option<Arc<dyn Job>>>,
    /// Bumped with every job posted (the workers watch it).
    posted: AtomicU64,
    /// Workers blocked on `wake` (a post notifies only when there is one).
    sleeping: AtomicUsize,
    /// Guards the blocking wait of `wake`.
    lock: Mutex<()>,
    wake: Condvar,
    /// Set when the team is dropped: its workers return.
    stop: AtomicBool,
}

/// `helpers` worker threads; dropping the team ends them (not joined: each
/// returns when it next looks at the board).
pub struct Team {
    board: Arc<Board>,
    helpers: usize,
    /// The process that spawned the workers (a forked child has none of them).
    pid: u32,
}

impl Team {
    /// A team of `helpers` threads, or `None` when a thread cannot be spawned.
    pub fn new(helpers: usize) -> Option<Team> {
        let board = Arc::new(Board {
            job: Mutex::new(None),
            posted: AtomicU64::new(0),
            sleeping: AtomicUsize::new(0),
            lock: Mutex::new(()),
            wake: Condvar::new(),
            stop: AtomicBool::new(false),
        });
        for i in 0..helpers {
            let b = board.clone();
            std::thread::Builder::new()
                .name(format!("opyard-intraop-{i}"))
                .spawn(move || work(&b))
                .ok()?;
        }
        Some(Team {
            board,
            helpers,
            pid: std::process::id(),
        })
    }

    /// Whether the workers belong to this process: false in a child forked after
    /// they were spawned, where they do not exist (and a lock they held at the fork
    /// stays held), so the child must make a team of its own.
    pub fn is_ours(&self) -> bool {
        self.pid == std::process::id()
    }

    /// The number of worker threads.
    pub fn helpers(&self) -> usize {
        self.helpers
    }

    /// Offer `job` to the workers (the ones spinning see it at once; sleeping ones
    /// are woken).
    pub fn post(&self, job: Arc<dyn Job>) {
        *self.board.job.lock() = Some(job);
        self.board.posted.fetch_add(1, Ordering::SeqCst);
        if self.board.sleeping.load(Ordering::SeqCst) > 0 {
            let _guard = self.board.lock.lock();
            self.board.wake.notify_all();
        }
    }

    /// Forget `job` if it is still the one posted (its call has closed).
    pub fn withdraw(&self, job: &Arc<dyn Job>) {
        let mut slot = self.board.job.lock();
        if slot.as_ref().is_some_and(|j| Arc::ptr_eq(j, job)) {
            *slot = None;
        }
    }
}

impl Drop for Team {
    fn drop(&mut self) {
        self.board.stop.store(true, Ordering::SeqCst);
        let _guard = self.board.lock.lock();
        self.board.wake.notify_all();
    }
}

/// A worker's loop: wait for a job posted after the last one seen, help with it.
fn work(board: &Board) {
    // From the team's start: a job posted before this thread ran is still seen.
    let mut seen = 0;
    loop {
        let fresh =
            || board.posted.load(Ordering::SeqCst) != seen || board.stop.load(Ordering::SeqCst);
        if !spin_until(fresh) {
            let mut guard = board.lock.lock();
            board.sleeping.fetch_add(1, Ordering::SeqCst);
            // `post` bumps `posted` before it reads `sleeping`: either it sees this
            // worker asleep and notifies under the lock, or this load sees its job.
            while !fresh() {
                board.wake.wait(&mut guard);
            }
            board.sleeping.fetch_sub(1, Ordering::SeqCst);
        }
        if board.stop.load(Ordering::SeqCst) {
            return;
        }
        seen = board.posted.load(Ordering::SeqCst);
        let job = board.job.lock().clone();
        if let Some(job) = job {
            job.help();
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    struct Count(AtomicUsize);

    impl Job for Count {
        fn help(&self) {
            self.0.fetch_add(1, Ordering::SeqCst);
        }
    }

    #[test]
    fn every_worker_helps_with_a_posted_job_also_after_sleeping() {
        let team = Team::new(3).expect("threads");
        for pause in [Duration::ZERO, SPIN * 3] {
            std::thread::sleep(pause);
            let job = Arc::new(Count(AtomicUsize::new(0)));
            team.post(job.clone());
            assert!(wait(|| job.0.load(Ordering::SeqCst) == 3));
            let posted: Arc<dyn Job> = job;
            team.withdraw(&posted);
        }
    }

    #[test]
    fn a_dropped_team_ends_its_workers() {
        let team = Team::new(2).expect("threads");
        let board = team.board.clone();
        drop(team);
        assert!(wait(|| Arc::strong_count(&board) == 1));
    }

    fn wait(done: impl Fn() -> bool) -> bool {
        let start = Instant::now();
        while start.elapsed() < Duration::from_secs(10) {
            if done() {
                return true;
            }
            std::thread::sleep(Duration::from_millis(1));
        }
        false
    }
}
