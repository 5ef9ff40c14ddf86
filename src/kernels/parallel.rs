//! The intra-op threads of the large kernels (`opyard.set_num_threads`).
//!
//! Note [Intra-op threads]: a kernel splits its rows across the team only when the
//! work is large enough to pay for the helpers: `GRAIN` elements per task, torch's
//! `at::internal::GRAIN_SIZE`, measured here to be where two threads start to win (a
//! task of 32k floats takes ~10 µs). Small inputs run on the calling thread, so the
//! per-call cost of small ops is untouched. `num_threads()` threads work on a call
//! (default: the machine's available parallelism, as torch's default;
//! `set_num_threads` changes it): the calling thread and `num_threads() - 1` workers
//! of the team (`team.rs`, Note [Workers spin before they sleep]). The tasks are
//! claimed from a shared counter (Note [Caller takes part]). Kernels never call back
//! into Python, so the team never needs the GIL.
//!
//! Note [Caller takes part]: handing a whole call to a worker puts the calling
//! thread to sleep until the worker has run it: two hand-overs per call, and the
//! caller's core idle. Instead the caller posts the call to the team and itself runs
//! tasks from the same counter until none is left, so the work starts at once and a
//! helper that arrives late finds less (or nothing) to do. The caller then waits
//! only for the helpers that joined (each finishing a task it claimed), never for
//! one not yet there: a helper that comes after the call closed returns at once (on
//! a busy machine a worker can wait for a core for milliseconds). So a call never
//! takes much longer than on one thread. Which thread runs a task does not change
//! what it computes: the tasks and their order of combination are fixed by the
//! sizes alone.

use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::Arc;

use parking_lot::{Condvar, Mutex, RwLock};

use super::team::{spin_until, Job, Team};

/// Elements per task below which a kernel stays on the calling thread.
pub const GRAIN: usize = 32_768;

static TEAM: RwLock<Option<Arc<Team>>> = RwLock::new(None);
static THREADS: RwLock<Option<usize>> = RwLock::new(None);

/// The number of intra-op threads (torch's `get_num_threads`).
pub fn num_threads() -> usize {
    if let Some(n) = *THREADS.read() {
        return n;
    }
    // Asked once: `available_parallelism` reads the cgroup's CPU quota from files
    // (tens of microseconds), and every large call asks how many threads it has.
    static DEFAULT: std::sync::OnceLock<usize> = std::sync::OnceLock::new();
    *DEFAULT.get_or_init(|| std::thread::available_parallelism().map_or(1, |n| n.get()))
}

/// Sets the number of intra-op threads (at least 1); the team is rebuilt on next use.
pub fn set_num_threads(n: usize) {
    let n = n.max(1);
    *THREADS.write() = Some(n);
    let old = TEAM.write().take();
    if let Some(old) = old.filter(|t| !t.is_ours()) {
        std::mem::forget(old); // see `team`
    }
}

/// The helpers of a call: `num_threads() - 1` workers (the caller is the last thread).
fn team() -> Option<Arc<Team>> {
    let n = num_threads();
    if n <= 1 {
        return None;
    }
    if let Some(t) = TEAM.read().as_ref().filter(|t| t.is_ours()) {
        return Some(t.clone());
    }
    let mut slot = TEAM.write();
    if let Some(inherited) = slot.take_if(|t| !t.is_ours()) {
        // A forked child's copy of its parent's team: never touched again (its
        // workers are gone and its locks may be held forever), so never dropped.
        std::mem::forget(inherited);
    }
    if slot.is_none() {
        *slot = Team::new(n - 1).map(Arc::new);
    }
    slot.clone()
}

/// Runs `f(i)` once for each `i` in `0..tasks`, on the calling thread and, when
/// `parallel` and the team exists, its workers (Note [Caller takes part]).
fn run_tasks<F: Fn(usize) + Sync>(tasks: usize, parallel: bool, f: F) {
    let team = if parallel && tasks > 1 { team() } else { None };
    let Some(team) = team else {
        (0..tasks).for_each(f);
        return;
    };
    let f: &(dyn Fn(usize) + Sync) = &f;
    // SAFETY: only the lifetime is erased. `Shared::help` calls the function only
    // between its registration (refused once the call is closed) and its leaving,
    // and `close` below returns only when no helper is registered, so no helper
    // calls it after this function returns and `f` is dropped.
    let f: &'static (dyn Fn(usize) + Sync) = unsafe { std::mem::transmute(f) };
    let shared = Arc::new(Shared {
        next: AtomicUsize::new(0),
        tasks,
        f: FnRef(f),
        open: AtomicBool::new(true),
        working: AtomicUsize::new(0),
        lock: Mutex::new(()),
        left: Condvar::new(),
        panic: Mutex::new(None),
    });
    let job: Arc<dyn Job> = shared.clone();
    team.post(job.clone());
    {
        // Closed on the way out, also when a task of the caller's panics.
        let _close = CloseOnDrop(&shared);
        shared.work();
    }
    team.withdraw(&job);
    // A helper's panic surfaces in the caller, as a panic inside `install` did.
    let payload = shared.panic.lock().take();
    if let Some(payload) = payload {
        std::panic::resume_unwind(payload);
    }
}

