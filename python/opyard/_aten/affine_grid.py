"""``affine_grid_generator``: the sampling grid of a batch of affine transforms (what
``nn.functional.affine_grid`` returns, ``grid_sample``'s input), composed as torch computes it:
a base grid of normalised coordinates (``linspace(-1, 1, n)``, scaled by ``(n - 1) / n`` unless
``align_corners``, a 1 appended) times ``theta`` transposed, by ``bmm``. Autograd comes from the
parts: the gradient reaches ``theta`` through ``bmm``."""

from ._declare import OpTable
from .common import A

__all__ = ["OPS"]

OPS = OpTable()


def _coordinates(theta, n, align_corners):
    """torch's ``linspace_from_neg_one``: ``n`` coordinates in [-1, 1] in ``theta``'s dtype."""
    if n <= 1:
        return A.scalar_tensor(0, dtype=theta.dtype, device=theta.device)
    values = A.linspace(-1, 1, n, dtype=theta.dtype, device=theta.device)
    if not align_corners:
        values = A.div__Scalar(A.mul__Scalar(values, n - 1), n)
    return values


@OPS.op("affine_grid_generator(Tensor theta, SymInt[] size, bool align_corners) -> Tensor", kind="composite")
def affine_grid_generator(theta, size, align_corners):
    if len(size) not in (4, 5):
        raise RuntimeError("AffineGridGenerator needs 4d (spatial) or 5d (volumetric) inputs.")
    n, spatial = size[0], list(size[2:])
    ones = A.ones(spatial, dtype=theta.dtype, device=theta.device)
    # the coordinate of the last spatial dim first (x, then y, then z), broadcast over the others
    axes = []
    for i, extent in enumerate(reversed(spatial)):
        line = _coordinates(theta, extent, align_corners)
        if line.dim():
            line = A.reshape(line, [extent] + [1] * i)
        axes.append(A.expand(line, spatial))
    base = A.stack(axes + [ones], -1)
    k = len(spatial) + 1
    points = 1
    for extent in spatial:
        points *= extent
    base = A.reshape(A.expand(base, [n] + spatial + [k]), [n, points, k])
    grid = A.bmm(base, A.transpose__int(theta, 1, 2))
    return A.reshape(grid, [n] + spatial + [k - 1])
