"""``opyard.func`` reverse-mode transforms: ``grad``, ``grad_and_value``, ``vjp``, ``jacrev``, on the
autograd engine, composing with ``vmap`` and the forward transforms in any order (``forward.py``).

Note [Reverse levels]: a reverse transform call is a ``GradLevel`` on the
transform stack (Note [Transform levels]). It runs the function with grad mode
on whatever the mode outside (torch's "a transform does not depend on the grad
mode around it"), on fresh leaves made from its differentiated inputs, and
takes ``autograd.grad`` of the outputs with respect to those leaves:

- Autograd runs on *physical* tensors (the batching rules call ops on them, so
  the graph is recorded there). Inside ``vmap`` each differentiated input is
  brought to its plain form with one batch dim per active vmap level (an input
  not batched at a level is expanded there, so each example owns its copy), made
  a leaf, and re-wrapped. Examples never interact, so the gradient of the sum
  over examples *is* the per-example gradient, and one backward pass serves the
  whole batch.
- A leaf is an alias of its input when the input requires grad (an outer
  ``grad``, or a tensor of the caller that requires grad), so gradients flow out
  of the call, and carries the input's tangents when a forward transform is
  active (forward over reverse: the backward pass then pushes them).
- Whether something outside the call is differentiated through it is read from
  the graph once the function returned: a node recorded before the call (its
  sequence number is below the call's mark) or the ``AccumulateGrad`` of a
  tensor other than the call's leaves. Only then does the backward pass build a
  graph (``create_graph``) and keep the history of what the call returns;
  otherwise results are plain, as torch's are when nothing outside records. A
  call made with grad mode off hands back plain results whatever the function
  did (torch restores the outer mode for what it sends out).
- ``vjp_fn`` runs after its level ended: it builds a graph when grad mode is on
  where it is called and something outside (or its cotangent) is differentiated,
  as torch's ``vjp_fn``.
"""

import functools

from .. import _core
from .._tensor import Tensor
from ..autograd import _tensor_meta as meta
from ..autograd import forward_ad as fwAD
from .. import _function_protocol as _fp
from ..autograd import grad as _autograd_grad
from ..autograd.engine import _check_roots, _make_grads
from ..autograd.engine import run_backward as _run_backward
from ..autograd import transform_levels as levels
from ..autograd.grad_mode import enable_grad, inference_mode, is_grad_enabled, is_inference_mode_enabled, no_grad
from ..autograd.graph import next_sequence_nr
from ..utils._pytree import LEAF, tree_flatten, tree_unflatten, treespec_pprint
from ._checks import check_non_empty_tensor_outputs, error_if_complex, slice_argnums
from .batched import BatchedTensor, layers, wrap
from .inplace import _guards, input_roots
from .rules.common import aten

__all__ = ["grad", "grad_and_value", "jacrev", "vjp"]

_graph_reaches = _core._graph_reaches
_new_level = object.__new__
_numbers = levels.NUMBERS
_tls = levels._tls
_next_birth = _core._next_birth
_FP_MODE = _fp.MODE
_expand = aten("expand")
_alias = aten("alias")
_ones_like = aten("ones_like")
_zeros_like = aten("zeros_like")
_detach = aten("detach")
_reshape = aten("reshape")
_permute = aten("permute")
_cat = aten("cat")
_split = aten("split_with_sizes")
_eye = aten("eye.m")
_unsqueeze = aten("unsqueeze")


def to_plain(x, active):
    """``x`` as a plain tensor with the batch dims of every active level leading (outermost first)."""
    v = x
    for layer in reversed(active):
        if v.__class__ is BatchedTensor and v._level == layer.level:
            v = v._value
        else:
            v = _expand(v, (layer.batch_size,) + tuple(v.shape))
    return v


def from_plain(p, active):
    for layer in active:
        p = wrap(p, layer.level)
    return p


def _lead(p, dims, n):
    """``p`` with ``dims`` (``n`` of them) moved to the front, in order."""
    dims = list(dims)
    if dims == list(range(n)):  # already leading, in order (n == 0 too)
        return p
    rest = [d for d in range(p.dim()) if d not in dims]
    return _permute(p, dims + rest)


