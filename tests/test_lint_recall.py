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


CAM = """
cnn = keras.Sequential([keras.Input((8, 8, 1)), keras.layers.Conv2D(2, 3, name="conv"),
                        keras.layers.GlobalAveragePooling2D(), keras.layers.Dense(5)])
img = tf.ones((1, 8, 8, 1))
grad_model = keras.Model(cnn.inputs, [cnn.get_layer("conv").output, cnn.output])
"""
ACTORS = """
def make_actor():
    return keras.Sequential([keras.Input((3,)), keras.layers.Dense(8, activation="relu"),
                             keras.layers.Dense(1, activation="tanh")])
def make_critic():
    s = keras.Input((3,))
    a = keras.Input((1,))
    h = keras.layers.Concatenate()([s, a])
    return keras.Model([s, a], keras.layers.Dense(1)(keras.layers.Dense(8)(h)))
actor = make_actor()
target_actor = make_actor()
critic = make_critic()
target_critic = make_critic()
opt = keras.optimizers.Adam()
states = tf.ones((4, 3))
"""

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
    # the Embedding behind the user's argmax takes indices by design: not one more to fix
    "an argmax token looked up by an Embedding in fit: one hint, at the argmax": ("""
        inputs = keras.Input((6,))
        scores = keras.layers.Dense(12, activation="softmax")(inputs)
        token = keras.layers.Lambda(lambda p: tf.argmax(p, axis=-1))(scores)
        vector = keras.layers.Embedding(12, 4)(token)
        model = keras.Model(inputs, keras.layers.Dense(1)(vector))
        model.compile(optimizer="adam", loss="mse")
        model.fit(tf.ones((8, 6)), tf.ones((8, 1)))
        """, [("TM201", 4)]),
}


