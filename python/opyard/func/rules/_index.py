"""Written by ``make gen`` (do not edit; ``tests/package/test_generated_indexes.py`` checks it):
the modules holding batching rules (Note [Batching rule modules], ``__init__.py``; derived by
``opyard._gen.rule_modules``)."""

MODULES = ('activations', 'dims', 'linalg', 'misc', 'norms', 'pointwise', 'shape', 'spatial', 'special', 'spectral', 'statistics')