def strip(t):
    """``t`` without reverse history (a tensor the caller gets back plain); its tangents stay."""
    if not isinstance(t, Tensor) or not t.requires_grad:
        return t
    if fwAD._state.level is not None:
        with no_grad():  # tangents still flow (Note [Grad mode under forward AD]), history does not
            return _alias(t)
    return _detach(t)


def _plain_of(t):
    while t.__class__ is BatchedTensor:
        t = t._value
    return t


def reaches_outside(roots, lv, leaves=()):
    """Whether the graph behind ``roots`` (tensors) reaches a node recorded before the call of level
    ``lv`` started or a leaf that is not one of the call's (``leaves``, or the dead leaves of the
    reverse calls that ran inside it) and was made before the call: see Note [Reverse levels]. The walk
    is ``_core._graph_reaches``."""
    own = list(leaves)
    own.extend(lv.dead)
    fns = []
    for r in roots:
        if isinstance(r, Tensor):
            p = _plain_of(r)
            fn = p._grad_fn
            if fn is not None:
                fns.append(fn)
            elif p.requires_grad and p._birth < lv.birth and not any(p is leaf for leaf in own):
                return True
    return bool(fns) and _graph_reaches(fns, lv.mark, own, lv.birth)


def batched_autograd_grad(grad, outputs, inputs, grad_outputs, options):
    """``autograd.grad`` called inside ``vmap`` on batched tensors (``Hooks.batched_autograd_grad``): the
    graph is recorded on the physical tensors, so those are differentiated, the batch dims of every
    active level leading, and the gradients wrapped back. An output's implicit gradient is ones per
    example.

    As torch's: inside ``vmap`` a batched tensor has no history of its own (its graph belongs to the
    levels outside the vmap), unless a reverse transform runs inside that vmap (``vmap(grad(f))``): an
    output batched by the vmap is then an output that does not require grad. Inside such a transform,
    an input shared by the examples (not batched at every level) is no tensor of the transform's
    graph: it was not used in it."""
    active = layers()
    vmap_level = active[-1].level if active else None
    inner = vmap_level is not None and any(
        lv.kind is levels.GRAD and lv.level > vmap_level for lv in levels.levels())
    if not inner and not (active and active[-1].legacy):
        for i, o in enumerate(outputs):
            if o.__class__ is BatchedTensor or not meta.requires_grad(o):
                raise RuntimeError(f"element {i} of tensors does not require grad and does not have a grad_fn")
    ins = []
    unused = []
    for i, x in enumerate(inputs):
        p = x
        for layer in reversed(active):
            if p.__class__ is not BatchedTensor or p._level != layer.level:
                if not options.get("allow_unused"):
                    raise RuntimeError(f"The differentiated Tensor at index {i} appears to not have been used in "
                                       "the graph. Set allow_unused=True if this is the desired behavior.")
                unused.append(i)
                break
            p = p._value
        ins.append(p)
    if unused:
        keep = [i for i in range(len(ins)) if i not in unused]
        got = batched_autograd_grad(grad, outputs, [inputs[i] for i in keep], grad_outputs, options) if keep else []
        out = [None] * len(inputs)
        for i, g in zip(keep, got):
            out[i] = g
        if options.get("materialize_grads"):
            out = [_zeros_like(x) if g is None else g for x, g in zip(inputs, out)]
        return out
    outs = [to_plain(o, active) for o in outputs]
    gos = []
    for o, p, g in zip(outputs, outs, grad_outputs):
        if g is None and isinstance(o, Tensor) and o.requires_grad and o.numel() == 1:
            if not o.dtype.is_floating_point:
                raise RuntimeError(f"grad can be implicitly created only for real scalar outputs but got {o.dtype}")
            g = _ones_like(p)
        elif isinstance(g, Tensor):
            g = to_plain(g, active)
        gos.append(g)
    got = grad(outs, ins, gos, **options)
    return [None if g is None else from_plain(g, active) for g in got]


