# source: https://github.com/tensorflow/tensorflow/issues/62480
# cause: non-differentiable-op|integer-dtype
# rule: TM201
# weights: counter/h/kernel, counter/h/bias, counter/p/kernel, counter/p/bias
# mode: fit
# summary: a custom train_step's loss counts wrong predictions with tf.round and tf.math.count_nonzero
# lint: yes
import numpy as np
import tensorflow as tf

tf.keras.utils.set_random_seed(0)

rng = np.random.default_rng(58614)
x = rng.normal(size=(64, 4)).astype("float32")
y = (x[:, :1] > 0).astype("float32")


class Counter(tf.keras.Model):
    def __init__(self):
        super().__init__(name="counter")
        self.h = tf.keras.layers.Dense(8, activation="relu", name="h")
        self.p = tf.keras.layers.Dense(1, activation="sigmoid", name="p")

    def call(self, inputs):
        return self.p(self.h(inputs))

    def train_step(self, data):
        features, labels = data
        with tf.GradientTape() as tape:
            prob = self(features, training=True)
            wrong = tf.math.count_nonzero(tf.not_equal(tf.round(prob), labels))  # expect: non-differentiable-op|integer-dtype primary
            loss = tf.cast(wrong, tf.float32) / tf.cast(tf.shape(labels)[0], tf.float32)
        grads = tape.gradient(loss, self.trainable_variables)
        self.optimizer.apply_gradients(zip(grads, self.trainable_variables, strict=False))
        return {"loss": loss}


model = Counter()
model.compile(optimizer="adam")
model.fit(x, y, epochs=1, batch_size=32, verbose=0)
