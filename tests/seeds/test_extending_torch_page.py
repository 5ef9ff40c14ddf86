"""The "Extending torch" examples of the Extending PyTorch notes, verbatim with torch -> opyard."""

import functools
import inspect
import logging

import pytest

import opyard as torch  # the examples spell it torch

# --- ScalarTensor: a Tensor-like type that is not a Tensor ----------------------------------

HANDLED_FUNCTIONS = {}


class ScalarTensor(object):
    def __init__(self, N, value):
        self._N = N
        self._value = value

    def __repr__(self):
        return "DiagonalTensor(N={}, value={})".format(self._N, self._value)

    def tensor(self):
        return self._value * torch.eye(self._N)

    @classmethod
    def __torch_function__(cls, func, types, args=(), kwargs=None):
        if kwargs is None:
            kwargs = {}
        if func not in HANDLED_FUNCTIONS or not all(
            issubclass(t, (torch.Tensor, ScalarTensor))
            for t in types
        ):
            return NotImplemented
        return HANDLED_FUNCTIONS[func](*args, **kwargs)


def implements(torch_function):
    """Register a torch function override for ScalarTensor"""
    @functools.wraps(torch_function)
    def decorator(func):
        HANDLED_FUNCTIONS[torch_function] = func
        return func
    return decorator


@implements(torch.mean)
def mean(input):
    return float(input._value) / input._N


def ensure_tensor(data):
    if isinstance(data, ScalarTensor):
        return data.tensor()
    return torch.as_tensor(data)


@implements(torch.add)
def add(input, other):
    try:
        if input._N == other._N:
            return ScalarTensor(input._N, input._value + other._value)
        else:
            raise ValueError("Shape mismatch!")
    except AttributeError:
        return torch.add(ensure_tensor(input), ensure_tensor(other))


def test_scalar_tensor_repr_and_tensor():
    d = ScalarTensor(5, 2)
    assert repr(d) == "DiagonalTensor(N=5, value=2)"
    assert d.tensor().tolist() == (2 * torch.eye(5)).tolist()


def test_scalar_tensor_mean():
    d = ScalarTensor(5, 2)
    assert torch.mean(d) == 0.4


def test_scalar_tensor_add_fast_and_slow_paths():
    s = ScalarTensor(2, 2)
    assert repr(torch.add(s, s)) == "DiagonalTensor(N=2, value=4)"
    t = torch.tensor([[1, 1, ], [1, 1]])
    out = torch.add(s, t)
    assert type(out) is torch.Tensor
    assert out.tolist() == [[3., 1.], [1., 3.]]


def test_scalar_tensor_override_signature_is_not_checked():
    s = ScalarTensor(2, 2)
    with pytest.raises(TypeError, match="unexpected keyword argument 'alpha'"):
        torch.add(s, s, alpha=2)


def test_scalar_tensor_unhandled_function():
    s = ScalarTensor(2, 2)
    with pytest.raises(TypeError, match=r"no implementation found for 'opyard.mul' on types that "
                                        r"implement __opyard_function__: \[ScalarTensor\]"):
        torch.mul(s, 3)


class FallbackScalarTensor(ScalarTensor):
    """The seed's second __torch_function__: unhandled functions run on plain tensors."""

    @classmethod
    def __torch_function__(cls, func, types, args=(), kwargs=None):
        if kwargs is None:
            kwargs = {}
        if func not in HANDLED_FUNCTIONS or not all(
            isinstance(t, (torch.Tensor, ScalarTensor))
            for t in types
        ):
            args = [a.tensor() if hasattr(a, 'tensor') else a for a in args]
            return func(*args, **kwargs)
        return HANDLED_FUNCTIONS[func](*args, **kwargs)


def test_scalar_tensor_fallback_to_tensor():
    s = FallbackScalarTensor(2, 2)
    out = torch.mul(s, s)
    assert type(out) is torch.Tensor
    assert out.tolist() == [[4., 0.], [0., 4.]]


# --- Subclassing torch.Tensor -----------------------------------------------------------------


class SubTensor(torch.Tensor):
    pass


class SubTensor2(SubTensor):
    pass


class OtherSubTensor(torch.Tensor):
    pass


def test_subclass_results_keep_the_subclass():
    assert type(torch.add(SubTensor([0]), SubTensor([1]))).__name__ == 'SubTensor'
    assert type(torch.add(SubTensor([0]), torch.tensor([1]))).__name__ == 'SubTensor'


def test_lowest_subclass_wins():
    assert type(torch.add(SubTensor2([0]), SubTensor([1]))).__name__ == 'SubTensor2'
    assert type(torch.add(SubTensor2([0]), torch.tensor([1]))).__name__ == 'SubTensor2'


def test_unrelated_subclasses_raise():
    with pytest.raises(TypeError, match=r"no implementation found for 'opyard.add' on types that "
                                        r"implement __opyard_function__: \[SubTensor, OtherSubTensor\]"):
        torch.add(SubTensor([0]), OtherSubTensor([1]))


class LoggingTensor(torch.Tensor):
    @classmethod
    def __torch_function__(cls, func, types, args=(), kwargs=None):
        # NOTE: Logging calls Tensor.__repr__, so we can't log __repr__ without infinite recursion
        if func is not torch.Tensor.__repr__:
            logging.info(f"func: {func.__name__}, args: {args!r}, kwargs: {kwargs!r}")
        if kwargs is None:
            kwargs = {}
        return super().__torch_function__(func, types, args, kwargs)