def keep_if_outside(t, lv, leaves=()):
    """``t`` with its history when that reaches outside the call of ``lv``, else plain."""
    if isinstance(t, Tensor) and t.requires_grad and not reaches_outside([t], lv, leaves):
        return strip(t)
    return t


class _Reverse:
    """One reverse transform call: its level on the stack, its leaves and its backward passes."""

    __slots__ = ("lv", "outer", "prev", "undo", "vmaps")

    def __init__(self):
        self.prev = prev = is_grad_enabled()
        lv = self.lv = _new_level(levels.GradLevel)  # the fields set here: no __init__ frame per call
        lv.level = next(_numbers)
        lv.prev_grad = prev
        lv.mark = next_sequence_nr()
        lv.birth = _next_birth()
        lv.dead = []
        lv.leaves = []
        lv.inputs = []
        self.vmaps = layers() if _tls.levels else []
        self.outer = False

    def __enter__(self):
        _tls.levels.append(self.lv)
        guard = _guards.inplace  # See Note [Captured tensors]
        undo = self.undo = [guard]
        guard.__enter__()
        # See Note [Reverse levels]: grad mode on (and inference mode off) inside, whatever outside.
        if is_inference_mode_enabled():
            undo.append(inference_mode(False))
            undo[-1].__enter__()
        if not self.prev:
            undo.append(enable_grad())
            undo[-1].__enter__()
        return self

    def __exit__(self, *exc):
        for m in reversed(self.undo):
            m.__exit__(*exc)
        levels.pop(self.lv)
        self.lv.finish()
        return False

    def differentiable(self, x):
        """The leaf that stands for ``x`` inside the call (torch's ``_create_differentiable``)."""
        if not isinstance(x, Tensor):
            raise ValueError(f"Thing passed to transform API must be Tensor, got {type(x)}")
        plain = to_plain(x, self.vmaps)
        if not meta.is_floating(plain):
            raise RuntimeError("only Tensors of floating point dtype can require gradients")
        if plain.requires_grad:
            leaf = _alias(plain)
        elif fwAD._state.level is not None:
            with no_grad():  # keeps the tangents, records nothing
                leaf = _alias(plain)
        else:
            leaf = _detach(plain)
        # The leaf is a tensor of its own (torch's wrapper of the level): it shares the input's memory
        # and version counter, but is no view of it, so an in-place change of it or of a view of it
        # is checked against the leaf and never rewrites the history of the caller's tensor.
        leaf._vc = leaf._counter()
        leaf._base = None
        leaf._view_fn = None
        if not leaf.requires_grad:
            meta.set_requires_grad_bit(leaf, True)
        self.lv.leaves.append(leaf)
        return from_plain(leaf, self.vmaps)

    def differentiable_tree(self, tree):
        if isinstance(tree, Tensor):  # the common argument: no structure to walk
            return self.differentiable(tree), LEAF
        flat, spec = tree_flatten(tree)
        return tree_unflatten([self.differentiable(x) for x in flat], spec), spec

    def decide(self, outputs):
        """After the function returned: is anything outside differentiated through the call?"""
        self.outer = self.prev and reaches_outside(outputs, self.lv, self.lv.leaves)
        return self.outer

    def result(self, t):
        """``t`` as the call hands it back (see Note [Reverse levels])."""
        if not isinstance(t, Tensor) or not t.requires_grad:
            return t
        if self.outer and reaches_outside([t], self.lv, self.lv.leaves):
            return t
        return strip(t)

    def aux(self, aux):
        """torch's unwrapping of ``aux``: tensors only (in any structure)."""
        flat, spec = tree_flatten(aux)
        for a in flat:
            if not isinstance(a, Tensor):
                raise RuntimeError(f"Expected tensors, got unsupported type {type(a)}")
        return tree_unflatten([self.result(a) for a in flat], spec)

    def grads(self, outputs, cotangents, create, retain_graph=True, inside=False):
        """Gradients (logical, one per leaf) of sum(outputs * cotangents); ``cotangents=None``: ones.

        Cotangents may be batched at vmap levels entered after this call (``jacrev`` maps its
        vjp over a basis): those levels stay batched through the backward pass (its ops run their
        batching rules), outermost under the call's own plain batch dims. ``inside``: called while the
        call's level is the innermost one (no such levels).
        """
        active = self.vmaps
        everything = layers() if not inside else active
        extra = everything[len(active):]
        na, ne = len(active), len(extra)
        flat = self.lv.leaves
        outs = [to_plain(o, active) for o in outputs]
        if cotangents is None:
            cts = [_ones_like(o) for o in outs]
        else:
            cts = [from_plain(_lead(to_plain(c, everything), range(na, na + ne), ne), extra) for c in cotangents]
        live = [(o, c) for o, c in zip(outs, cts) if o.requires_grad]
        if live:
            # A cotangent that requires grad is differentiated later: keep the graph.
            create = create or any(isinstance(c, Tensor) and c.requires_grad for _, c in live)
            outs, cts = [o for o, _ in live], [c for _, c in live]
            if _all_plain(outs, flat, cts):
                got = _plain_grad(outs, flat, cts, retain_graph, create, checked=cotangents is None)
            else:
                got = _autograd_grad(outs, flat, cts, retain_graph=retain_graph, create_graph=create,
                                     allow_unused=True)
        else:
            got = [None] * len(flat)
        # A gradient has its input's dtype (torch's engine casts what flows into an input).
        got = [_zeros_like(leaf) if g is None else g if g.dtype == leaf.dtype else g.to(leaf.dtype)
               for g, leaf in zip(got, flat)]
        if not everything:
            return got
        return [from_plain(_lead(to_plain(g, extra), range(ne, ne + na), na), everything) for g in got]


