# source: https://github.com/tensorflow/tensorflow/issues/8625
# cause: non-differentiable-op
# rule: TM201
# weights: gate/h/kernel, gate/h/bias, gate/o/kernel, gate/o/bias
# mode: function
# summary: a tf.function train step thresholds sigmoid outputs with tf.floor before an L1 loss
# lint: yes
import numpy as np
import tensorflow as tf

tf.keras.utils.set_random_seed(0)

rng = np.random.default_rng(5)
x = rng.normal(size=(64, 5)).astype("float32")
y = (rng.random((64, 1)) > 0.5).astype("float32")
model = tf.keras.Sequential([tf.keras.layers.Input((5,)),
                             tf.keras.layers.Dense(8, activation="relu", name="h"),
                             tf.keras.layers.Dense(1, name="o")], name="gate")
optimizer = tf.keras.optimizers.SGD(0.01)


@tf.function
def train_step(features, labels):
    with tf.GradientTape() as tape:
        prob = tf.sigmoid(model(features))
        decision = tf.floor(prob + 0.5)  # expect: non-differentiable-op primary
        loss = tf.reduce_mean(tf.abs(labels - decision))
    grads = tape.gradient(loss, model.trainable_variables)
    optimizer.apply_gradients(zip(grads, model.trainable_variables, strict=False))
    return loss


print(float(train_step(x, y)))
