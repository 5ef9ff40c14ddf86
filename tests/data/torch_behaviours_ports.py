"""ports snippets (see ``torch_behaviours.py`` for the format)."""

from torch_behaviours import snippet
