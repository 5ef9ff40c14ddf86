"""Meta-kernel samples of the samplers (see ``meta_samples``): ``m -> (args, kwargs)`` per overload."""

import opyard

_u = lambda m, *shape: opyard.sigmoid(m(*shape))  # noqa: E731  probabilities in (0, 1)

RANDOM_META_SAMPLES = {
    "bernoulli": lambda m: ((_u(m, 2, 3),), {}),
    "bernoulli.out": lambda m: ((_u(m, 2, 3),), {"out": opyard.empty(0, device=m.device)}),
    "bernoulli.p": lambda m: ((m(2, 3, dtype=opyard.int32), 0.3), {}),
    "bernoulli_.float": lambda m: ((m(2, 3), 0.3), {}),
    "bernoulli_.Tensor": lambda m: ((m(2, 3), _u(m, 3)), {}),
    "cauchy_": lambda m: ((m(2, 3), 0.0, 2.0), {}),
    "exponential_": lambda m: ((m(2, 3), 1.5), {}),
    "geometric_": lambda m: ((m(2, 3, dtype=opyard.int64), 0.4), {}),
    "log_normal_": lambda m: ((m(2, 3),), {}),
    "random_": lambda m: ((m(2, 3),), {}),
    "random_.from": lambda m: ((m(2, 3, dtype=opyard.int64), -3, 5), {}),
    "random_.to": lambda m: ((m(2, 3), 7), {}),
    "randint_like": lambda m: ((m(2, 3), 9), {}),
    "randint_like.generator": lambda m: ((m(2, 3), 9), {"generator": None}),
    "randint_like.Tensor": lambda m: ((m(2, 3), opyard.tensor(4)), {"dtype": opyard.int8}),
    "randint_like.Tensor_generator": lambda m: ((m(2, 3), opyard.tensor(4)), {"generator": None}),
    "randint_like.low_dtype": lambda m: ((m(2, 3), -2, 9), {"dtype": opyard.int16}),
    "randint_like.low_generator_dtype": lambda m: ((m(2, 3), 1, 9), {"generator": None}),
    "multinomial": lambda m: ((_u(m, 2, 5), 3), {}),
    "normal.Tensor_float": lambda m: ((m(2, 3), 0.5), {}),
    "normal.float_Tensor": lambda m: ((1.0, _u(m, 2, 3)), {}),
    "normal.Tensor_Tensor": lambda m: ((m(2, 1), _u(m, 3)), {}),
    "normal.float_float": lambda m: ((0.0, 2.0, [2, 3]), {"dtype": opyard.float64, "device": m.device}),
    "normal.Tensor_float_out": lambda m: ((m(2, 3), 0.5), {"out": opyard.empty(0, device=m.device)}),
    "normal.float_Tensor_out": lambda m: ((1.0, _u(m, 3)), {"out": opyard.empty(0, device=m.device)}),
    "normal.Tensor_Tensor_out": lambda m: ((m(2, 1), _u(m, 3)), {"out": opyard.empty(0, device=m.device)}),
    "normal.float_float_out": lambda m: ((0.0, 2.0, [4]), {"out": opyard.empty(0, device=m.device)}),
    "multinomial.out": lambda m: ((_u(m, 5), 4, True), {"out": opyard.empty(0, dtype=opyard.int64, device=m.device)}),
    # the factories' generator overloads (a generator of its own: meta and CPU draw nothing alike anyway)
    "rand.generator": lambda m: (([2, 3],), {"generator": opyard.Generator(), "device": m.device}),
    "randn.generator": lambda m: (([4],), {"generator": None, "dtype": opyard.float64, "device": m.device}),
    "randint.generator": lambda m: ((7, [2, 3]), {"generator": opyard.Generator(), "device": m.device}),
    "randint.low": lambda m: ((-3, 7, [5]), {"dtype": opyard.int16, "device": m.device}),
    "randint.low_generator": lambda m: ((2, 9, [2, 2]), {"generator": opyard.Generator(), "device": m.device}),
    "rand_like.generator": lambda m: ((m(2, 3),), {"generator": opyard.Generator()}),
    "randn_like.generator": lambda m: ((m(2, 3, dtype=opyard.float64),), {"generator": None}),
    "poisson": lambda m: ((opyard.exp(m(2, 3)),), {}),
    "poisson.out": lambda m: ((opyard.exp(m(3)),), {"out": opyard.empty(0, device=m.device)}),
    "binomial": lambda m: ((opyard.exp(m(2, 1)) * 5, _u(m, 3)), {"generator": opyard.Generator()}),
    "binomial.out": lambda m: ((opyard.exp(m(3)) * 5, _u(m, 3)), {"out": opyard.empty(0, device=m.device)}),
}
