"""A forward pass run on a thread the user's code started, inside the tape's block: TM103.

A tape records only the ops of the thread it was entered on; the ops a thread pool runs for it
are kept by ``tracing/foreign.py`` under their thread's number, so the path from the weights is
known and off the tape: TM103 at the user's line on that thread, naming every weight behind it.
Correct look-alikes stay silent: NumPy work in a pool, TensorFlow ops on data in a pool, a
target network's output computed in a pool, the forward pass on the tape's own thread. Every
registration is undone: no profile hook, no op callback left on a thread that outlives the check.
Real TensorFlow, eager.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from typing import Any

import pytest
from checked import loud

pytestmark = pytest.mark.tf

SETUP = """
from concurrent.futures import ThreadPoolExecutor

import numpy as np
import tensorflow as tf

rng = np.random.default_rng(0)
x = tf.constant(rng.normal(size=(8, 3)), tf.float32)
y = tf.constant(rng.normal(size=(8, 1)), tf.float32)


def member(tag):
    return tf.keras.Sequential([tf.keras.Input((3,)), tf.keras.layers.Dense(4, name=tag + "_h"),
                                tf.keras.layers.Dense(1, name=tag + "_o")], name=tag)


members = [member("a"), member("b")]
params = [v for m in members for v in m.trainable_variables]
"""

Run = Callable[..., Any]


def test_members_run_in_a_thread_pool_inside_the_tape_are_outside_it(run_checked: Run) -> None:
    checked = run_checked("""
        with tf.GradientTape() as tape:
            with ThreadPoolExecutor(max_workers=2) as pool:
                outputs = list(pool.map(lambda m: m(x), members))  # <-
            loss = tf.reduce_mean(tf.square(tf.add_n(outputs) - y))
        grads = tape.gradient(loss, params)
        """, prefix=SETUP)
    report, marked = checked[0], checked[1]
    assert loud(report) == [("TM103", marked[0])]
    finding = report.findings[0]
    assert "thread" in finding.message
    assert len(finding.variables) == 8


def test_a_submitted_function_is_placed_at_its_own_line(run_checked: Run) -> None:
    checked = run_checked("""
        def forward(m):
            return m(x)  # <-

        with tf.GradientTape() as tape:
            with ThreadPoolExecutor(max_workers=1) as pool:
                futures = [pool.submit(forward, m) for m in members]
                outputs = [f.result() for f in futures]
            loss = tf.reduce_mean(tf.square(tf.add_n(outputs) - y))
        grads = tape.gradient(loss, params)
        """, prefix=SETUP)
    report, marked = checked[0], checked[1]
    assert loud(report) == [("TM103", marked[0])]


@pytest.mark.parametrize("work", [
    # NumPy augmentation in the pool, the forward pass on the tape's thread
    "batches = list(pool.map(lambda a: a + 0.01, [x.numpy(), x.numpy()]))",
    # TensorFlow ops on data only in the pool
    "batches = list(pool.map(lambda a: tf.reverse(a, [0]), [x, x]))",
])
def test_data_work_in_a_pool_inside_the_tape_stays_silent(run_checked: Run, work: str) -> None:
    report = run_checked(f"""
        with tf.GradientTape() as tape:
            with ThreadPoolExecutor(max_workers=2) as pool:
                {work}
            outputs = [m(tf.convert_to_tensor(b)) for m, b in zip(members, batches)]
            loss = tf.reduce_mean(tf.square(tf.add_n(outputs) - y))
        grads = tape.gradient(loss, params)
        """, prefix=SETUP)[0]
    assert loud(report) == []


def test_a_target_network_run_in_a_pool_stays_silent(run_checked: Run) -> None:
    report = run_checked("""
        online, target = members
        with tf.GradientTape() as tape:
            with ThreadPoolExecutor(max_workers=1) as pool:
                aim = pool.submit(target, x).result()
            loss = tf.reduce_mean(tf.square(online(x) - aim))
        grads = tape.gradient(loss, online.trainable_variables)
        """, prefix=SETUP)[0]
    assert loud(report) == []


def test_no_hook_or_callback_outlives_the_check(run_checked: Run) -> None:
    from tapemagic.tracing import _tf_private as tfp

    before = threading.getprofile()
    checked = run_checked("""
        pool = ThreadPoolExecutor(max_workers=1)
        with tf.GradientTape() as tape:
            outputs = [pool.submit(m, x).result() for m in members]
            loss = tf.reduce_mean(tf.square(tf.add_n(outputs) - y))
        grads = tape.gradient(loss, params)
        """, prefix=SETUP)
    pool = checked.namespace["pool"]
    try:
        assert threading.getprofile() is before
        assert pool.submit(lambda: list(tfp.thread_op_callbacks())).result() == []
    finally:
        pool.shutdown()
