"""Snippets of ``nn`` module use (the batch norm modules), run with ``T`` bound to torch (by
``gen_torch_nn_module_cases.py``, which records what each returns or raises) and to opyard (by
``tests/nn/test_batchnorm_modules.py``, which compares). The prelude of ``func_cases.py`` comes first,
then the names below (fixed values, no random numbers)."""

PRELUDE = """
nn = T.nn
x2 = T.tensor([[0.5, -1.0, 2.0], [1.5, 0.25, -0.75], [3.0, 1.0, 0.0], [-2.0, 0.5, 1.25]])
x3d = (T.arange(24.0).reshape(2, 3, 4) * 0.37).sin()
x4d = (T.arange(48.0).reshape(2, 3, 2, 4) * 0.29).cos()
x5d = (T.arange(96.0).reshape(2, 3, 2, 2, 4) * 0.41).sin()
def state(m):
    return {k: v for k, v in m.state_dict().items()}
"""

CASES = {
    "bn1d_defaults": ("m = nn.BatchNorm1d(3)\nout = (m.weight, m.bias, m.running_mean, m.running_var, "
                      "m.num_batches_tracked, m.eps, m.momentum, m.affine, m.track_running_stats, m.training)"),
    "bn1d_repr": "out = repr(nn.BatchNorm1d(3))",
    "bn2d_repr_options": "out = repr(nn.BatchNorm2d(4, eps=1e-3, momentum=None, affine=False, track_running_stats=False))",
    "bn1d_repr_no_bias": "out = repr(nn.BatchNorm1d(3, bias=False))",
    "bn1d_names": ("m = nn.BatchNorm1d(3)\nout = ([n for n, _ in m.named_parameters()], [n for n, _ in m.named_buffers()], "
                   "sorted(m.state_dict()))"),
    "bn1d_train_forward": "m = nn.BatchNorm1d(3)\nout = (m(x2), m.running_mean, m.running_var, m.num_batches_tracked)",
    "bn1d_train_twice": "m = nn.BatchNorm1d(3)\nm(x2)\nm(x2 * 2 + 1)\nout = state(m)",
    "bn1d_momentum_none": "m = nn.BatchNorm1d(3, momentum=None)\nm(x2)\nm(x2 * 2 + 1)\nm(x2 - 3)\nout = state(m)",
    "bn1d_momentum_custom": "m = nn.BatchNorm1d(3, momentum=0.5)\nm(x2)\nm(x2.flip(0) * 3)\nout = state(m)",
    "bn1d_eval_uses_running": "m = nn.BatchNorm1d(3)\nm(x2)\nm.eval()\nout = (m(x2), state(m))",
    "bn1d_eval_fresh": "m = nn.BatchNorm1d(3).eval()\nout = m(x2)",
    "bn1d_no_tracking": ("m = nn.BatchNorm1d(3, track_running_stats=False)\nout = (m(x2), m.running_mean, m.running_var, "
                         "m.num_batches_tracked, m.eval()(x2), sorted(m.state_dict()))"),
    "bn1d_no_affine": "m = nn.BatchNorm1d(3, affine=False)\nout = (m(x2), m.weight, m.bias, [n for n, _ in m.named_parameters()])",
    "bn1d_no_bias": "m = nn.BatchNorm1d(3, bias=False)\nout = (m(x2), m.bias, [n for n, _ in m.named_parameters()])",
    "bn1d_3d_input": "m = nn.BatchNorm1d(3)\nout = (m(x3d), state(m))",
    "bn1d_float64": "m = nn.BatchNorm1d(3, dtype=T.float64)\nout = (m(x2.double()), state(m))",
    "bn1d_gradients": ("m = nn.BatchNorm1d(3)\nx = x2.clone().requires_grad_()\ny = m(x)\n"
                       "out = T.autograd.grad((y * y.detach().cos()).sum(), [x, m.weight, m.bias])"),
    "bn1d_reset_running_stats": "m = nn.BatchNorm1d(3)\nm(x2)\nm.reset_running_stats()\nout = state(m)",
    "bn1d_reset_parameters": ("m = nn.BatchNorm1d(3)\nm(x2)\nwith T.no_grad():\n    m.weight.mul_(3)\n"
                              "m.reset_parameters()\nout = (state(m), m.weight)"),
    "bn1d_eval_no_update": "m = nn.BatchNorm1d(3)\nm.eval()\nm(x2)\nout = state(m)",
    "bn1d_eval_grad": ("m = nn.BatchNorm1d(3)\nm(x2)\nm.eval()\nx = x2.clone().requires_grad_()\n"
                       "out = T.autograd.grad(m(x).pow(2).sum(), [x, m.weight, m.bias])"),
    "bn1d_running_none_eval": ("m = nn.BatchNorm1d(3)\nm.running_mean = None\nm.running_var = None\nm.eval()\n"
                               "out = (m(x2), m.num_batches_tracked)"),
    "bn2d_train": "m = nn.BatchNorm2d(3)\nout = (m(x4d), state(m))",
    "bn2d_eval": "m = nn.BatchNorm2d(3)\nm(x4d)\nm.eval()\nout = m(x4d * 2)",
    "bn3d_train": "m = nn.BatchNorm3d(3)\nout = (m(x5d), state(m))",
    "bn3d_no_tracking_eval": "m = nn.BatchNorm3d(3, track_running_stats=False).eval()\nout = m(x5d)",
    "bn_load_state_dict": ("m = nn.BatchNorm1d(3)\nm(x2)\nn2 = nn.BatchNorm1d(3)\nr = n2.load_state_dict(m.state_dict())\n"
                           "out = (state(n2), list(r.missing_keys), list(r.unexpected_keys))"),
    "bn_double": "m = nn.BatchNorm1d(3).double()\nout = (m.weight.dtype, m.running_mean.dtype, m.num_batches_tracked.dtype)",
    # errors
    "bn1d_wrong_dim": "out = nn.BatchNorm1d(3)(x4d)",
    "bn1d_1d_input": "out = nn.BatchNorm1d(3)(x2[0])",
    "bn2d_wrong_dim": "out = nn.BatchNorm2d(3)(x2)",
    "bn3d_wrong_dim": "out = nn.BatchNorm3d(3)(x4d)",
    "bn1d_one_value_per_channel": "out = nn.BatchNorm1d(3)(x2[:1])",
    "bn1d_wrong_channels": "out = nn.BatchNorm1d(4)(x2)",
    "bn1d_one_value_eval_ok": "out = nn.BatchNorm1d(3).eval()(x2[:1])",
}