/// Closes a call's tasks when dropped (see `Shared::close`).
struct CloseOnDrop<'a>(&'a Shared);

impl Drop for CloseOnDrop<'_> {
    fn drop(&mut self) {
        self.0.close();
    }
}

/// The erased work function of one call (see `run_tasks`).
#[derive(Clone, Copy)]
struct FnRef(&'static (dyn Fn(usize) + Sync));

/// One call's tasks: the next unclaimed task, whether helpers may still join
/// (`open`) and how many are working (`working`).
struct Shared {
    next: AtomicUsize,
    tasks: usize,
    f: FnRef,
    open: AtomicBool,
    working: AtomicUsize,
    /// The caller's blocking wait for `working` to reach 0, after its spin.
    lock: Mutex<()>,
    left: Condvar,
    /// The payload of a helper's panic, resumed by the caller.
    panic: Mutex<Option<Box<dyn std::any::Any + Send>>>,
}

impl Job for Shared {
    /// A helper's part: joins while the call is open, works, leaves. A helper that
    /// comes after the caller closed the call returns without touching its data.
    fn help(&self) {
        if self.next.load(Ordering::Relaxed) >= self.tasks {
            return;
        }
        // Joining, then checking `open`, against `close`'s store then read of
        // `working` (both SeqCst): either the caller waits for this helper or the
        // helper sees the call closed.
        self.working.fetch_add(1, Ordering::SeqCst);
        if self.open.load(Ordering::SeqCst) {
            let run = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| self.work()));
            if let Err(payload) = run {
                self.panic.lock().get_or_insert(payload);
            }
        }
        if self.working.fetch_sub(1, Ordering::SeqCst) == 1 {
            let _guard = self.lock.lock();
            self.left.notify_all();
        }
    }
}

impl Shared {
    /// Runs unclaimed tasks until none is left (a task that panics leaves the rest to
    /// the other threads).
    fn work(&self) {
        loop {
            let i = self.next.fetch_add(1, Ordering::Relaxed);
            if i >= self.tasks {
                break;
            }
            (self.f.0)(i);
        }
    }

    /// The caller's end: no helper may join any more; waits for those working (each
    /// is finishing a task it claimed), not for helpers not yet started: spinning
    /// first (Note [Workers spin before they sleep], team.rs), then blocking.
    fn close(&self) {
        self.open.store(false, Ordering::SeqCst);
        let done = || self.working.load(Ordering::SeqCst) == 0;
        if spin_until(done) {
            return;
        }
        let mut guard = self.lock.lock();
        while !done() {
            self.left.wait(&mut guard);
        }
    }
}

/// `items` as slots a task takes its own item from (each exactly once).
fn slots<I>(items: impl Iterator<Item = I>) -> Vec<Mutex<Option<I>>> {
    items.map(|i| Mutex::new(Some(i))).collect()
}

/// Item `i` of `slots`, taken (each task's own; taken once).
fn take<I>(slots: &[Mutex<Option<I>>], i: usize) -> I {
    slots[i]
        .lock()
        .take()
        .expect("parallel: each task takes its own item once")
}

/// `(tasks, rows per task)` for `rows` rows of `work` elements in all, or `None`
/// when the work stays on the calling thread (Note [Intra-op threads]).
fn row_split(rows: usize, work: usize) -> Option<(usize, usize)> {
    let threads = num_threads();
    if threads <= 1 || work < 2 * GRAIN || rows < 2 {
        return None;
    }
    let tasks = (work / GRAIN).clamp(1, 4 * threads).min(rows);
    let per = rows.div_ceil(tasks);
    Some((rows.div_ceil(per), per))
}

/// Calls `f(first_row, rows_of_x, rows_of_out)` over `x` and `out` split into
/// blocks of whole rows (`row_len` elements each; `out_row_len` for `out`), on the
/// pool when the work is large (see Note [Intra-op threads]), else once inline.
pub fn for_row_blocks<T, U, F>(x: &[T], row_len: usize, out: &mut [U], out_row_len: usize, f: F)
where
    T: Sync,
    U: Send,
    F: Fn(usize, &[T], &mut [U]) + Sync,
{
    let rows = x
        .len()
        .checked_div(row_len)
        .unwrap_or(out.len() / out_row_len.max(1));
    let Some((tasks, per)) = row_split(rows, rows * row_len.max(out_row_len)) else {
        f(0, x, out);
        return;
    };
    let outs = slots(out.chunks_mut((per * out_row_len).max(1)));
    let xs: Vec<&[T]> = x.chunks((per * row_len).max(1)).collect();
    run_tasks(tasks.min(outs.len()), true, |i| {
        f(i * per, xs.get(i).copied().unwrap_or(&[]), take(&outs, i))
    });
}

