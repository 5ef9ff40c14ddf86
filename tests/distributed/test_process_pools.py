"""Custom operators on opyard tensors in real process pools, as a user scaling out runs them.

A ``concurrent.futures.ProcessPoolExecutor`` with the ``spawn`` start method
and a ``dask.distributed`` ``LocalCluster`` with one worker process each get
the operators of ``extension_ops`` by importing it (the pool's initializer,
``client.run``); tensors, operators and modules travel pickled. Results equal
the local call, and an operator whose module a worker did not import
(``local_ops``) fails there with the error that names the module to import,
reported to the caller, with the pool still usable.
"""

import importlib
import logging
import multiprocessing
import os
import sys
import time
from concurrent.futures import ProcessPoolExecutor

import extension_ops
import local_ops
import numpy as np
import opyard
import pytest
from distributed import Client, LocalCluster

TESTS_DIR = os.path.dirname(os.path.abspath(extension_ops.__file__))


def tasks():
    """(function, args) pairs covering a custom op, a Library op, a packet and a module forward."""
    opyard.manual_seed(1)
    x = opyard.randn(4, 3, dtype=opyard.float64).t()  # non-contiguous float64
    y = opyard.randn(3, 4, dtype=opyard.float64)
    model = extension_ops.TwoLayer()
    return [
        (extension_ops.scaled_sin, (x, 2.5)),
        (opyard.ops.extension_ops.axpy.default, (x, y, -1.5)),
        (opyard.ops.extension_ops.axpy, (x[:, ::2], y[:, ::2], 0.5)),
        (extension_ops.call, (model, opyard.ones(2, 3))),
        (extension_ops.roundtrip, (x,)),
    ]


def check_equal(remote, local):
    assert type(remote) is type(local)
    assert extension_ops.describe(remote) == extension_ops.describe(local)
    assert np.array_equal(remote.detach().numpy(), local.detach().numpy())


def missing_module_error():
    return (r"operator local_ops::double was unpickled in a process where no operator of that name is "
            r"registered; it was defined in module 'local_ops' \(.*local_ops.py:\d+\): run `import local_ops` "
            r"in this process before unpickling it")


# --- concurrent.futures, spawn ------------------------------------------------------------------

@pytest.fixture(scope="module")
def spawn_pool():
    # A spawned worker starts a fresh interpreter with this process's sys.path (multiprocessing
    # passes it along), where pytest put tests/; the initializer imports the operators' module.
    assert TESTS_DIR in sys.path
    ctx = multiprocessing.get_context("spawn")
    with ProcessPoolExecutor(max_workers=1, mp_context=ctx, initializer=importlib.import_module,
                             initargs=("extension_ops",)) as pool:
        yield pool


def test_spawn_pool_results_equal_local_calls(spawn_pool):
    start = time.perf_counter()
    for fn, args in tasks():
        local = fn(*args)
        check_equal(spawn_pool.submit(fn, *args).result(timeout=30), local)
    chunks = list(opyard.arange(12, dtype=opyard.float32).reshape(4, 3))
    remote = list(spawn_pool.map(extension_ops.scaled_sin, chunks, [3.0] * len(chunks), timeout=30))
    for r, c in zip(remote, chunks):
        check_equal(r, extension_ops.scaled_sin(c, 3.0))
    assert time.perf_counter() - start < 10


def test_spawn_pool_reports_an_op_whose_module_the_worker_did_not_import(spawn_pool):
    future = spawn_pool.submit(local_ops.double, opyard.ones(2))
    with pytest.raises(RuntimeError, match=missing_module_error()):
        future.result(timeout=30)
    x = opyard.ones(2)
    check_equal(spawn_pool.submit(extension_ops.scaled_sin, x, 1.0).result(timeout=30),
                extension_ops.scaled_sin(x, 1.0))  # the pool survived the error


# --- dask.distributed ---------------------------------------------------------------------------

@pytest.fixture(scope="module")
def dask_client(tmp_path_factory):
    start = time.perf_counter()
    with LocalCluster(n_workers=1, threads_per_worker=1, processes=True, dashboard_address=":0",
                      silence_logs=logging.ERROR, local_directory=str(tmp_path_factory.mktemp("dask"))
                      ) as cluster, Client(cluster) as client:
        client.run(importlib.import_module, "extension_ops")
        yield client
    assert time.perf_counter() - start < 15


def test_dask_results_equal_local_calls(dask_client):
    (pid,) = dask_client.run(os.getpid).values()
    assert pid != os.getpid()  # a worker process, not a thread of this one
    for fn, args in tasks():
        local = fn(*args)
        check_equal(dask_client.submit(fn, *args, pure=False).result(timeout=30), local)
    chunks = list(opyard.arange(12, dtype=opyard.float64).reshape(4, 3))
    futures = dask_client.map(extension_ops.scaled_sin, chunks, [2.0] * len(chunks), pure=False)
    total = dask_client.submit(sum, futures).result(timeout=30)
    check_equal(total, sum(extension_ops.scaled_sin(c, 2.0) for c in chunks))


def test_dask_reports_an_op_whose_module_the_worker_did_not_import(dask_client):
    future = dask_client.submit(local_ops.double, opyard.ones(2), pure=False)
    with pytest.raises(RuntimeError, match=missing_module_error()):
        future.result(timeout=30)
    x = opyard.ones(2)
    check_equal(dask_client.submit(extension_ops.scaled_sin, x, 1.0, pure=False).result(timeout=30),
                extension_ops.scaled_sin(x, 1.0))
