"""The line to change, one finding per cause: values left unused, a loss given to the wrong call.

Real TensorFlow: each program runs under ``gradcheck`` from a file; ``# <-`` marks the line
the user must change.
"""

from __future__ import annotations

import pytest
from conftest import RunChecked

pytestmark = pytest.mark.tf


def test_an_unused_end_that_is_not_the_last_op_finds_the_value_used_in_its_place(
        run_checked: RunChecked) -> None:
    # the shape of an encoder whose final state is never given to the decoder: the last op
    # computed from the encoder (its output sequence) has another shape than the state the
    # decoder starts from (zeros); that state is the value used in the encoder's place
    report, marked = run_checked("""
        import tensorflow as tf
        enc = tf.Variable(tf.ones((3, 3)), name="enc")
        dec = tf.Variable(tf.ones((3, 2)), name="dec")
        x = tf.ones((4, 3))
        with tf.GradientTape() as tape:
            out = tf.matmul(x, enc)
            state = tf.tanh(out)
            sequence = tf.expand_dims(out, 1)
            start = tf.zeros((4, 3))
            loss = tf.reduce_sum(tf.matmul(start, dec))  # <-
        g = tape.gradient(loss, [enc, dec])
        """)
    assert report.codes == ["TM104"], report.codes
    finding, = report.findings
    assert finding.primary and finding.location.line == marked[0]  # type: ignore[union-attr]
    assert finding.variables == ("enc",) and "at line 9" in finding.message


_GAN = """
    import tensorflow as tf
    gen = tf.Variable([[0.5, -0.2]], name="gen")
    disc = tf.Variable([[0.3], [0.7]], name="disc")
    real = tf.constant([[1.0, 2.0]])
    noise = tf.constant([[0.4]])
    with tf.GradientTape() as g_tape, tf.GradientTape() as d_tape:
        fake = tf.matmul(noise, gen)
        fake_score = tf.matmul(fake, disc)
        real_score = tf.matmul(real, disc)
        g_loss = tf.reduce_mean(tf.nn.softplus(-fake_score))
        d_loss = tf.reduce_mean(tf.nn.softplus(-real_score)) + tf.reduce_mean(
            tf.nn.softplus(tf.stop_gradient(fake_score)))
    g_grads = g_tape.gradient({target}, [gen])  # <-
    d_grads = d_tape.gradient(d_loss, [disc])
    """


def test_a_generator_tape_given_the_discriminator_loss_is_placed_at_the_call_with_the_swap(
        run_checked: RunChecked) -> None:
    report, marked = run_checked(_GAN.replace("{target}", "d_loss"))
    assert report.codes == ["TM104"], report.codes
    finding, = report.findings
    assert finding.primary and finding.location.line == marked[0]  # type: ignore[union-attr]
    # the left-out loss (three lines up) and the call whose loss this is (the next line)
    assert f"at line {marked[0] - 3}, `g_loss`" in finding.message
    assert f"gradient call at line {marked[0] + 1}" in finding.message
    fix = finding.fix
    assert fix is not None and fix.applicability == "unsafe" and fix.keeps_value is False
    edit, = fix.edits
    assert edit.line == marked[0] and edit.text == "g_tape.gradient(g_loss, [gen])"
    assert "changes what the code computes" in fix.title


def test_each_tape_given_its_own_loss_is_silent(run_checked: RunChecked) -> None:
    report, _ = run_checked(_GAN.replace("{target}", "g_loss"))
    assert report.findings == ()


def test_a_loss_term_left_out_of_a_total_no_other_call_takes_stays_at_the_total(
        run_checked: RunChecked) -> None:
    # the actor-critic shape: the value loss is computed and not added; no other gradient
    # call differentiates the total, so the line that built it is the one to change, no swap
    report, marked = run_checked("""
        import tensorflow as tf
        policy = tf.Variable([[0.5, -0.2]], name="policy")
        value = tf.Variable([[0.3], [0.7]], name="value")
        states = tf.constant([[1.0, 2.0]])
        with tf.GradientTape() as tape:
            features = tf.matmul(states, tf.ones((2, 2)))
            logits = tf.matmul(features, tf.transpose(policy))
            baseline = tf.matmul(features, value)
            advantage = 1.0 - tf.stop_gradient(baseline)
            policy_loss = -tf.reduce_mean(logits * advantage)
            value_loss = tf.reduce_mean(tf.square(1.0 - baseline))
            total = policy_loss + 0.0  # <-
        grads = tape.gradient(total, [policy, value])
        """)
    assert report.codes == ["TM104"], report.codes
    finding, = report.findings
    assert finding.location.line == marked[0]  # type: ignore[union-attr]
    assert finding.fix is None or not finding.fix.edits