def _all_plain(*groups):
    """Whether every tensor of ``groups`` is a plain ``Tensor`` and no function mode is active: then
    ``autograd.grad`` asks no ``__torch_function__`` and sees no batched tensor (``_plain_grad``)."""
    if _core._function_state() & _FP_MODE:
        return False
    for g in groups:
        for t in g:
            if t.__class__ is not Tensor:
                return False
    return True


def _plain_grad(outs, leaves, cts, retain_graph, create, checked=False):
    """``autograd.grad(outs, leaves, cts, retain_graph=..., create_graph=..., allow_unused=True)`` for
    plain tensors (``_all_plain``): its checks and its pass, without the protocol and argument
    normalisation a plain call does not need; ``checked``: ``cts`` are ``ones_like(outs)``, whose
    shapes need no check."""
    _check_roots(outs)
    for t in leaves:
        if not meta.requires_grad(t):
            raise RuntimeError("One of the differentiated Tensors does not require grad")
    roots = cts if checked else _make_grads(outs, cts)
    if retain_graph is None:
        retain_graph = create
    return _run_backward(outs, roots, retain_graph, create, leaves, accumulate=False)


def _diff_args(call, args, argnums):
    """``(new args, differentiated structure spec)`` with the selected arguments made leaves."""
    if argnums.__class__ is int and 0 <= argnums < len(args):  # the common call, checks passed already
        new = list(args)
        new[argnums], spec = call.differentiable_tree(args[argnums])
        return new, spec
    diff = slice_argnums(args, argnums, as_tuple=False)
    new_diff, spec = call.differentiable_tree(diff)
    new = list(args)
    if isinstance(argnums, int):
        new[argnums] = new_diff
    else:
        for i, a in zip(argnums, new_diff):
            new[i] = a
    return new, spec


