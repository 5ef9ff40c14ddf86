"""Helpers torch keeps under ``torch.testing._internal`` that code testing dispatch uses."""
