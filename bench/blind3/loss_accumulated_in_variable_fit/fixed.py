# summary: the train_step differentiates the batch loss itself and accumulates the gradients (not the loss) in non-trainable variables, applying their mean every second step; every weight gets a gradient and fit changes all of them
import numpy as np
import tensorflow as tf

tf.keras.utils.set_random_seed(0)

rng = np.random.default_rng(2686)
x = rng.normal(size=(96, 6)).astype("float32")
y = (x[:, :1] * 1.5 - x[:, 1:2]).astype("float32")


class AccumulatingModel(tf.keras.Model):
    def __init__(self):
        super().__init__(name="accum_net")
        self.hidden = tf.keras.layers.Dense(8, activation="tanh", name="hidden")
        self.out = tf.keras.layers.Dense(1, name="out")

    def build(self, input_shape):
        self.hidden.build(input_shape)
        self.out.build((None, 8))
        self.grad_sums = [self.add_weight(shape=v.shape, initializer="zeros", trainable=False,
                                          name=f"grad_sum_{i}")
                          for i, v in enumerate(self.trainable_variables)]
        self.micro_steps = self.add_weight(shape=(), initializer="zeros", trainable=False,
                                           name="micro_steps")

    def call(self, inputs):
        return self.out(self.hidden(inputs))

    def train_step(self, data):
        features, targets = data
        with tf.GradientTape() as tape:
            loss = tf.reduce_mean(tf.square(self(features, training=True) - targets))
        grads = tape.gradient(loss, self.trainable_variables)
        for acc, g in zip(self.grad_sums, grads):
            acc.assign_add(g)
        self.micro_steps.assign_add(1.0)

        def apply():
            self.optimizer.apply_gradients(
                zip([acc / self.micro_steps for acc in self.grad_sums], self.trainable_variables))
            for acc in self.grad_sums:
                acc.assign(tf.zeros_like(acc))
            self.micro_steps.assign(0.0)
            return tf.constant(True)

        tf.cond(self.micro_steps >= 2.0, apply, lambda: tf.constant(False))
        return {"loss": loss}


model = AccumulatingModel()
model.compile(optimizer=tf.keras.optimizers.Adam(1e-2))
model(x[:2])
weights = model.trainable_weights
before = [w.numpy().copy() for w in weights]
model.fit(x, y, epochs=2, batch_size=32, verbose=0)
assert len(weights) == 4
assert all(np.any(b != w.numpy()) for b, w in zip(before, weights, strict=True))
