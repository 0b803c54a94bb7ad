# source: https://github.com/tensorflow/tensorflow/issues/60041
# cause: non-differentiable-op
# weights: zipf/zipf/exponent
# mode: function
# summary: a Zipf-style layer learns the exponent s of tf.math.zeta(s, q); TensorFlow's zeta gradient exists only for q, so the exponent gets None while the layers before it train
# lint: no (zeta is differentiable in q: only TensorFlow's gradient registry says which input has none)
import numpy as np
import tensorflow as tf

tf.keras.utils.set_random_seed(0)

rng = np.random.default_rng(60041)
x = tf.constant(rng.uniform(0.0, 1.0, size=(32, 2)).astype("float32"))
y = tf.constant((0.5 + x.numpy().sum(axis=1, keepdims=True)) ** -1.0)


class ZetaTail(tf.keras.layers.Layer):
    def build(self, input_shape):
        self.exponent = self.add_weight(shape=(), initializer=tf.keras.initializers.Constant(2.5),
                                        name="exponent")

    def call(self, q):
        return tf.math.zeta(self.exponent, q)  # expect: non-differentiable-op primary


model = tf.keras.Sequential([tf.keras.Input((2,)),
                             tf.keras.layers.Dense(1, activation="softplus", name="offset"),
                             tf.keras.layers.Lambda(lambda t: t + 1.0),
                             ZetaTail(name="zipf")], name="zipf")
optimizer = tf.keras.optimizers.Adam(1e-2)


@tf.function
def train_step(features, targets):
    with tf.GradientTape() as tape:
        loss = tf.reduce_mean(tf.square(model(features) - targets))
    return tape.gradient(loss, model.trainable_variables)


grads = train_step(x, y)
print({w.path: (None if g is None else float(tf.norm(g)))
       for w, g in zip(model.trainable_variables, grads)})