BAD.update({
    "grad-cam: the score from a second pass outside the tape": (CAM + textwrap.dedent("""
        with tf.GradientTape() as tape:
            conv_out, preds = grad_model(img)
        preds = cnn(img)
        score = preds[:, 2]
        grads = tape.gradient(score, conv_out)
        """), [("TM104", 9)]),
    "grad-cam: the score from a second model inside the tape": (CAM + textwrap.dedent("""
        conv_model = keras.Model(cnn.inputs, cnn.get_layer("conv").output)
        with tf.GradientTape() as tape:
            conv_out = conv_model(img)
            score = cnn(img)[:, 2]
        grads = tape.gradient(score, conv_out)
        """), [("TM104", 10)]),
    "grad-cam: the score from a copy of the model made by the same factory": ("""
        def build():
            return keras.Sequential([keras.Input((8, 8, 1)), keras.layers.Conv2D(2, 3),
                                     keras.layers.GlobalAveragePooling2D(), keras.layers.Dense(5)])
        cnn = build()
        cnn2 = build()
        img = tf.ones((1, 8, 8, 1))
        grad_model = keras.Model(cnn.inputs, [cnn.layers[0].output, cnn.output])
        with tf.GradientTape() as tape:
            conv_out, preds = grad_model(img)
            score = cnn2(img)[:, 1]
        grads = tape.gradient(score, conv_out)
        """, [("TM104", 11)]),
    "ddpg: the actor's loss differentiated by the target actor's weights": (
        ACTORS + textwrap.dedent("""
        @tf.function
        def update(batch):
            with tf.GradientTape() as tape:
                actions = actor(batch, training=True)
                actor_loss = -tf.reduce_mean(critic([batch, actions], training=True))
            grads = tape.gradient(actor_loss, target_actor.trainable_variables)
            opt.apply_gradients(zip(grads, actor.trainable_variables))
        update(states)
        """), [("TM104", 22)]),
    "a listed model nothing in the tape reads (unconnected_gradients=ZERO)": (ACTORS + """
with tf.GradientTape() as tape:
    loss = tf.reduce_mean(actor(states))
variables = [actor.trainable_variables, critic.trainable_variables]
grads = tape.gradient(loss, variables, unconnected_gradients=tf.UnconnectedGradients.ZERO)
""", [("TM104", 20)]),
    "tape.watch of a model's symbolic output (it raises)": ("""
        with tf.GradientTape() as tape:
            tape.watch(net.output)
            loss = tf.reduce_sum(net(x))
        g = tape.gradient(loss, net.trainable_variables)
        """, [("TM108", 3)]),
    "grad-cam: the score pasted in as a constant": (CAM + textwrap.dedent("""
        with tf.GradientTape() as tape:
            tape.watch(img)
            preds = cnn(img)
            score = tf.constant([4.43])
        grads = tape.gradient(score, img)
        """), [("TM104", 10)]),
    "gan: the generator's loss scored on real images": ("""
        gen = keras.Sequential([keras.Input((2,)), keras.layers.Dense(1)])
        noise = tf.ones((4, 2))
        with tf.GradientTape() as tape:
            fake = gen(noise, training=True)
            scores = net(x, training=True)
            g_loss = tf.reduce_mean(keras.losses.binary_crossentropy(tf.ones_like(scores), scores))
        grads = tape.gradient(g_loss, gen.trainable_variables)
        """, [("TM104", 6)]),
    "a weight the model makes and never reads": ("""
        class TwoHead(keras.Model):
            def __init__(self):
                super().__init__()
                self.body = keras.layers.Dense(8)
                self.temp = self.add_weight(name="temp", shape=(), initializer="zeros")
            def call(self, h):
                return self.body(h)
        m = TwoHead()
        with tf.GradientTape() as tape:
            loss = tf.reduce_mean(m(x))
        grads = tape.gradient(loss, m.trainable_variables)
        """, [("TM104", 6)]),
    "a variable source nothing reads": ("""
        w = tf.Variable([1.0, 2.0])
        b = tf.Variable(0.5)
        with tf.GradientTape() as tape:
            loss = tf.reduce_sum(w * 2.0)
        grads = tape.gradient(loss, [w, b])
        """, [("TM104", 3)]),
})

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
    "grad-cam from one pass (keras-io)": CAM + textwrap.dedent("""
        with tf.GradientTape() as tape:
            conv_out, preds = grad_model(img)
            index = tf.argmax(preds[0])
            score = preds[:, index]
        grads = tape.gradient(score, conv_out)
        pooled = tf.reduce_mean(grads, axis=(0, 1, 2))
        heatmap = tf.squeeze(conv_out[0] @ pooled[..., tf.newaxis])
        preds_again = cnn(img)
        """),
    "grad-cam, the outputs taken by index from one pass": CAM + textwrap.dedent("""
        with tf.GradientTape() as tape:
            out = grad_model(img)
            conv_out = out[0]
            preds = out[1]
            score = preds[:, 2]
        grads = tape.gradient(score, conv_out)
        """),
    "grad-cam by hand: the head applied to the conv output": CAM + textwrap.dedent("""
        head = keras.Sequential([keras.layers.GlobalAveragePooling2D(), keras.layers.Dense(5)])
        conv_model = keras.Model(cnn.inputs, cnn.get_layer("conv").output)
        with tf.GradientTape() as tape:
            conv_out = conv_model(img)
            tape.watch(conv_out)
            score = head(conv_out)[:, 2]
        grads = tape.gradient(score, conv_out)
        """),
    "ddpg done right, target networks outside the tape": ACTORS + textwrap.dedent("""
        @tf.function
        def update(batch, rewards, next_batch):
            target = rewards + 0.99 * target_critic([next_batch, target_actor(next_batch)])
            with tf.GradientTape() as tape:
                q = critic([batch, tf.ones((4, 1))], training=True)
                critic_loss = tf.reduce_mean((target - q) ** 2)
            grads = tape.gradient(critic_loss, critic.trainable_variables)
            opt.apply_gradients(zip(grads, critic.trainable_variables))
            with tf.GradientTape() as tape:
                actor_loss = -tf.reduce_mean(critic([batch, actor(batch)]))
            grads = tape.gradient(actor_loss, actor.trainable_variables)
            opt.apply_gradients(zip(grads, actor.trainable_variables))
            for a, b in zip(target_actor.variables, actor.variables):
                a.assign(0.995 * a + 0.005 * b)
        update(states, tf.ones((4, 1)), states)
        """),
    "twin critics, each trained on its own loss": ACTORS + textwrap.dedent("""
        critic2 = make_critic()
        with tf.GradientTape(persistent=True) as tape:
            a = tf.ones((4, 1))
            q1 = critic([states, a])
            q2 = critic2([states, a])
            l1 = tf.reduce_mean(q1 ** 2)
            l2 = tf.reduce_mean(q2 ** 2)
        g1 = tape.gradient(l1, critic.trainable_variables)
        g2 = tape.gradient(l2, critic2.trainable_variables)
        """),
    "a model handed to a library function in the tape": ACTORS + textwrap.dedent("""
        from mylib import policy_loss
        with tf.GradientTape() as tape:
            loss = policy_loss(target_actor, states) + tf.reduce_mean(actor(states))
        grads = tape.gradient(loss, target_actor.trainable_variables)
        """),
    "a model called through self.layers from a loss closure": textwrap.dedent("""
        class Stack(keras.Model):
            def __init__(self):
                super().__init__()
                self.blocks = [keras.layers.Dense(4) for _ in range(3)]
            def call(self, h):
                for layer in self.layers:
                    h = layer(h)
                return h
        disc = Stack()
        z = tf.ones((4, 1))
        def d_loss_fn():
            return tf.reduce_mean(disc(net(z)))
        with tf.GradientTape() as tape:
            loss = d_loss_fn()
        grads = tape.gradient(loss, disc.trainable_variables)
        """),
    "a model called by name in a way the checker cannot follow": textwrap.dedent("""
        other = keras.Sequential([keras.Input((1,)), keras.layers.Dense(1)])
        nets = {"other": other}
        def loss_fn():
            return tf.reduce_mean(getattr(nets["other"], "__call__")(x)) + tf.reduce_mean(net(x))
        probe = other(x)
        with tf.GradientTape() as tape:
            loss = loss_fn()
        grads = tape.gradient(loss, other.trainable_variables)
        """),
    "a loss started from a constant and accumulated": """
        with tf.GradientTape() as tape:
            loss = tf.constant(0.0)
            for _ in range(3):
                loss += tf.reduce_mean(net(x))
        grads = tape.gradient(loss, net.trainable_variables)
        """,
    "gan: the generator's loss scored on its output": """
        gen = keras.Sequential([keras.Input((2,)), keras.layers.Dense(1)])
        noise = tf.ones((4, 2))
        with tf.GradientTape() as tape:
            fake = gen(noise, training=True)
            scores = net(fake, training=True)
            g_loss = tf.reduce_mean(keras.losses.binary_crossentropy(tf.ones_like(scores), scores))
        grads = tape.gradient(g_loss, gen.trainable_variables)
        """,
    "gan: the generator handed to a helper the checker cannot see into": """
        from mylib import adversarial_loss
        gen = keras.Sequential([keras.Input((2,)), keras.layers.Dense(1)])
        noise = tf.ones((4, 2))
        with tf.GradientTape() as tape:
            fake = gen(noise, training=True)
            scores = net(x, training=True)
            g_loss = adversarial_loss(gen, scores)
        grads = tape.gradient(g_loss, gen.trainable_variables)
        """,
    "weights a model makes and reads (by name, by list, in a helper, frozen)": """
        class Scaled(keras.Model):
            def __init__(self):
                super().__init__()
                self.body = keras.layers.Dense(8)
                self.temp = self.add_weight(name="temp", shape=(), initializer="zeros")
                self.steps = self.add_weight(name="steps", shape=(), trainable=False)
            def scale(self, h):
                return h * tf.exp(self.temp)
            def call(self, h):
                return self.scale(self.body(h))
        class Listed(keras.Model):
            def __init__(self):
                super().__init__()
                self.body = keras.layers.Dense(8)
                self.extra = self.add_weight(name="extra", shape=(), initializer="zeros")
            def call(self, h):
                return self.body(h) + sum(tf.reduce_sum(w) for w in self.trainable_weights)
        a, b = Scaled(), Listed()
        with tf.GradientTape() as tape:
            loss = tf.reduce_mean(a(x)) + tf.reduce_mean(b(x))
        grads = tape.gradient(loss, a.trainable_variables + b.trainable_variables)
        """,
    "a variable read through a list of parameters": """
        w = tf.Variable([1.0, 2.0])
        b = tf.Variable(0.5)
        params = [w, b]
        with tf.GradientTape() as tape:
            loss = tf.reduce_sum(params[0] * 2.0 + params[1])
        grads = tape.gradient(loss, [w, b])
        """,
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


