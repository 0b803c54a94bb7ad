"""Broken snippets for tests/test_lint_recall.py: each with the hints it must get, by line.

``BAD`` maps a name to (body, [(code, line)]); lines count from the body's first line, below the
test's ``HEAD``. ``CAM``, ``ACTORS`` and ``EMBED`` are shapes the correct twins
(tests/lint_recall_twins.py) share.
"""

from __future__ import annotations

import textwrap

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
