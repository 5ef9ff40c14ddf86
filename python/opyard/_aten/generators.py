"""``opyard.Generator``: torch's generator API over a numpy bit generator (PCG64).

A generator owns one ``numpy.random.Generator``, made on its first draw (``numpy.random`` costs a
tenth of ``import opyard``). Seeding, saving and restoring follow torch: ``manual_seed`` takes any
integer in ``[-2**63, 2**64)`` (negative seeds wrap to 64 bits), a new generator starts from torch's
default seed 67280421310721, ``get_state`` is a uint8 tensor that ``set_state`` restores exactly.
The values drawn are numpy's, not torch's (a different bit generator and different transforms);
the state's bytes are opyard's own layout (``STATE_SIZE`` bytes: the initial seed and PCG64's
128-bit state and increment, its buffered 32-bit half), not torch's 5056-byte mt19937 state.

The kernels draw from ``draws(generator)``: the generator given, or the default one.
"""

import os

import numpy as np

from .. import _dtype as D
from .._core import device as Device

__all__ = ["Generator", "default_generator", "draws", "DEFAULT_SEED", "STATE_SIZE"]

DEFAULT_SEED = 67280421310721  # torch's ``default_rng_seed_val``
STATE_SIZE = 56  # seed (8) + PCG64 state (16) + increment (16) + has_uint32 (8) + uinteger (8)
_MASK64 = (1 << 64) - 1


def _cpu(device):
    """torch's checks of ``Generator(device)``: CPU generators only (meta is no accelerator)."""
    if device is None:
        return Device("cpu")
    if isinstance(device, int) and not isinstance(device, bool):
        device = Device("cuda", device)
    elif not isinstance(device, Device):
        device = Device(device)
    if device.type == "meta":
        raise RuntimeError("META device type not an accelerator.")
    if device.type != "cpu":
        from ..cuda import _require

        _require()
        raise RuntimeError(f"opyard.Generator: device {device.type!r} has no generator in opyard: generators "
                           "are CPU generators (opyard computes on the CPU)")
    return device


class Generator:
    """torch's ``Generator(device='cpu')``: a source of random numbers with its own seed and state,
    passed to the random functions as ``generator=``.

    >>> g = Generator().manual_seed(0)
    >>> state = g.get_state()
    >>> a = opyard.rand(3, generator=g)
    >>> g.set_state(state); opyard.equal(a, opyard.rand(3, generator=g))
    True
    """

    __slots__ = ("_device", "_seed", "_numpy", "__weakref__")

    def __init__(self, device="cpu"):
        self._device = _cpu(device)
        self._seed = DEFAULT_SEED
        self._numpy = None

    @property
    def device(self):
        """The device the generator draws for (always ``cpu``)."""
        return self._device

    def _gen(self):
        """The numpy generator (made on first use; its identity never changes afterwards)."""
        gen = self._numpy
        if gen is None:
            gen = self._numpy = np.random.Generator(np.random.PCG64(self._seed))
        return gen

    def manual_seed(self, seed):
        """Seed the generator with the integer ``seed`` (in ``[-2**63, 2**64)``); returns it."""
        if isinstance(seed, bool) or not hasattr(type(seed), "__index__"):
            raise RuntimeError(f"manual_seed expected a long, but got {type(seed).__name__}")
        seed = seed.__index__()
        if not -(1 << 63) <= seed <= _MASK64:
            raise ValueError("Overflow when unpacking long long")
        self._seed = seed & _MASK64
        if self._numpy is not None:  # re-seeded in place: kernels holding the numpy generator see it
            self._numpy.bit_generator.state = np.random.PCG64(self._seed).state
        return self

    def seed(self):
        """Seed the generator from the operating system's entropy; returns the new seed."""
        seed = int.from_bytes(os.urandom(8), "little")
        self.manual_seed(seed)
        return seed

    def initial_seed(self):
        """The seed the generator was last seeded with."""
        return self._seed

    def get_state(self):
        """The generator's state as a uint8 tensor of ``STATE_SIZE`` bytes (opyard's layout)."""
        from .._tensor import _make

        st = self._gen().bit_generator.state
        raw = (self._seed.to_bytes(8, "little") + st["state"]["state"].to_bytes(16, "little")
               + st["state"]["inc"].to_bytes(16, "little") + int(st["has_uint32"]).to_bytes(8, "little")
               + int(st["uinteger"]).to_bytes(8, "little"))
        return _make(np.frombuffer(raw, np.uint8).copy())

    def set_state(self, new_state):
        """Restore a state from ``get_state``; returns the generator."""
        from .._tensor import Tensor

        if not isinstance(new_state, Tensor):
            raise TypeError(f"expected a opyard.ByteTensor, but got {type(new_state).__name__}")
        if new_state.dtype is not D.uint8 or new_state.is_meta:
            raise TypeError("RNG state must be a opyard.ByteTensor")
        if new_state.numel() != STATE_SIZE:
            raise RuntimeError(f"Expected a CPUGeneratorImplState of size {STATE_SIZE} but found the input RNG "
                               f"state size to be {new_state.numel()}")
        raw = np.ascontiguousarray(new_state._data).reshape(-1).tobytes()
        inc = int.from_bytes(raw[24:40], "little")
        if not inc & 1:
            raise RuntimeError("set_state: the RNG state is not one that get_state returned (its PCG64 "
                               "increment must be odd)")
        self._seed = int.from_bytes(raw[:8], "little")
        self._gen().bit_generator.state = {
            "bit_generator": "PCG64",
            "state": {"state": int.from_bytes(raw[8:24], "little"), "inc": inc},
            "has_uint32": int.from_bytes(raw[40:48], "little") & 1,
            "uinteger": int.from_bytes(raw[48:56], "little") & 0xFFFFFFFF,
        }
        return self

    def clone_state(self):
        """A new generator with this one's seed and state."""
        return Generator(self._device).set_state(self.get_state())

    def __reduce__(self):
        return _rebuild, (self._device.type, self.get_state()._data.tobytes())

    def __deepcopy__(self, memo):
        return self.clone_state()


def _rebuild(device, raw):
    from .._tensor import _make

    return Generator(device).set_state(_make(np.frombuffer(raw, np.uint8).copy()))


Generator.__module__ = "opyard"

default_generator = Generator()


def draws(generator):
    """The numpy generator a kernel draws from: ``generator``'s, or the default one's for None."""
    if generator is None:
        return default_generator._gen()
    if type(generator) is Generator:
        return generator._gen()
    if isinstance(generator, Generator):
        return generator._gen()
    raise TypeError(f"argument 'generator' must be opyard.Generator, not {type(generator).__name__}")