/// [`for_row_blocks`] with a second output of `aux_row_len` elements per row (a
/// kernel's per-row statistics, or the indices beside its values), split along the
/// same rows: `f(rows_of_x, rows_of_out, rows_of_aux)`.
pub fn for_row_blocks_aux<T, U, V, F>(
    x: &[T],
    row_len: usize,
    out: &mut [U],
    out_row_len: usize,
    aux: &mut [V],
    aux_row_len: usize,
    f: F,
) where
    T: Sync,
    U: Send,
    V: Send,
    F: Fn(&[T], &mut [U], &mut [V]) + Sync,
{
    let rows = x
        .len()
        .checked_div(row_len)
        .unwrap_or(out.len() / out_row_len.max(1));
    let work = rows * row_len.max(out_row_len);
    let split = if row_len == 0 {
        None
    } else {
        row_split(rows, work)
    };
    let Some((tasks, per)) = split else {
        f(x, out, aux);
        return;
    };
    let outs = slots(out.chunks_mut((per * out_row_len).max(1)));
    let auxs = slots(aux.chunks_mut((per * aux_row_len).max(1)));
    let xs: Vec<&[T]> = x.chunks(per * row_len).collect();
    let tasks = tasks.min(xs.len()).min(outs.len()).min(auxs.len());
    run_tasks(tasks, true, |i| f(xs[i], take(&outs, i), take(&auxs, i)));
}

/// `(tasks, elements per task)` for `n` outputs of `work` elements in all that may
/// split into pieces of at least `min_piece`, or `None` for the calling thread alone.
fn chunk_split(n: usize, work: usize, min_piece: usize) -> Option<(usize, usize)> {
    let threads = num_threads();
    if threads <= 1 || work < 2 * GRAIN || n < 2 * min_piece {
        return None;
    }
    let tasks = (work / GRAIN).clamp(1, 4 * threads).min(n / min_piece);
    let per = n.div_ceil(tasks);
    Some((n.div_ceil(per), per))
}

/// `f(start, chunk)` over `out` split into `per`-element chunks on the team.
fn run_chunks<U: Send, F: Fn(usize, &mut [U]) + Sync>(
    out: &mut [U],
    tasks: usize,
    per: usize,
    f: F,
) {
    let outs = slots(out.chunks_mut(per));
    run_tasks(tasks.min(outs.len()), true, |i| f(i * per, take(&outs, i)));
}

/// `f(start, chunk)` over `out` split into contiguous chunks, on the pool when large.
pub fn for_chunks<U: Send, F: Fn(usize, &mut [U]) + Sync>(out: &mut [U], f: F) {
    match chunk_split(out.len(), out.len(), 1) {
        Some((tasks, per)) => run_chunks(out, tasks, per, f),
        None => f(0, out),
    }
}

/// `f(start, chunk)` over `out` split into contiguous chunks as [`for_chunks`],
/// for outputs that each cost `weight` elements of work (a reduction of
/// `weight` values per output): on the pool when `out.len() * weight` is large.
pub fn for_weighted_chunks<U: Send, F: Fn(usize, &mut [U]) + Sync>(
    out: &mut [U],
    weight: usize,
    f: F,
) {
    let n = out.len();
    match chunk_split(n, n * weight.max(1), 64) {
        Some((tasks, per)) => run_chunks(out, tasks, per, f),
        None => f(0, out),
    }
}

/// `f(block)` for each consecutive `block`-element piece of `x` (the last may be
/// shorter), in order; on the pool when `x` is large. The pieces do not depend
/// on the number of threads, so a reduction combining the results in order gives
/// the same value whatever `num_threads()` is.
pub fn map_blocks<T, R, F>(x: &[T], block: usize, f: F) -> Vec<R>
where
    T: Sync,
    R: Send,
    F: Fn(&[T]) -> R + Sync,
{
    let block = block.max(1);
    let parallel = num_threads() > 1 && x.len() >= 2 * GRAIN && x.len() > block;
    if !parallel {
        return x.chunks(block).map(f).collect();
    }
    let pieces: Vec<&[T]> = x.chunks(block).collect();
    let results = slots(std::iter::repeat_with(|| None::<R>).take(pieces.len()));
    run_tasks(pieces.len(), true, |i| {
        *results[i].lock() = Some(Some(f(pieces[i])));
    });
    collect(results)
}

