"""``nn.Module``: parameters, buffers and submodules registered by attribute assignment.

Example (the seed's ``Linear``)::

    >>> class Linear(nn.Module):
    ...     def __init__(self, input_features, output_features):
    ...         super().__init__()
    ...         self.weight = nn.Parameter(opyard.empty(output_features, input_features))
    ...     def forward(self, input):
    ...         return input.mm(self.weight.t())
"""

from collections import OrderedDict

from .. import _dtype
from ..autograd import _tensor_meta as meta
from ..autograd.grad_mode import no_grad
from .parameter import Parameter

__all__ = ["Module"]


class Module:
    """Base class of all layers: ``__call__`` runs ``forward``."""

    training = True

    def __init__(self, *args, **kwargs):
        if args or kwargs:
            raise TypeError(f"{type(self).__name__}.__init__() takes no arguments: Module.__init__ "
                            f"got {args!r} {kwargs!r}")
        object.__setattr__(self, "training", True)
        object.__setattr__(self, "_parameters", OrderedDict())
        object.__setattr__(self, "_buffers", OrderedDict())
        object.__setattr__(self, "_non_persistent_buffers", set())
        object.__setattr__(self, "_modules", OrderedDict())

    def forward(self, *args, **kwargs):
        raise NotImplementedError(f'Module [{type(self).__name__}] is missing the required "forward" '
                                  "function")

    def __call__(self, *args, **kwargs):
        return self.forward(*args, **kwargs)

    # -- registration -------------------------------------------------------------------

    def _check_init(self, what):
        if "_parameters" not in self.__dict__:
            raise AttributeError(f"cannot assign {what} before Module.__init__() call")

    def register_parameter(self, name, param):
        """Add a parameter (``None`` allowed: an optional parameter that is absent)."""
        self._check_init("parameter")
        if not isinstance(name, str):
            raise TypeError(f"parameter name should be a string. Got {type(name).__name__}")
        if "." in name or name == "":
            raise KeyError(f'parameter name can\'t contain "." or be empty, got {name!r}')
        if hasattr(self, name) and name not in self._parameters:
            raise KeyError(f"attribute '{name}' already exists")
        if param is not None and not isinstance(param, Parameter):
            raise TypeError(f"cannot assign '{type(param).__name__}' object to parameter '{name}' "
                            "(opyard.nn.Parameter or None required)")
        self._parameters[name] = param

    def register_buffer(self, name, tensor, persistent=True):
        """Add a buffer: state that is not a parameter (e.g. running statistics)."""
        self._check_init("buffer")
        if "." in name or name == "":
            raise KeyError(f'buffer name can\'t contain "." or be empty, got {name!r}')
        if hasattr(self, name) and name not in self._buffers:
            raise KeyError(f"attribute '{name}' already exists")
        if tensor is not None and not meta.is_tensor(tensor):
            raise TypeError(f"cannot assign '{type(tensor).__name__}' object to buffer '{name}' "
                            "(opyard Tensor or None required)")
        self._buffers[name] = tensor
        if persistent:
            self._non_persistent_buffers.discard(name)
        else:
            self._non_persistent_buffers.add(name)

    def add_module(self, name, module):
        """Add a child module."""
        if module is not None and not isinstance(module, Module):
            raise TypeError(f"{type(module).__name__} is not a Module subclass")
        self._modules[name] = module

    register_module = add_module

    def __setattr__(self, name, value):
        d = self.__dict__
        if isinstance(value, Parameter):
            self._check_init("parameters")
            _remove_from(d, name, "_buffers", "_modules")
            d.pop(name, None)
            self.register_parameter(name, value)
        elif isinstance(value, Module):
            self._check_init("child modules")
            _remove_from(d, name, "_parameters", "_buffers")
            d.pop(name, None)
            self._modules[name] = value
        elif "_parameters" in d and name in d["_parameters"]:
            if value is not None:
                raise TypeError(f"cannot assign '{type(value).__name__}' as parameter '{name}' "
                                "(opyard.nn.Parameter or None expected)")
            d["_parameters"][name] = None
        elif "_modules" in d and name in d["_modules"]:
            if value is not None:
                raise TypeError(f"cannot assign '{type(value).__name__}' as child module '{name}' "
                                "(opyard.nn.Module or None expected)")
            d["_modules"][name] = None
        elif "_buffers" in d and name in d["_buffers"]:
            if value is not None and not meta.is_tensor(value):
                raise TypeError(f"cannot assign '{type(value).__name__}' as buffer '{name}' "
                                "(opyard.Tensor or None expected)")
            d["_buffers"][name] = value
        else:
            object.__setattr__(self, name, value)

    def __getattr__(self, name):
        d = self.__dict__
        for store in ("_parameters", "_buffers", "_modules"):
            if store in d and name in d[store]:
                return d[store][name]
        raise AttributeError(f"'{type(self).__name__}' object has no attribute '{name}'")

    def __delattr__(self, name):
        for store in ("_parameters", "_buffers", "_modules"):
            if name in self.__dict__.get(store, ()):
                del self.__dict__[store][name]
                return
        object.__delattr__(self, name)

    def __dir__(self):
        keys = set(super().__dir__())
        for store in ("_parameters", "_buffers", "_modules"):
            keys.update(self.__dict__.get(store, ()))
        return sorted(keys)

    # -- traversal ----------------------------------------------------------------------

    def named_modules(self, memo=None, prefix=""):
        memo = set() if memo is None else memo
        if self in memo:
            return
        memo.add(self)
        yield prefix, self
        for name, module in self._modules.items():
            if module is not None:
                yield from module.named_modules(memo, f"{prefix}.{name}" if prefix else name)

    def modules(self):
        for _, m in self.named_modules():
            yield m

    def named_children(self):
        seen = set()
        for name, module in self._modules.items():
            if module is not None and module not in seen:
                seen.add(module)
                yield name, module

    def children(self):
        for _, m in self.named_children():
            yield m

    def _named_members(self, store, prefix, recurse):
        seen = set()
        modules = self.named_modules(prefix=prefix) if recurse else [(prefix, self)]
        for mod_prefix, module in modules:
            for name, value in module.__dict__[store].items():
                if value is None or id(value) in seen:
                    continue
                seen.add(id(value))
                yield (f"{mod_prefix}.{name}" if mod_prefix else name), value

    def named_parameters(self, prefix="", recurse=True):
        yield from self._named_members("_parameters", prefix, recurse)

    def parameters(self, recurse=True):
        for _, p in self.named_parameters(recurse=recurse):
            yield p

    def named_buffers(self, prefix="", recurse=True):
        yield from self._named_members("_buffers", prefix, recurse)

    def buffers(self, recurse=True):
        for _, b in self.named_buffers(recurse=recurse):
            yield b

    # -- modes and state ----------------------------------------------------------------

    def train(self, mode=True):
        if not isinstance(mode, bool):
            raise ValueError("training mode is expected to be boolean")
        for m in self.modules():
            object.__setattr__(m, "training", mode)
        return self

    def eval(self):
        return self.train(False)

    def requires_grad_(self, requires_grad=True):
        for p in self.parameters():
            p.requires_grad_(requires_grad)
        return self

    def zero_grad(self, set_to_none=True):
        """Reset the gradients of all parameters (to ``None``, or to zero in place)."""
        zero_grads(self.parameters(), set_to_none)

    def apply(self, fn):
        for m in self.children():
            m.apply(fn)
        fn(self)
        return self

    def state_dict(self, destination=None, prefix="", keep_vars=False):
        """Parameters and persistent buffers by dotted name (detached unless ``keep_vars``)."""
        out = OrderedDict() if destination is None else destination
        for name, p in self._parameters.items():
            if p is not None:
                out[prefix + name] = p if keep_vars else p.detach()
        for name, b in self._buffers.items():
            if b is not None and name not in self._non_persistent_buffers:
                out[prefix + name] = b if keep_vars else b.detach()
        for name, m in self._modules.items():
            if m is not None:
                m.state_dict(out, prefix + name + ".", keep_vars)
        return out

    def load_state_dict(self, state_dict, strict=True, assign=False):
        """Copy values into the parameters/buffers; returns ``(missing_keys, unexpected_keys)``."""
        own = self.state_dict(keep_vars=True)
        missing = [k for k in own if k not in state_dict]
        unexpected = [k for k in state_dict if k not in own]
        errors = []
        for k, target in own.items():
            if k not in state_dict:
                continue
            src = state_dict[k]
            if tuple(src.shape) != tuple(target.shape):
                errors.append(f"size mismatch for {k}: copying a param with shape {tuple(src.shape)} "
                              f"from checkpoint, the shape in current model is {tuple(target.shape)}.")
                continue
            with no_grad():
                target.copy_(src)
        if strict and (missing or unexpected):
            if unexpected:
                errors.insert(0, "Unexpected key(s) in state_dict: "
                              + ", ".join(f'"{k}"' for k in unexpected) + ". ")
            if missing:
                errors.insert(0, "Missing key(s) in state_dict: "
                              + ", ".join(f'"{k}"' for k in missing) + ". ")
        if errors:
            raise RuntimeError(f"Error(s) in loading state_dict for {type(self).__name__}:\n\t"
                               + "\n\t".join(errors))
        return _IncompatibleKeys(missing, unexpected)

    def to(self, *args, **kwargs):
        """Convert parameters and buffers in place (dtype and/or device), like torch: a dtype applies
        to the floating-point and complex tensors only (integer buffers such as counters keep theirs)."""
        dtype = kwargs.get("dtype")
        if dtype is None:
            dtype = next((a for a in args if isinstance(a, _dtype.dtype)), None)
        if dtype is not None and not (dtype.is_floating_point or dtype.is_complex):
            raise TypeError(f"nn.Module.to only accepts floating point or complex dtypes, but got desired "
                            f"dtype={dtype}")
        other_args = [a for a in args if not isinstance(a, _dtype.dtype)]
        other_kwargs = {k: v for k, v in kwargs.items() if k != "dtype"}
        for module in self.modules():
            for store in ("_parameters", "_buffers"):
                for name, t in module.__dict__[store].items():
                    if t is None:
                        continue
                    with no_grad():
                        if t.dtype.is_floating_point or t.dtype.is_complex:
                            converted = t.to(*args, **kwargs)
                        elif other_args or other_kwargs:
                            converted = t.to(*other_args, **other_kwargs)
                        else:
                            continue
                    if converted is t:
                        continue
                    if store == "_parameters":
                        new = Parameter(converted, t.requires_grad)
                        module.__dict__[store][name] = new
                    else:
                        module.__dict__[store][name] = converted
        return self

    def double(self):
        return self.to(_dtype.float64)

    def float(self):
        return self.to(_dtype.float32)

    # -- printing -----------------------------------------------------------------------

    def extra_repr(self):
        """Extra information shown inside ``repr`` (override in subclasses)."""
        return ""

    def _get_name(self):
        return type(self).__name__

    def __repr__(self):
        lines = []
        extra = self.extra_repr()
        if extra:
            lines.extend(extra.split("\n"))
        for name, module in self._modules.items():
            mod_str = repr(module).replace("\n", "\n  ")
            lines.append(f"({name}): {mod_str}")
        main = self._get_name() + "("
        if lines:
            if len(lines) == 1 and not self._modules:
                main += lines[0]
            else:
                main += "\n  " + "\n  ".join(lines) + "\n"
        return main + ")"


class _IncompatibleKeys(tuple):
    def __new__(cls, missing_keys, unexpected_keys):
        obj = super().__new__(cls, (missing_keys, unexpected_keys))
        obj.missing_keys = missing_keys
        obj.unexpected_keys = unexpected_keys
        return obj

    def __repr__(self):
        if not self.missing_keys and not self.unexpected_keys:
            return "<All keys matched successfully>"
        return f"_IncompatibleKeys(missing_keys={self.missing_keys}, unexpected_keys={self.unexpected_keys})"


def _remove_from(d, name, *stores):
    for store in stores:
        if store in d:
            d[store].pop(name, None)


def zero_grads(params, set_to_none=True):
    """Reset ``.grad`` of each tensor in ``params`` (to ``None``, or to zero in place)."""
    for p in params:
        if p.grad is None:
            continue
        if set_to_none:
            p.grad = None
        else:
            with no_grad():
                p.grad.zero_()

from .._exports import public_dir

__dir__ = public_dir(globals())
