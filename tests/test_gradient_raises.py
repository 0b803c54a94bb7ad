"""A gradient function that raises names its op: every error has a witness.

``tf.linalg.lstsq(fast=False)`` has a registered gradient that raises ``ValueError``
(linalg_grad.py ``_MatrixSolveLsGrad``), ``tf.linalg.svd(full_matrices=True)`` of a matrix whose
sides differ by more than one raises ``NotImplementedError`` (``_SvdGrad``). The gradient call
raised and the report said nothing about why; now TM201 sits at the op's line, names every
weight the call would have reached and quotes the error, read from the frame of TensorFlow's
backward pass the error left (tracing/_tf_private/grad_frames.py). The user's error leaves
unchanged. The same ops where their gradients exist stay silent.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from graph_runs import line_of, run
from graph_runs import write_cell as _write

pytestmark = pytest.mark.tf

LSTSQ = """
    a = tf.Variable(tf.random.normal((6, 3)), name="a")
    b = tf.Variable(tf.random.normal((6, 2)), name="b")
    c = tf.Variable(1.0, name="c")

    {decorator}
    def step():
        with tf.GradientTape() as tape:
            solution = tf.linalg.lstsq(a, b, fast={fast})
            loss = tf.reduce_sum(solution) + c * c
        return tape.gradient(loss, [a, b, c])

    try:
        grads = step()
    except ValueError as error:
        caught = error
    """

MODES = [("", True), ("@tf.function", False)]
IDS = ["eager", "function"]


@pytest.mark.parametrize(("decorator", "eager"), MODES, ids=IDS)
def test_a_raising_gradient_function_names_its_op_and_every_weight(
        tmp_path: Path, decorator: str, eager: bool) -> None:
    """TM201 at the lstsq line, naming a, b and c, with the error's text; error unchanged."""
    path = _write(tmp_path, LSTSQ.format(decorator=decorator, fast="False"))
    result = run(path, force_eager=eager)
    assert result.error is None
    caught = result.ns["caught"]
    assert type(caught) is ValueError
    assert "Gradient not defined for fast=False" in str(caught)
    found = [(f.rule, tuple(f.variables), f.location.line if f.location else None)
             for f in result.report.findings if f.severity != "info"]
    assert found == [("TM201", ("a", "b", "c"), line_of(path, "tf.linalg.lstsq"))], found
    message = result.report.findings[0].message
    assert "registered gradient raised ValueError: Gradient not defined for fast=False" in message
    assert result.report.findings[0].op_type == "MatrixSolveLs"


@pytest.mark.parametrize(("decorator", "eager"), MODES, ids=IDS)
def test_lstsq_whose_gradient_exists_is_silent(tmp_path: Path, decorator: str,
                                               eager: bool) -> None:
    """Correct code: fast=True has a gradient; every weight is connected, no finding."""
    path = _write(tmp_path, LSTSQ.format(decorator=decorator, fast="True"))
    result = run(path, force_eager=eager)
    assert result.error is None and "caught" not in result.ns
    assert [f for f in result.report.findings if f.severity != "info"] == []
    assert {s.verdict for s in result.report.gradient_calls[0].sources} == {"connected"}


SVD = """
    m = tf.Variable(tf.random.normal(({rows}, 3)), name="m")

    with tf.GradientTape() as tape:
        s, u, v = tf.linalg.svd(m, full_matrices=True)
        loss = tf.reduce_sum(u[:, :3] * s)
    grads = tape.gradient(loss, [m])
    """


def test_an_uncaught_error_leaves_unchanged_and_is_explained(tmp_path: Path) -> None:
    """svd(full_matrices=True) of an 8x3 matrix: the user's NotImplementedError, and TM201."""
    path = _write(tmp_path, SVD.format(rows=8))
    result = run(path, force_eager=True)
    assert type(result.error) is NotImplementedError
    assert str(result.error).startswith("svd gradient is not implemented for abs(m - n) > 1")
    found = [(f.rule, tuple(f.variables), f.location.line if f.location else None)
             for f in result.report.findings if f.severity != "info"]
    assert found == [("TM201", ("m",), line_of(path, "tf.linalg.svd"))], found
    assert "raised NotImplementedError: svd gradient" in result.report.findings[0].message


def test_a_near_square_full_svd_is_silent(tmp_path: Path) -> None:
    """4x3 with full_matrices=True: the gradient is implemented (sides differ by one)."""
    path = _write(tmp_path, SVD.format(rows=4))
    result = run(path, force_eager=True)
    assert result.error is None
    assert [f for f in result.report.findings if f.severity != "info"] == []


SPARSE = """
    v = tf.Variable([0.5, 1.5, 2.5], name="v")
    w = tf.Variable(2.0, name="w")
    dense = tf.random.normal((3, 2))

    {decorator}
    def step():
        with tf.GradientTape() as tape:
            a = tf.SparseTensor([[0, 0], [1, 1], [2, 2]], v, [3, 3])
            b = tf.SparseTensor([[0, 1], [1, 1], [2, 0]], v * w, [3, 3])
            merged = tf.sparse.{merge}(a, b)
            loss = tf.reduce_sum(tf.sparse.sparse_dense_matmul(merged, dense))
        return tape.gradient(loss, [v, w])

    try:
        grads = step()
    except TypeError as error:
        caught = error
    """


@pytest.mark.parametrize(("decorator", "eager"), MODES, ids=IDS)
def test_a_gradient_that_reads_no_tensor_is_found_by_its_op_type(
        tmp_path: Path, decorator: str, eager: bool) -> None:
    """tf.sparse.maximum: TensorFlow's tape keeps neither inputs nor outputs for its gradient.

    The frame left holds only the op type; the op of that type on the call's path is named.
    """
    path = _write(tmp_path, SPARSE.format(decorator=decorator, merge="maximum"))
    result = run(path, force_eager=eager)
    assert result.error is None and type(result.ns["caught"]) is TypeError
    found = [(f.rule, tuple(f.variables), f.location.line if f.location else None)
             for f in result.report.findings if f.severity != "info"]
    assert found == [("TM201", ("v", "w"), line_of(path, "tf.sparse.maximum"))], found
    assert result.report.findings[0].op_type == "SparseSparseMaximum"


@pytest.mark.parametrize(("decorator", "eager"), MODES, ids=IDS)
def test_a_sparse_add_whose_gradient_exists_is_silent(tmp_path: Path, decorator: str,
                                                      eager: bool) -> None:
    path = _write(tmp_path, SPARSE.format(decorator=decorator, merge="add"))
    result = run(path, force_eager=eager)
    assert result.error is None and "caught" not in result.ns
    assert [f for f in result.report.findings if f.severity != "info"] == []
