# source: https://github.com/keras-team/keras/issues/4401
# summary: a Lambda layer divides by a raw tf.Variable temperature that the model does not own, and the step passes it explicitly with the model's weights (model.trainable_variables + [temperature]), so it trains
import numpy as np
import tensorflow as tf

tf.keras.utils.set_random_seed(0)

rng = np.random.default_rng(4401)
x = rng.normal(size=(64, 5)).astype("float32")
labels = (x[:, 0] > 0).astype("int32")
temperature = tf.Variable(1.5, name="temperature")
inputs = tf.keras.Input((5,))
logits = tf.keras.layers.Dense(2, name="logits")(inputs)
scaled = tf.keras.layers.Lambda(lambda t: t / temperature, name="scale")(logits)
model = tf.keras.Model(inputs, scaled, name="tempered")
loss_fn = tf.keras.losses.SparseCategoricalCrossentropy(from_logits=True)
optimizer = tf.keras.optimizers.Adam(5e-2)
variables = model.trainable_variables + [temperature]


@tf.function
def train_step(features, targets):
    with tf.GradientTape() as tape:
        loss = loss_fn(targets, model(features, training=True))
    grads = tape.gradient(loss, variables)
    optimizer.apply_gradients(zip(grads, variables))
    return grads


grads = train_step(x, labels)
assert len(grads) == 3
assert all(g is not None and float(tf.reduce_max(tf.abs(g))) > 0 for g in grads)
