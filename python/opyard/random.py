"""``opyard.random``: the default generator's seed and state (torch's ``torch.random``).

``manual_seed``, ``seed``, ``initial_seed``, ``get_rng_state`` and ``set_rng_state`` act on
``default_generator``, the ``opyard.Generator`` every random op draws from when it is given no
``generator=``; ``fork_rng`` restores the default generator's state when its block ends. A state is
opyard's own (a uint8 tensor of ``Generator.get_state``'s layout, not torch's mt19937 state), and the
values drawn are numpy's: the same seed gives the same values in opyard, not torch's values.
"""

import contextlib

from ._aten.generators import Generator, default_generator
from ._aten.factory import manual_seed

__all__ = ["Generator", "default_generator", "fork_rng", "get_rng_state", "initial_seed", "manual_seed", "seed",
           "set_rng_state", "thread_safe_generator"]


def seed():
    """Seed the default generator from the operating system's entropy; returns the seed (an int)."""
    return default_generator.seed()


def initial_seed():
    """The seed the default generator was last seeded with (an int)."""
    return default_generator.initial_seed()


def get_rng_state():
    """The default generator's state, a uint8 tensor (``set_rng_state`` restores it)."""
    return default_generator.get_state()


def set_rng_state(new_state):
    """Restore the default generator's state from ``get_rng_state``."""
    default_generator.set_state(new_state)


def thread_safe_generator():
    """torch's generator of a data-loading thread worker; opyard has no data-loader workers, so this is
    None (the random functions then use the default generator), as torch's outside such a worker."""
    return None


@contextlib.contextmanager
def fork_rng(devices=None, enabled=True, _caller="fork_rng", _devices_kw="devices", device_type=None):
    """Save the default generator's state and restore it when the block ends (torch's ``fork_rng``).

    opyard computes on the CPU: only the CPU generator is forked; naming accelerator ``devices`` raises
    as ``opyard.cuda`` does when no accelerator is present.
    """
    if device_type == "meta" or not enabled:
        yield
        return
    if devices is not None and list(devices):
        from . import cuda

        cuda._require()
    state = default_generator.get_state()
    try:
        yield
    finally:
        default_generator.set_state(state)


from ._exports import public_dir  # noqa: E402

__dir__ = public_dir(globals())
