"""The package's version (``tapemagic.__version__``; pyproject.toml says the same).

A module of its own, so that the engine, the CLI and the renderers can name the version without
importing the package root, which imports the API and so the engine.
"""

__version__ = "0.2.0"
