"""Meta-kernel samples of the placement operators and the layout factories (see ``meta_samples``)."""

import opyard

i64 = opyard.int64

PLACEMENT_META_SAMPLES = {
    "put": lambda m: ((m(2, 3), m.idx([0, -1, 4]), m(3)), {}),
    "put_": lambda m: ((m(2, 3), m.idx([0, 5]), m(2), True), {}),
    "masked_scatter": lambda m: ((m(3), m(2, 3, dtype=opyard.bool), m(6)), {}),
    "masked_scatter_": lambda m: ((m(2, 3), m(3, dtype=opyard.bool), m(6)), {}),
    "masked_scatter_backward": lambda m: ((m(2, 3), m(2, 3, dtype=opyard.bool), [7]), {}),
    "_unsafe_masked_index": lambda m: ((m(3, 4), m(3, 4, dtype=opyard.bool), [m.idx([[0], [2], [5]]), m.idx([1, 3, 0, 9])],
                                        -1.0), {}),
    "_unsafe_masked_index_put_accumulate": lambda m: (
        (m(3, 4), m(3, 4, dtype=opyard.bool), [m.idx([[0], [2], [5]]), m.idx([1, 3, 0, 9])], m(3, 4)), {}),
    "nonzero_static": lambda m: ((m(2, 3),), {"size": 4}),
    "nonzero_static.out": lambda m: ((m(2, 3),), {"size": 4, "out": opyard.empty(0, dtype=i64, device=m.device)}),
    "_chunk_cat": lambda m: (([m(2, 3), m(2, 5)], 1, 2), {}),
    "_chunk_cat.out": lambda m: (([m(2, 3), m(2, 5)], 1, 2), {"out": opyard.empty(0, device=m.device)}),
    "hash_tensor": lambda m: ((m(2, 3),), {"dim": [1], "keepdim": True}),
    "hash_tensor.out": lambda m: ((m(2, 3),), {"out": opyard.empty(0, dtype=opyard.uint64, device=m.device)}),
    "index_reduce": lambda m: ((m(4, 3), 0, m.idx([1, 3, 1]), m(3, 3), "amax"), {"include_self": False}),
    "index_reduce_": lambda m: ((m(4, 3), 1, m.idx([2, 0]), m(4, 2), "prod"), {}),
    "index_reduce.out": lambda m: ((m(4, 3), 0, m.idx([1]), m(1, 3), "mean"),
                                   {"out": opyard.empty(0, device=m.device)}),
    "resize_": lambda m: ((m(2, 3), [3, 2]), {}),
    "resize_as_": lambda m: ((m(6), m(1, 2, 1, 3)), {"memory_format": opyard.channels_last}),
    "tril_indices": lambda m: ((4, 5, -1), {"device": m.device}),
    "triu_indices": lambda m: ((4, 5, 2), {"dtype": opyard.int32, "device": m.device}),
    "empty_permuted": lambda m: (([2, 3, 4], [2, 0, 1]), {"device": m.device}),
}
