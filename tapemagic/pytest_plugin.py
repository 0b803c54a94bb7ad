"""pytest plugin: check that a test's gradient calls reach every weight.

Registered through the ``pytest11`` entry point (``pyproject.toml``), so an installed tapemagic
offers it to every test suite; without installing, ``pytest -p tapemagic.pytest_plugin``. It
imports no TensorFlow until a check starts. It adds:

- the fixture ``gradients_connected``: :func:`tapemagic.testing.assert_gradients_connected`,
  to use as ``with gradients_connected(allow=["encoder/*"]): ...`` inside a test;
- the marker ``@pytest.mark.gradients_connected(allow=(...), force_eager=None, max_steps=1)``,
  which runs the whole test inside that check (the test fails with the text report when a
  weight gets no gradient).
"""

from __future__ import annotations

from collections.abc import Callable, Generator
from typing import Any

import pytest

MARKER = "gradients_connected"


def pytest_configure(config: pytest.Config) -> None:
    """Declare the marker (``pytest --markers`` lists it; ``--strict-markers`` accepts it)."""
    config.addinivalue_line(
        "markers",
        f"{MARKER}(allow=(), force_eager=None, max_steps=1): run the test under tapemagic and "
        "fail it when a gradient call leaves a weight (not in allow) without a gradient")


@pytest.fixture
def gradients_connected() -> Callable[..., Any]:
    """Return :func:`tapemagic.testing.assert_gradients_connected` (a context manager)."""
    from tapemagic.testing import assert_gradients_connected

    return assert_gradients_connected


@pytest.hookimpl(wrapper=True)
def pytest_runtest_call(item: pytest.Item) -> Generator[None, object, object]:
    """Run a test marked ``gradients_connected`` inside the check."""
    marker = item.get_closest_marker(MARKER)
    if marker is None:
        return (yield)
    if marker.args:
        raise pytest.UsageError(f"@pytest.mark.{MARKER} takes keyword arguments only")
    from tapemagic.testing import assert_gradients_connected

    with assert_gradients_connected(**marker.kwargs):
        return (yield)