def test_an_op_with_no_gradient_the_call_never_asks_for_is_not_said_to_raise(
        run_checked: RunChecked) -> None:
    # Bucketize has no registry entry, but its integer output carries no gradient back, so
    # the call returns None and raises nothing (a Discretization layer's bucket ids)
    report, marked = run_checked("""
        import tensorflow as tf
        w = tf.Variable([0.5, -1.5, 2.0], name="w")
        with tf.GradientTape() as tape:
            ids = tf.raw_ops.Bucketize(input=w * 2.0, boundaries=[0.0, 1.0])  # <-
            loss = tf.reduce_sum(tf.cast(ids, tf.float32))
        g = tape.gradient(loss, w)
        """)
    finding = next(f for f in report.findings if f.location.line == marked[0])  # type: ignore[union-attr]
    assert "raises" not in finding.message, finding.message


def test_a_scalar_left_unused_does_not_move_the_finding_to_a_loss_constant(
        run_checked: RunChecked) -> None:
    # a metric computed from the weights and never used is a scalar, the shape of every
    # constant the loss reads: it says nothing of what was used in the weights' place, so
    # the finding stays at the last value computed from them
    report, marked = run_checked("""
        import tensorflow as tf
        w = tf.Variable(tf.ones((3, 2)), name="w")
        v = tf.Variable(tf.ones((3, 2)), name="v")
        x = tf.ones((4, 3))
        with tf.GradientTape() as tape:
            pred = tf.matmul(x, w)
            mean_pred = tf.reduce_mean(pred)
            sequence = tf.expand_dims(pred, 1)  # <-
            loss = tf.reduce_sum(tf.matmul(x, v)) * tf.constant(0.5)
        g = tape.gradient(loss, [w, v])
        """)
    assert report.codes == ["TM104"], report.codes
    assert report.findings[0].location.line == marked[0]  # type: ignore[union-attr]


def test_lint_hints_a_tape_given_another_call_s_loss_at_the_call() -> None:
    # the static twin: the target is two gradient calls' target, the term left out of it may
    # be the loss one of them meant, so the hint sits at that call, not where the target is made
    from tapemagic.lint import check_source

    source = _GAN.replace("{target}", "d_loss")
    source = "\n".join(line[4:] for line in source.splitlines())
    hints = check_source(source, "gan.py")
    call = next(n for n, text in enumerate(source.splitlines(), 1) if "# <-" in text)
    assert [(h.code, h.line) for h in hints] == [("TM104", call)]
    assert "`g_loss`" in hints[0].message


def test_of_two_identical_lines_in_the_unused_value_s_place_the_copy_is_the_line_to_change(
        run_checked: RunChecked) -> None:
    # a copied line left unedited: both lines read the label where the prediction (left
    # unused) was meant; the second computes exactly the first one's value, so it is the slip
    report, marked = run_checked("""
        import tensorflow as tf
        w = tf.Variable(tf.ones((3, 4)), name="w")
        x = tf.ones((5, 3))
        label = tf.reshape(tf.range(20, dtype=tf.float32), (5, 4))
        with tf.GradientTape() as tape:
            pred = tf.matmul(x, w)
            true_steps = label[:, 1:] - label[:, :-1]
            pred_steps = label[:, 1:] - label[:, :-1]  # <-
            loss = tf.reduce_mean(tf.square(pred_steps - true_steps))
        g = tape.gradient(loss, [w])
        """)
    assert report.codes == ["TM104"], report.codes
    finding, = report.findings
    assert finding.primary and finding.location.line == marked[0]  # type: ignore[union-attr]
    assert finding.variables == ("w",)
