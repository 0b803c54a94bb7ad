"""Real-world-shaped programs a tester ran: each kind reported once, at the line to change.

- ``--eager`` hands a ``tf.function`` the NumPy arrays graph mode would convert: a
  ``tape.watch`` that raises on one is the forced-eager door's doing, said in a note, not a
  finding on correct code.
"""

from __future__ import annotations

import pytest
from conftest import RunChecked

from tapemagic.report.model import Report

pytestmark = pytest.mark.tf


def _run(run_checked: RunChecked, source: str, *, force_eager: bool = False,
         ) -> tuple[Report, list[int]]:
    """Run ``source`` checked; return its report and the lines marked ``# <-``."""
    return run_checked(source, catch=ValueError, force_eager=force_eager)


def _loud(report: Report) -> list[tuple[str, int | None]]:
    return [(f.rule, f.location.line if f.location else None) for f in report.findings
            if f.severity in ("warning", "error")]


_FGSM = """
    import numpy as np
    import tensorflow as tf

    tf.keras.utils.set_random_seed(0)
    model = tf.keras.Sequential([tf.keras.layers.Input((4,)), tf.keras.layers.Dense(2)])
    loss_object = tf.keras.losses.SparseCategoricalCrossentropy(from_logits=True)

    def pattern(x, y):
        with tf.GradientTape() as tape:
            tape.watch(WATCHED)  # <-
            loss = loss_object(y, model(x))
        return tf.sign(tape.gradient(loss, x))

    @tf.function
    def step(x, y):
        x_adv = x + 0.1 * pattern(x, y)
        with tf.GradientTape() as tape:
            loss = loss_object(y, model(x_adv))
        return tape.gradient(loss, model.trainable_variables)

    x = np.random.default_rng(0).normal(size=(8, 4)).astype("float32")
    y = (x[:, 0] > 0).astype("int32")
    step(x, y)
    """


def test_eager_numpy_arguments_of_a_function_are_a_note_not_a_finding(
        run_checked: RunChecked) -> None:
    report, marked = _run(run_checked, _FGSM.replace("WATCHED", "x"), force_eager=True)
    assert _loud(report) == [], [(f.rule, f.message) for f in report.findings]
    notes = [n for n in report.notes if "NumPy" in n]
    assert len(notes) == 1 and "--eager" in notes[0] and f":{marked[0]}" in notes[0], report.notes
    assert report.exception is not None and "TM108" not in (report.exception.explanation or "")


def test_the_same_step_in_graph_mode_is_silent(run_checked: RunChecked) -> None:
    report, _ = _run(run_checked, _FGSM.replace("WATCHED", "x"))
    assert report.findings == () and report.exception is None, report.findings
    assert not [n for n in report.notes if "NumPy" in n]


def test_a_numpy_array_the_function_makes_itself_is_still_a_failed_watch(
        run_checked: RunChecked) -> None:
    # graph mode raises on this watch too: the code's own, so TM108 stays
    report, marked = _run(run_checked, _FGSM.replace("WATCHED", "np.ones((8, 4), 'float32')"),
                          force_eager=True)
    assert ("TM108", marked[0]) in _loud(report), report.findings
    assert not [n for n in report.notes if "NumPy" in n]


_QUANTISED_GAN = """
    import numpy as np
    import tensorflow as tf

    tf.keras.utils.set_random_seed(0)
    generator = tf.keras.Sequential([tf.keras.layers.Input((4,)),
                                     tf.keras.layers.Dense(6, activation="tanh")])
    critic = tf.keras.Sequential([tf.keras.layers.Input((6,)), tf.keras.layers.Dense(1)])
    bce = tf.keras.losses.BinaryCrossentropy(from_logits=True)

    @tf.function
    def step(noise):
        with tf.GradientTape() as tape:
            fake = generator(noise)
            QUANTISE
            logits = critic(fake)
            loss = bce(tf.ones_like(logits), logits)
        return tape.gradient(loss, generator.trainable_variables)

    step(tf.random.normal([8, 4]))
    """


def test_a_comparison_that_only_gates_a_select_is_no_second_cut(run_checked: RunChecked) -> None:
    # BinaryCrossentropy(from_logits=True) compares the logits only to choose a branch
    report, marked = _run(run_checked, _QUANTISED_GAN.replace(
        "QUANTISE", "fake = tf.cast(tf.cast((fake + 1.0) * 127.5, tf.uint8), tf.float32)  # <-"))
    assert _loud(report) == [("TM202", marked[0])], [(f.rule, f.message) for f in report.findings]
    chain = report.findings[0].chain
    assert [s.label for s in chain if s.cut] == ["tf.cast (Cast)"], chain


