"""Cuts a reader can see in the source, hinted at the line to change; correct twins stay silent.

TF-free: sources are parsed, never run (issue 17 sections 3 and 5): a persistent tape's inner
gradient and the loss built from it after the block, token ids watched for a saliency map,
the loss differentiated with respect to another copy of the model, a Grad-CAM score from a
second forward pass.
"""

from __future__ import annotations

import textwrap

import pytest

from tapemagic.lint import check_source

HEAD = """\
import tensorflow as tf
import keras
net = keras.Sequential([keras.Input((1,)), keras.layers.Dense(8, activation="tanh"),
                        keras.layers.Dense(1)])
x = tf.ones((4, 1))
"""
OFFSET = HEAD.count("\n")


def hints(body: str) -> list[tuple[str, int]]:
    source = HEAD + textwrap.dedent(body)
    compile(source, "<test>", "exec")  # a test source that does not parse would pass silently
    return [(h.code, h.line - OFFSET) for h in check_source(source)]


EMBED = """
emb = keras.layers.Embedding(100, 8)
head = keras.layers.Dense(2)
"""

BAD = {
    "persistent tape: inner gradient and loss after the block": ("""
        with tf.GradientTape(persistent=True) as tape:
            tape.watch(x)
            u = net(x)
        u_x = tape.gradient(u, x)
        loss = tf.reduce_mean((u_x - 1.0) ** 2)
        grads = tape.gradient(loss, net.trainable_variables)
        """, [("TM103", 5), ("TM103", 6)]),
    "int literal ids watched, looked up by an Embedding": (EMBED + textwrap.dedent("""
        ids = tf.constant([[3, 14, 15, 9]])
        with tf.GradientTape() as tape:
            tape.watch(ids)
            score = head(tf.reduce_mean(emb(ids), axis=1))[0, 1]
        saliency = tape.gradient(score, ids)
        """), [("TM202", 7)]),
    "int32 ids watched, the model is opaque": ("""
        ids = tf.cast(tf.constant([[3.0, 14.0]]), tf.int32)
        with tf.GradientTape() as tape:
            tape.watch(ids)
            score = net(ids)[0, 0]
        saliency = tape.gradient(score, ids)
        """, [("TM202", 4)]),
    "tokenizer ids watched": ("""
        from transformers import AutoTokenizer
        tokenizer = AutoTokenizer.from_pretrained("bert-base-uncased")
        enc = tokenizer(["a fine movie"], return_tensors="tf")
        input_ids = enc["input_ids"]
        with tf.GradientTape() as tape:
            tape.watch(input_ids)
            score = net(input_ids)[0, 0]
        saliency = tape.gradient(score, input_ids)
        """, [("TM202", 7)]),
    "float ids watched, then looked up by an Embedding": (EMBED + textwrap.dedent("""
        ids = tf.constant([[3.0, 14.0, 15.0, 9.0]])
        with tf.GradientTape() as tape:
            tape.watch(ids)
            score = head(tf.reduce_mean(emb(ids), axis=1))[0, 1]
        saliency = tape.gradient(score, ids)
        """), [("TM202", 7)]),
}

GOOD = {
    "persistent tape: inner gradient inside the block": """
        with tf.GradientTape(persistent=True) as tape:
            tape.watch(x)
            u = net(x)
            u_x = tape.gradient(u, x)
            loss = tf.reduce_mean((u_x - 1.0) ** 2)
        grads = tape.gradient(loss, net.trainable_variables)
        del tape
        """,
    "nested tapes: the inner gradient taken inside the outer block": """
        with tf.GradientTape() as outer:
            with tf.GradientTape() as inner:
                inner.watch(x)
                u = net(x)
            u_x = inner.gradient(u, x)
            loss = tf.reduce_mean((u_x - 1.0) ** 2)
        grads = outer.gradient(loss, net.trainable_variables)
        """,
    "persistent tape: two gradients of losses made in the block": """
        with tf.GradientTape(persistent=True) as tape:
            a = tf.reduce_mean(net(x))
            b = tf.reduce_mean(net(x) ** 2)
        ga = tape.gradient(a, net.trainable_variables)
        gb = tape.gradient(b, net.trainable_variables)
        norm = tf.linalg.global_norm(ga) + tf.linalg.global_norm(gb)
        """,
    "saliency on the embeddings of int ids": EMBED + textwrap.dedent("""
        ids = tf.constant([[3, 14, 15, 9]])
        with tf.GradientTape() as tape:
            vectors = emb(ids)
            tape.watch(vectors)
            score = head(tf.reduce_mean(vectors, axis=1))[0, 1]
        saliency = tape.gradient(score, vectors)
        """),
    "int ids watched but only the weights asked for": EMBED + textwrap.dedent("""
        ids = tf.constant([[3, 14, 15, 9]])
        with tf.GradientTape() as tape:
            tape.watch(ids)
            loss = tf.reduce_sum(head(tf.reduce_mean(emb(ids), axis=1)))
        g = tape.gradient(loss, emb.trainable_variables + head.trainable_variables)
        """),
    "float features watched (not ids)": """
        feats = tf.constant([[3.0, 14.0]])
        with tf.GradientTape() as tape:
            tape.watch(feats)
            score = tf.reduce_sum(net(tf.reshape(feats, (2, 1))))
        saliency = tape.gradient(score, feats)
        """,
}


@pytest.mark.parametrize("name", sorted(BAD))
def test_hinted_at_the_line_to_change(name: str) -> None:
    body, expected = BAD[name]
    assert hints(body) == expected


@pytest.mark.parametrize("name", sorted(GOOD))
def test_the_correct_twin_gets_no_hint(name: str) -> None:
    assert hints(GOOD[name]) == []