def test_logging_tensor_logs_functions_methods_and_operators(caplog):
    caplog.set_level(logging.INFO)
    x = LoggingTensor([1.0, 2.0])
    y = torch.add(x, 1)
    z = (y * 2).sum()
    first = x[0]
    names = [r.getMessage().split(",")[0] for r in caplog.records]
    assert names == ["func: add", "func: mul", "func: sum", "func: __getitem__"]
    assert type(y) is LoggingTensor and type(z) is LoggingTensor and type(first) is LoggingTensor
    assert z.item() == 10.0


class OpyardLoggingTensor(torch.Tensor):
    """The notes' LoggingTensor in the contract's own spelling (``__opyard_function__`` and
    ``super().__opyard_function__``), which is the same classmethod object on ``Tensor``."""

    @classmethod
    def __opyard_function__(cls, func, types, args=(), kwargs=None):
        if func is not torch.Tensor.__repr__:
            logging.info(f"func: {func.__name__}, args: {args!r}, kwargs: {kwargs!r}")
        if kwargs is None:
            kwargs = {}
        return super().__opyard_function__(func, types, args, kwargs)


@pytest.mark.parametrize("cls", [LoggingTensor, OpyardLoggingTensor])
def test_logging_tensor_in_either_spelling(cls, caplog):
    caplog.set_level(logging.INFO)
    x = cls([1.0, 2.0])
    y = torch.add(x, 1)
    z = (y * 2).sum()
    first = x[0]
    names = [r.getMessage().split(",")[0] for r in caplog.records]
    assert names == ["func: add", "func: mul", "func: sum", "func: __getitem__"]
    assert type(y) is cls and type(z) is cls and type(first) is cls
    assert z.item() == 10.0
    assert cls.__dict__["__opyard_function__"] is cls.__dict__["__torch_function__"]


def test_metadata_tensor_in_the_contracts_spelling():
    class OpyardMetadataTensor(MetadataTensor):
        @classmethod
        def __opyard_function__(cls, func, types, args=(), kwargs=None):
            out = MetadataTensor.__torch_function__.__func__(cls, func, types, args, kwargs)
            return OpyardMetadataTensor(out._t, metadata=out._metadata)

    metadata = {'owner': 'Ministry of Silly Walks'}
    m = OpyardMetadataTensor([[1, 2], [3, 4]], metadata=metadata)
    added = torch.add(torch.tensor([[1, 2], [1, 2]]), m)
    assert type(added) is OpyardMetadataTensor and added._metadata is metadata
    assert added._t.tolist() == [[2, 4], [4, 6]]


# --- MetadataTensor: a wrapper that is not a Tensor ------------------------------------------


class MetadataTensor(object):
    def __init__(self, data, metadata=None, **kwargs):
        self._t = torch.as_tensor(data, **kwargs)
        self._metadata = metadata

    def __repr__(self):
        return "Metadata:\n{}\n\ndata:\n{}".format(self._metadata, self._t)

    @classmethod
    def __torch_function__(cls, func, types, args=(), kwargs=None):
        if kwargs is None:
            kwargs = {}
        # The notes' listing reads ``tuple(a._metadata if hasattr(a, '_metadata') for a in args)``
        # after unwrapping ``args``: a SyntaxError, and it would find no metadata. This is the
        # evident intent, which produces the output the notes show.
        metadatas = tuple(a._metadata for a in args if hasattr(a, '_metadata'))
        args = [a._t if hasattr(a, '_t') else a for a in args]
        assert len(metadatas) > 0
        ret = func(*args, **kwargs)
        return MetadataTensor(ret, metadata=metadatas[0])


def test_metadata_tensor_propagates_metadata():
    metadata = {'owner': 'Ministry of Silly Walks'}
    m = MetadataTensor([[1, 2], [3, 4]], metadata=metadata)
    t = torch.tensor([[1, 2], [1, 2]])
    added = torch.add(t, m)
    assert repr(added) == ("Metadata:\n{'owner': 'Ministry of Silly Walks'}\n\ndata:\n"
                           "tensor([[2, 4],\n        [4, 6]])")
    multiplied = torch.mul(t, m)
    assert multiplied._metadata is metadata
    assert multiplied._t.tolist() == [[1, 4], [3, 8]]


# --- Testing coverage of overrides -------------------------------------------------------------


def test_overridable_functions_listing():
    from opyard.overrides import get_overridable_functions

    func_dict = get_overridable_functions()
    funcs = func_dict[torch]
    assert torch.add in funcs and torch.mean in funcs
    methods = func_dict[torch.Tensor]
    assert torch.Tensor.__getitem__ in methods
    assert any(getattr(f, "__qualname__", "") == "Tensor.grad.__get__" for f in methods)


def test_testing_overrides_signature():
    from opyard.overrides import get_testing_overrides

    override_dict = get_testing_overrides()
    dummy_add = override_dict[torch.add]
    assert str(inspect.signature(dummy_add)) == "(input, other, *, alpha=1)"
    assert dummy_add(1, 2) == -1


def test_ignored_functions_are_not_overridable():
    from opyard.overrides import get_ignored_functions, get_overridable_functions

    ignored = get_ignored_functions()
    assert torch.tensor in ignored and torch.zeros in ignored
    assert not set(map(id, ignored)) & set(map(id, get_overridable_functions()[torch]))
