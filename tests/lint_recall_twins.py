"""Correct twins for tests/test_lint_recall.py: the same shapes written right, which get no hint."""

from __future__ import annotations

import textwrap

from tests.lint_recall_cases import ACTORS, CAM, EMBED

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