def _grad_and_value(func, argnums, has_aux, args, kwargs, value=True):
    """``grad_and_value``'s call; ``value=False`` (``grad``): the value is not handed back, so it is
    returned as the function gave it (not detached)."""
    with _Reverse() as call:
        call.lv.add_inputs(input_roots(args, kwargs))
        new_args, spec = _diff_args(call, args, argnums)
        output = func(*new_args, **kwargs)
        aux = None
        if has_aux:
            if not (isinstance(output, tuple) and len(output) == 2):
                raise RuntimeError("grad_and_value(f)(*args): output of function f should be a tuple: (output, aux) "
                                   "if has_aux is True")
            output, aux = output
        if not isinstance(output, Tensor):
            raise RuntimeError(f"grad_and_value(f)(*args): Expected f(*args) to return a Tensor, got {type(output)}")
        if output.dim() != 0:
            raise RuntimeError("grad_and_value(f)(*args): Expected f(*args) to return a scalar Tensor, got tensor "
                               f"with {output.dim()} dims. Maybe you wanted to use the vjp or jacrev APIs instead?")
        if output.dtype.is_complex:  # torch's implicit root gradient refuses it
            raise RuntimeError(f"grad can be implicitly created only for real scalar outputs but got {output.dtype}")
        outer = call.decide([output])
        grads = call.grads([output], None, outer, retain_graph=outer, inside=True)
        grads = tree_unflatten(grads, spec)
        if value:
            output = call.result(output)
        if has_aux:
            aux = call.aux(aux)
    return (grads, (output, aux)) if has_aux else (grads, output)


def grad_and_value(func, argnums=0, has_aux=False):
    """``(gradient, value)`` of a function returning a scalar tensor (``(value, aux)`` with ``has_aux``).

    Example::

        >>> g, v = opyard.func.grad_and_value(lambda x: (x ** 2).sum())(opyard.ones(3))   # 2 * x, 3.
    """
    @functools.wraps(func)
    def wrapper(*args, **kwargs):
        return _grad_and_value(func, argnums, has_aux, args, kwargs)
    return wrapper


def grad(func, argnums=0, has_aux=False):
    """The gradient of a scalar function with respect to ``args[argnums]`` (pytrees allowed).

    Example::

        >>> x = opyard.randn(3)
        >>> opyard.func.grad(lambda x: (x ** 2).sum())(x)   # 2 * x
    """
    @functools.wraps(func)
    def wrapper(*args, **kwargs):
        g, value = _grad_and_value(func, argnums, has_aux, args, kwargs, value=False)
        return (g, value[1]) if has_aux else g
    return wrapper


def vjp(func, *primals, has_aux=False):
    """``(output, vjp_fn)``: ``vjp_fn(cotangents)`` gives the cotangents of every primal.

    Example::

        >>> out, vjp_fn = opyard.func.vjp(opyard.sin, x)
        >>> vjp_fn(opyard.ones_like(out))   # (x.cos(),)
    """
    return _vjp_with_argnums(func, *primals, has_aux=has_aux)


def _vjp_with_argnums(func, *primals, argnums=None, has_aux=False, complex_outputs=False):
    """``vjp`` differentiating only ``primals[argnums]`` (``jacrev``); messages as ``vjp``'s.
    ``complex_outputs``: the caller refuses complex outputs with its own message."""
    with _Reverse() as call:
        call.lv.add_inputs(input_roots(primals))
        if argnums is None:
            new, spec = call.differentiable_tree(primals)
        else:
            new, spec = _diff_args(call, primals, argnums)
        out = func(*new)
        aux = None
        if has_aux:
            if not (isinstance(out, tuple) and len(out) == 2):
                raise RuntimeError("vjp(f, *primals): output of function f should be a tuple: (output, aux) "
                                   "if has_aux is True")
            out, aux = out
        flat_out, out_spec = tree_flatten(out)
        check_non_empty_tensor_outputs(flat_out, "vjp(f, *primals)")
        for i, o in enumerate(flat_out):
            if not (o.dtype.is_floating_point or o.dtype.is_complex):
                raise RuntimeError("vjp(f, ...): All outputs of f must be floating-point or complex Tensors, got "
                                   f"Tensor with dtype {o.dtype}")
        outside = reaches_outside(flat_out, call.lv, call.lv.leaves)
        call.outer = call.prev and outside
        results = tree_unflatten([call.result(o) for o in flat_out], out_spec)
        if has_aux:
            aux = call.aux(aux)

    def vjp_fn(cotangents, retain_graph=True, create_graph=None):
        if create_graph is None:
            create_graph = is_grad_enabled()
        flat_ct, ct_spec = tree_flatten(cotangents)
        if ct_spec != out_spec:
            raise RuntimeError("Expected pytree structure of cotangents to be the same as pytree structure of "
                               f"outputs to the function. cotangents: {treespec_pprint(ct_spec)}, primal output: "
                               f"{treespec_pprint(out_spec)}")
        with inference_mode(False):
            got = call.grads(flat_out, flat_ct, create_graph and outside, retain_graph=retain_graph)
        return tree_unflatten(got, spec)

    return (results, vjp_fn, aux) if has_aux else (results, vjp_fn)


