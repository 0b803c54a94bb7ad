# source: https://github.com/ray-project/ray/pull/34293
# cause: zero-at-runtime
# rule: TM504
# weights: log_var/kernel, log_var/bias
# mode: function
# summary: a KL weight ramped by the epoch loop is a Python attribute (self.beta = epoch / 4) read by a tf.function step: traced at 0.0, it stays 0.0, so the log-variance head (reached only through the KL term) gets exact zeros
# lint: yes
import numpy as np
import tensorflow as tf

tf.keras.utils.set_random_seed(0)

rng = np.random.default_rng(34)
x = tf.constant(rng.random((32, 6)).astype("float32"))
inputs = tf.keras.Input((6,))
hidden = tf.keras.layers.Dense(8, activation="tanh", name="enc")(inputs)
mu = tf.keras.layers.Dense(3, name="mu")(hidden)
log_var = tf.keras.layers.Dense(3, name="log_var")(hidden)
recon = tf.keras.layers.Dense(6, name="dec")(mu)
model = tf.keras.Model(inputs, [recon, mu, log_var], name="ae")


class Trainer:
    def __init__(self):
        self.beta = 0.0
        self.optimizer = tf.keras.optimizers.Adam(1e-3)

    @tf.function
    def train_step(self, batch):
        with tf.GradientTape() as tape:
            out, m, lv = model(batch, training=True)
            rec = tf.reduce_mean(tf.square(out - batch))
            kl = -0.5 * tf.reduce_mean(1.0 + lv - tf.square(m) - tf.exp(lv))
            loss = rec + self.beta * kl  # expect: zero-at-runtime primary
        grads = tape.gradient(loss, model.trainable_variables)
        self.optimizer.apply_gradients(zip(grads, model.trainable_variables))
        return grads


trainer = Trainer()
for epoch in range(3):
    trainer.beta = epoch / 4
    grads = trainer.train_step(x)
print("log_var grad norm:", float(tf.norm(grads[-2])))