def test_a_watch_that_raises_is_one_hint_at_the_watch() -> None:
    """`tape.watch(model.inputs)` raises: TM108 there, not TM102 at the tape and the tensor."""
    source = textwrap.dedent("""\
        import tensorflow as tf
        model = tf.keras.Sequential([tf.keras.Input((3,)), tf.keras.layers.Dense(1)])
        x = tf.random.normal((4, 3))
        with tf.GradientTape() as tape:
            tape.watch(model.inputs)
            loss = tf.reduce_sum(model(x))
        saliency = tape.gradient(loss, x)
        """)
    assert [(h.code, h.line) for h in check_source(source)] == [("TM108", 5)]


METRIC_STEP = """\
import tensorflow as tf
w = tf.Variable([1.0, 2.0])
y = tf.constant([1.0, 0.0])
with tf.GradientTape() as tape:
    p = tf.sigmoid(w)
    acc = tf.keras.metrics.binary_accuracy(y, p)
    loss = {loss}
g = tape.gradient(loss, [w])
"""


def test_an_accuracy_metric_in_the_loss_is_hinted_and_one_beside_it_is_not() -> None:
    broken = check_source(METRIC_STEP.format(loss="1.0 - acc"))
    assert [(h.code, h.line) for h in broken] == [("TM201", 6)]
    assert check_source(METRIC_STEP.format(loss="tf.reduce_mean((p - y) ** 2)")) == []


SCAN_STEP = """\
import tensorflow as tf
w = tf.Variable(0.5)
xs = tf.ones((4,))
def step(h, x):
    return {body}
with tf.GradientTape() as tape:
    hs = tf.scan(step, xs, initializer=tf.constant(0.0))
    loss = tf.reduce_sum(hs)
g = tape.gradient(loss, [w])
"""


def test_a_cut_inside_a_scan_function_is_hinted_and_a_correct_one_is_not() -> None:
    broken = check_source(SCAN_STEP.format(body="tf.floor(w * h + x)"))
    assert [(h.code, h.line) for h in broken] == [("TM201", 5)]
    assert check_source(SCAN_STEP.format(body="tf.tanh(w * h + x)")) == []
