"""``replace_all_batch_norm_modules_(root)``: make every batch norm module under ``root`` stop
tracking running statistics (torch.func's), so that ``vmap`` over a model does not write per-example
statistics into shared buffers. The modules keep normalizing by the batch's statistics.

Modules are known by their stores and attributes (``opyard.nn`` sits above this layer): a batch norm
module is one whose class sets ``_is_batch_norm`` (``opyard.nn``'s ``_BatchNorm``).
"""

__all__ = ["replace_all_batch_norm_modules_"]


def _without_running_stats(module):
    if getattr(type(module), "_is_batch_norm", False) and module.track_running_stats:
        module.running_mean = None
        module.running_var = None
        module.num_batches_tracked = None
        module.track_running_stats = False


def replace_all_batch_norm_modules_(root):
    """In place, set ``running_mean``, ``running_var`` and ``num_batches_tracked`` to None and
    ``track_running_stats`` to False on every batch norm module of ``root`` (``root`` included);
    returns ``root``.

    Example::

        >>> net = nn.BatchNorm1d(3)
        >>> opyard.func.replace_all_batch_norm_modules_(net).running_mean is None
        True
    """
    _without_running_stats(root)
    for module in root.modules():
        _without_running_stats(module)
    return root
