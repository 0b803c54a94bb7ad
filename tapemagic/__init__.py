"""tapemagic: find where and why TensorFlow gradients are severed, and how to fix it.

Importing this package does not import TensorFlow; tracing does, lazily.
"""

from __future__ import annotations

__version__ = "0.1.0"