def _chunk_sizes(total, chunk_size):
    sizes = [chunk_size] * (total // chunk_size)
    if total % chunk_size:
        sizes.append(total % chunk_size)
    return sizes


def standard_basis(tensors, numels, chunk_size=None):
    """The rows of the identity of size ``sum(numels)``, split per tensor and shaped like it, in
    chunks of at most ``chunk_size`` rows (torch's ``_chunked_standard_basis_for_``)."""
    total = sum(numels)
    sizes = _chunk_sizes(total, chunk_size) if chunk_size and chunk_size < total else [total]
    eyes = {}
    start = 0
    for n in sizes:
        chunks = []
        col = 0
        for t, k in zip(tensors, numels):
            key = (t.dtype, t.device)
            eye = eyes.get(key)
            if eye is None:
                eye = eyes[key] = _eye(total, total, dtype=t.dtype, device=t.device)
            chunks.append(_reshape(eye[start:start + n, col:col + k], (n,) + tuple(t.shape)))
            col += k
        start += n
        yield chunks


def jacrev(func, argnums=0, *, has_aux=False, chunk_size=None, _preallocate_and_copy=False):
    """The Jacobian of ``func`` with respect to ``args[argnums]`` by reverse mode: one vectorized vjp
    per chunk of output elements. Each output gives ``out.shape + arg.shape`` per argument.

    Example::

        >>> opyard.func.jacrev(opyard.sin)(x)    # diag(x.cos())
    """
    if not (chunk_size is None or chunk_size > 0):
        raise ValueError("jacrev: `chunk_size` should be greater than 0.")
    from .vmap import vmap

    @functools.wraps(func)
    def wrapper(*args):
        error_if_complex("jacrev", args, is_input=True)
        got = _vjp_with_argnums(func, *args, argnums=argnums, has_aux=has_aux, complex_outputs=True)
        output, vjp_fn, aux = got if has_aux else (got + (None,))
        flat_output, output_spec = tree_flatten(output)
        error_if_complex("jacrev", flat_output, is_input=False)
        numels = tuple(o.numel() for o in flat_output)
        primals = slice_argnums(args, argnums)
        flat_primals, primals_spec = tree_flatten(primals)
        chunks = []
        for basis in standard_basis(flat_output, numels, chunk_size):
            if chunk_size == 1:
                rows = vjp_fn(tree_unflatten([b[0] for b in basis], output_spec))
                rows = [_unsqueeze(r, 0) for r in tree_flatten(rows)[0]]
            else:
                rows = tree_flatten(vmap(vjp_fn)(tree_unflatten(basis, output_spec)))[0]
            chunks.append(rows)
        per_input = chunks[0] if len(chunks) == 1 else [_cat([c[i] for c in chunks], 0)
                                                        for i in range(len(flat_primals))]
        # per input: (sum(numels),) + primal.shape -> one block per output
        per_input = [_split(r, list(numels), 0) for r in per_input]
        per_out = [tuple(_reshape(per_input[i][j], tuple(o.shape) + tuple(p.shape))
                         for i, p in enumerate(flat_primals))
                   for j, o in enumerate(flat_output)]
        per_out = [tree_unflatten(list(blocks), primals_spec) for blocks in per_out]
        if isinstance(argnums, int):
            per_out = [blocks[0] for blocks in per_out]
        result = tree_unflatten(per_out, output_spec)
        return (result, aux) if has_aux else result
    return wrapper

from .._exports import public_dir

__dir__ = public_dir(globals())