def test_the_same_gan_without_the_cast_is_silent(run_checked: RunChecked) -> None:
    report, _ = _run(run_checked, _QUANTISED_GAN.replace("QUANTISE", "fake = fake * 1.0"))
    assert _loud(report) == [], [(f.rule, f.message) for f in report.findings]


_DISTILLER = """
    import numpy as np
    import tensorflow as tf

    tf.keras.utils.set_random_seed(0)

    def make(width, name):
        return tf.keras.Sequential([tf.keras.layers.Input((5,)),
                                    tf.keras.layers.Dense(width, activation="relu"),
                                    tf.keras.layers.Dense(3)], name=name)

    student, teacher = make(4, "student"), make(8, "teacher")
    kl = tf.keras.losses.KLDivergence()

    @tf.function
    def step(x):
        BEFORE
        with tf.GradientTape() as tape:
            INSIDE
            loss = kl(tf.nn.softmax(soft_targets), tf.nn.softmax(student_out))
        return tape.gradient(loss, SOURCES)  # <-

    step(tf.random.normal([8, 5]))
    """


def _distiller(before: str, inside: str, sources: str) -> str:
    return _DISTILLER.replace("BEFORE", before).replace("INSIDE", inside).replace(
        "SOURCES", sources)


def test_sources_whose_pass_runs_outside_while_the_trained_model_is_left_out(
        run_checked: RunChecked) -> None:
    # the teacher runs outside the tape on purpose: the source list is what is wrong
    report, marked = _run(run_checked, _distiller(
        "soft_targets = teacher(x)  # outside", "student_out = student(x)",
        "teacher.trainable_variables"))
    assert _loud(report) == [("TM104", marked[0])], [(f.rule, f.message) for f in report.findings]
    assert "student/" in report.findings[0].message and "outside the tape" in \
        report.findings[0].message
    assert report.findings[0].fix is None or not report.findings[0].fix.edits


def test_the_distiller_with_the_students_weights_is_silent(run_checked: RunChecked) -> None:
    report, _ = _run(run_checked, _distiller(
        "soft_targets = teacher(x)", "student_out = student(x)", "student.trainable_variables"))
    assert _loud(report) == [], [(f.rule, f.message) for f in report.findings]


def test_a_forward_pass_outside_the_tape_of_the_trained_model_stays_tm103(
        run_checked: RunChecked) -> None:
    # the student's own pass before the block, no other weights on the recorded path: the
    # pass is what moves into the tape
    source = _distiller("student_out = student(x)  # <-\n        soft_targets = teacher(x)",
                        "", "student.trainable_variables")
    report, marked = _run(run_checked, source)
    assert ("TM103", marked[0]) in _loud(report), [(f.rule, f.message) for f in report.findings]
    assert all(rule != "TM104" for rule, _ in _loud(report))


@pytest.mark.parametrize("force_eager", [False, True], ids=["graph", "eager"])
def test_the_teacher_called_in_the_students_place_is_named_at_that_call(
        run_checked: RunChecked, force_eager: bool) -> None:
    # a distillation typo: the student never runs, the teacher computes the loss inside the
    # tape; the line to change is that call, not where the student was made
    # (two definitions, as in the report: a factory making both is the other-model shape)
    source = _DISTILLER.replace(
        'student, teacher = make(4, "student"), make(8, "teacher")',
        'teacher = make(8, "teacher")\n    student = tf.keras.Sequential(['
        'tf.keras.layers.Input((5,)), tf.keras.layers.Dense(3)], name="student")').replace(
        "BEFORE", "soft_targets = teacher(x)").replace(
        "INSIDE", "student_out = teacher(x)  # <-").replace(
        "return tape.gradient(loss, SOURCES)  # <-", "return tape.gradient(loss, SOURCES)").replace(
        "SOURCES", "student.trainable_variables")
    report, marked = _run(run_checked, source, force_eager=force_eager)
    assert _loud(report) == [("TM104", marked[0])], [(f.rule, f.message) for f in report.findings]
    message = report.findings[0].message
    assert "never ran" in message and "teacher/" in message


