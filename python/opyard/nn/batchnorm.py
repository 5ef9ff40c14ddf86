"""``nn.BatchNorm1d``/``2d``/``3d``: ``F.batch_norm`` as modules, with torch's running statistics.

In training mode a module normalizes by the batch's statistics and, when it tracks running
statistics, updates ``running_mean``/``running_var`` in place (an exponential average with
``momentum``, or the cumulative average when ``momentum`` is None) and counts the batches in
``num_batches_tracked``; in eval mode it normalizes by the running statistics (by the batch's
when it keeps none). Example::

    >>> bn = nn.BatchNorm1d(3)
    >>> bn(opyard.tensor([[1.0, 2.0, 3.0], [3.0, 6.0, 9.0]]))
    tensor([[-1.0000, -1.0000, -1.0000],
            [ 1.0000,  1.0000,  1.0000]], grad_fn=<NativeBatchNormBackward0>)
    >>> bn.running_mean
    tensor([0.2000, 0.4000, 0.6000])
"""

from .. import _dtype, _factories
from . import init
from ._norms import batch_norm
from .module import Module
from .parameter import Parameter

__all__ = ["BatchNorm1d", "BatchNorm2d", "BatchNorm3d"]


class _NormBase(Module):
    """What every normalization module with running statistics holds (torch's ``_NormBase``)."""

    _version = 2

    def __init__(self, num_features, eps=1e-5, momentum=0.1, affine=True, track_running_stats=True, device=None,
                 dtype=None, *, bias=True):
        kw = {"device": device, "dtype": dtype}
        super().__init__()
        self.num_features = num_features
        self.eps = eps
        self.momentum = momentum
        self.affine = affine
        self.track_running_stats = track_running_stats
        if affine:
            self.weight = Parameter(_factories.empty(num_features, **kw))
            if bias:
                self.bias = Parameter(_factories.empty(num_features, **kw))
            else:
                self.register_parameter("bias", None)
        else:
            self.register_parameter("weight", None)
            self.register_parameter("bias", None)
        if track_running_stats:
            self.register_buffer("running_mean", _factories.zeros(num_features, **kw))
            self.register_buffer("running_var", _factories.ones(num_features, **kw))
            self.register_buffer("num_batches_tracked", _factories.tensor(0, dtype=_dtype.int64, device=device))
        else:
            self.register_buffer("running_mean", None)
            self.register_buffer("running_var", None)
            self.register_buffer("num_batches_tracked", None)
        self.reset_parameters()

    def reset_running_stats(self):
        """Running mean 0, running variance 1, no batch counted (when the module tracks them)."""
        if self.track_running_stats:
            self.running_mean.zero_()
            self.running_var.fill_(1)
            self.num_batches_tracked.zero_()

    def reset_parameters(self):
        self.reset_running_stats()
        if self.affine:
            init.ones_(self.weight)
            if self.bias is not None:
                init.zeros_(self.bias)

    def _check_input_dim(self, input):
        raise NotImplementedError

    def extra_repr(self):
        return (f"{self.num_features}, eps={self.eps}, momentum={self.momentum}, affine={self.affine}, "
                f"bias={self.bias is not None}, track_running_stats={self.track_running_stats}")


class _BatchNorm(_NormBase):
    """Batch normalization over dim 1 (torch's ``_BatchNorm``: the forward of every ``BatchNorm*d``)."""

    # What ``opyard.func.replace_all_batch_norm_modules_`` recognises (torch: ``isinstance(m, _BatchNorm)``);
    # ``opyard.func`` sits below ``opyard.nn`` and knows modules only by their attributes.
    _is_batch_norm = True

    def forward(self, input):
        self._check_input_dim(input)
        factor = 0.0 if self.momentum is None else self.momentum
        if self.training and self.track_running_stats and self.num_batches_tracked is not None:
            self.num_batches_tracked.add_(1)
            # momentum None: the cumulative average of every batch seen so far.
            factor = 1.0 / float(self.num_batches_tracked) if self.momentum is None else self.momentum
        # Batch statistics in training, and in eval when there are no running ones to use.
        use_batch = self.training or (self.running_mean is None and self.running_var is None)
        # The buffers go in only where they are read or updated: never in training without tracking.
        keep = not self.training or self.track_running_stats
        return batch_norm(input, self.running_mean if keep else None, self.running_var if keep else None,
                          self.weight, self.bias, use_batch, factor, self.eps)


class BatchNorm1d(_BatchNorm):
    """Batch normalization of a 2-d ``(N, C)`` or 3-d ``(N, C, L)`` input over each channel."""

    def _check_input_dim(self, input):
        if input.dim() != 2 and input.dim() != 3:
            raise ValueError(f"expected 2D or 3D input (got {input.dim()}D input)")


class BatchNorm2d(_BatchNorm):
    """Batch normalization of a 4-d ``(N, C, H, W)`` input over each channel."""

    def _check_input_dim(self, input):
        if input.dim() != 4:
            raise ValueError(f"expected 4D input (got {input.dim()}D input)")


class BatchNorm3d(_BatchNorm):
    """Batch normalization of a 5-d ``(N, C, D, H, W)`` input over each channel."""

    def _check_input_dim(self, input):
        if input.dim() != 5:
            raise ValueError(f"expected 5D input (got {input.dim()}D input)")


from .._exports import public_dir

__dir__ = public_dir(globals())
