"""``SGD``: stochastic gradient descent with momentum and weight decay (torch's update rule)."""

from .._ops import ops
from ..autograd.grad_mode import no_grad
from .optimizer import Optimizer

__all__ = ["SGD"]

_A = ops.aten


class SGD(Optimizer):
    """``p -= lr * (g + weight_decay * p)``, with momentum buffers when ``momentum > 0``.

    Example::

        >>> opt = opyard.optim.SGD(model.parameters(), lr=0.1, momentum=0.9)
        >>> opt.zero_grad(); loss.backward(); opt.step()
    """

    def __init__(self, params, lr=1e-3, momentum=0.0, dampening=0.0, weight_decay=0.0,
                 nesterov=False, *, maximize=False):
        if lr < 0.0:
            raise ValueError(f"Invalid learning rate: {lr}")
        if momentum < 0.0:
            raise ValueError(f"Invalid momentum value: {momentum}")
        if weight_decay < 0.0:
            raise ValueError(f"Invalid weight_decay value: {weight_decay}")
        if nesterov and (momentum <= 0 or dampening != 0):
            raise ValueError("Nesterov momentum requires a momentum and zero dampening")
        super().__init__(params, dict(lr=lr, momentum=momentum, dampening=dampening,
                                      weight_decay=weight_decay, nesterov=nesterov, maximize=maximize))

    def step(self, closure=None):
        """One update of every parameter that has a gradient; returns ``closure()`` if given."""
        loss = None
        if closure is not None:
            from ..autograd.grad_mode import enable_grad
            with enable_grad():
                loss = closure()
        with no_grad():
            for group in self.param_groups:
                self._update_group(group)
        return loss

    def _update_group(self, group):
        lr, momentum, dampening = group["lr"], group["momentum"], group["dampening"]
        wd, nesterov, maximize = group["weight_decay"], group["nesterov"], group["maximize"]
        # Overloads are named (not `a + b`): see Note [Explicit overloads] in autograd/_tensor_meta.py.
        for p in group["params"]:
            g = p.grad
            if g is None:
                continue
            if maximize:
                g = _A.neg.default(g)
            if wd != 0:
                g = _A.add.Tensor(g, p, alpha=wd)
            if momentum != 0:
                state = self.state.setdefault(id(p), {})
                buf = state.get("momentum_buffer")
                if buf is None:
                    buf = state["momentum_buffer"] = g.clone()
                else:
                    _A.add_.Tensor(_A.mul_.Scalar(buf, momentum), g, alpha=1 - dampening)
                g = _A.add.Tensor(g, buf, alpha=momentum) if nesterov else buf
            _A.add_.Tensor(p, g, alpha=-lr)