_TWO_INPUTS = """
    import numpy as np
    import tensorflow as tf

    s_in, a_in = tf.keras.Input((3,)), tf.keras.Input((1,))
    critic = tf.keras.Model([s_in, a_in], tf.keras.layers.Dense(1)(
        tf.keras.layers.Concatenate()([s_in, a_in])))

    @tf.function
    def update(states, actions):
        with tf.GradientTape() as tape:
            q = critic([states, tf.tanh(actions)])
            loss = -tf.reduce_mean(q)
        return tape.gradient(loss, critic.trainable_variables)

    update(np.ones((4, 3), "float32"), np.ones((4, 1), "float32"))
    """


def test_an_error_only_eager_numpy_arguments_cause_says_so(run_checked: RunChecked) -> None:
    # a DDPG critic called with [NumPy states, tensor actions]: Keras refuses the mix, which
    # graph mode never hands it (it converts the function's arguments first)
    graph, _ = _run(run_checked, _TWO_INPUTS)
    assert graph.exception is None and _loud(graph) == []
    eager, _ = _run(run_checked, _TWO_INPUTS, force_eager=True)
    assert eager.exception is not None and eager.exception.type == "ValueError"
    assert "--eager" in (eager.exception.explanation or "")


_WGAN_GP = """
    import tensorflow as tf

    tf.keras.utils.set_random_seed(0)
    critic = tf.keras.Sequential([
        tf.keras.layers.Input((8,)), tf.keras.layers.Dense(16, name="h"),
        tf.keras.layers.LeakyReLU(0.2), tf.keras.layers.Dense(1, name="q")], name="critic")

    def gradient_penalty(real, fake):
        alpha = tf.random.uniform([tf.shape(real)[0], 1])
        inter = real + alpha * (fake - real)
        with tf.GradientTape() as gp_tape:
            gp_tape.watch(inter)
            pred = critic(inter, training=True)
        grads = gp_tape.gradient(pred, inter)
        norm = tf.sqrt(tf.reduce_sum(tf.square(grads), axis=1) + 1e-12)
        return tf.reduce_mean((norm - 1.0) ** 2)

    @tf.function
    def d_step(real, fake):
        BEFORE
        with tf.GradientTape() as tape:
            INSIDE
            d_loss = tf.reduce_mean(critic(fake)) - tf.reduce_mean(critic(real)) + 10.0 * gp
        return tape.gradient(d_loss, critic.trainable_variables)

    d_step(tf.random.normal((8, 8)), tf.random.normal((8, 8)))
    """


def test_a_gradient_penalty_computed_before_the_critics_tape_is_named(
        run_checked: RunChecked) -> None:
    # every critic weight is connected through the Wasserstein terms; the penalty, built from
    # another gradient outside the tape and added in, trains none of them (a constant)
    report, marked = _run(run_checked, _WGAN_GP.replace(
        "BEFORE", "gp = gradient_penalty(real, fake)  # <-").replace("INSIDE", "pass"))
    assert _loud(report) == [("TM103", marked[0])], [(f.rule, f.message) for f in report.findings]
    finding = report.findings[0]
    assert "gradient_penalty(real, fake)" in finding.message
    # the output bias does not change the critic's input gradient: the penalty never trains it
    assert set(finding.variables) == {"critic/h/kernel", "critic/h/bias", "critic/q/kernel"}


def test_the_gradient_penalty_inside_the_tape_is_silent(run_checked: RunChecked) -> None:
    report, _ = _run(run_checked, _WGAN_GP.replace("BEFORE", "pass").replace(
        "INSIDE", "gp = gradient_penalty(real, fake)"))
    assert report.findings == (), [(f.rule, f.message) for f in report.findings]


def test_an_adaptive_weight_from_gradients_outside_the_tape_is_silent(
        run_checked: RunChecked) -> None:
    # VQGAN-style: a factor computed from gradient norms on purpose outside the tape scales
    # a term that depends on the weights: it changes the gradient, so it is no dropped term
    report, _ = _run(run_checked, _WGAN_GP.replace(
        "BEFORE", "gp = gradient_penalty(real, fake)").replace("INSIDE", "pass").replace(
        "+ 10.0 * gp", "+ gp * tf.reduce_mean(critic(real))"))
    assert _loud(report) == [], [(f.rule, f.message) for f in report.findings]