/// The results each task stored, in order.
fn collect<R>(results: Vec<Mutex<Option<Option<R>>>>) -> Vec<R> {
    results
        .into_iter()
        .map(|r| {
            r.into_inner()
                .flatten()
                .expect("parallel: every task stores its result")
        })
        .collect()
}

/// `f(i, piece)` for each consecutive `chunk`-element piece of `out` (the last may
/// be shorter), the results in order; on the pool when `work` (the elements the
/// call touches) is large. The pieces do not depend on the number of threads, so
/// results combined in order are the same whatever `num_threads()` is.
pub fn map_chunks_mut<U, R, F>(out: &mut [U], chunk: usize, work: usize, f: F) -> Vec<R>
where
    U: Send,
    R: Send,
    F: Fn(usize, &mut [U]) -> R + Sync,
{
    let chunk = chunk.max(1);
    let parallel = num_threads() > 1 && work >= 2 * GRAIN && out.len() > chunk;
    if !parallel {
        return out
            .chunks_mut(chunk)
            .enumerate()
            .map(|(i, c)| f(i, c))
            .collect();
    }
    let pieces = slots(out.chunks_mut(chunk));
    let results = slots(std::iter::repeat_with(|| None::<R>).take(pieces.len()));
    run_tasks(pieces.len(), true, |i| {
        *results[i].lock() = Some(Some(f(i, take(&pieces, i))));
    });
    collect(results)
}

/// Serialises the tests that change the process-wide thread count: the test
/// harness runs tests on several threads, and one test's `set_num_threads`
/// must not land between another's set and its read.
#[cfg(test)]
pub(crate) fn thread_count_guard() -> std::sync::MutexGuard<'static, ()> {
    static LOCK: std::sync::Mutex<()> = std::sync::Mutex::new(());
    LOCK.lock().unwrap_or_else(|poisoned| poisoned.into_inner())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn row_blocks_cover_every_row_once() {
        let _serial = thread_count_guard();
        set_num_threads(2);
        let rows = 300;
        let cols = 1000;
        let x: Vec<f32> = (0..rows * cols).map(|i| i as f32).collect();
        let mut out = vec![0.0f32; rows];
        for_row_blocks(&x, cols, &mut out, 1, |first, xs, os| {
            for (r, o) in os.iter_mut().enumerate() {
                *o = xs[r * cols] + first as f32 * 0.0;
            }
        });
        for (r, o) in out.iter().enumerate() {
            assert_eq!(*o, (r * cols) as f32);
        }
        set_num_threads(1);
        assert_eq!(num_threads(), 1);
    }

    #[test]
    fn every_task_runs_once_and_a_helpers_panic_reaches_the_caller() {
        let _serial = thread_count_guard();
        for threads in [1, 2, 4] {
            set_num_threads(threads);
            let mut out = vec![0u32; 1 << 18];
            for_chunks(&mut out, |start, c| {
                for (k, o) in c.iter_mut().enumerate() {
                    *o += (start + k) as u32;
                }
            });
            assert!(out.iter().enumerate().all(|(i, &o)| o == i as u32));
        }
        set_num_threads(2);
        let caught = std::panic::catch_unwind(|| {
            run_tasks(64, true, |i| {
                if i % 2 == 1 {
                    std::thread::sleep(std::time::Duration::from_millis(1));
                    panic!("task {i}");
                }
            })
        });
        assert!(caught.is_err());
        set_num_threads(1);
    }

    #[test]
    fn calls_from_several_threads_at_once_each_run_every_task_once() {
        // Note [Workers spin before they sleep]: the workers take the latest call
        // posted; a call left without helpers runs its tasks itself.
        let _serial = thread_count_guard();
        set_num_threads(2);
        std::thread::scope(|scope| {
            for t in 0..4u32 {
                scope.spawn(move || {
                    for round in 0..200u32 {
                        let mut out = vec![0u32; 1 << 17];
                        for_chunks(&mut out, |start, c| {
                            for (k, o) in c.iter_mut().enumerate() {
                                *o += (start + k) as u32 ^ t ^ round;
                            }
                        });
                        assert!(out
                            .iter()
                            .enumerate()
                            .all(|(i, &o)| o == i as u32 ^ t ^ round));
                    }
                });
            }
        });
        set_num_threads(1);
    }

    #[test]
    fn map_blocks_keeps_the_order_of_the_blocks() {
        let _serial = thread_count_guard();
        let x: Vec<u32> = (0..200_000).collect();
        for threads in [1, 2, 3] {
            set_num_threads(threads);
            let firsts = map_blocks(&x, 70_000, |b| b[0]);
            assert_eq!(firsts, vec![0, 70_000, 140_000]);
        }
    }
}
