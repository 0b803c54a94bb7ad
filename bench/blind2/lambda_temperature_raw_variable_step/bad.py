# source: https://github.com/tensorflow/tensorflow/issues/30587
# cause: sources-mismatch
# weights: temperature
# mode: function
# summary: a learned softmax temperature is a raw tf.Variable closed over by a keras.layers.Lambda in a functional model; the model does not own it, the step takes model.trainable_variables as sources, and the temperature never trains
# lint: yes
import numpy as np
import tensorflow as tf

tf.keras.utils.set_random_seed(0)

rng = np.random.default_rng(30587)
x = rng.normal(size=(96, 6)).astype("float32")
labels = (x[:, 0] + x[:, 1] > 0).astype("int32") + (x[:, 2] > 1).astype("int32")

temperature = tf.Variable(1.0, name="temperature")  # expect: sources-mismatch primary
inputs = tf.keras.Input((6,))
hidden = tf.keras.layers.Dense(12, activation="relu", name="hidden")(inputs)
logits = tf.keras.layers.Dense(3, name="logits")(hidden)
scaled = tf.keras.layers.Lambda(lambda t: t / temperature, name="temper")(logits)  # accept: sources-mismatch
model = tf.keras.Model(inputs, scaled, name="calibrated")
loss_fn = tf.keras.losses.SparseCategoricalCrossentropy(from_logits=True)
optimizer = tf.keras.optimizers.Adam(5e-2)


@tf.function
def train_step(features, targets):
    with tf.GradientTape() as tape:
        loss = loss_fn(targets, model(features, training=True))
    grads = tape.gradient(loss, model.trainable_variables)
    optimizer.apply_gradients(zip(grads, model.trainable_variables))
    return loss


start = float(temperature.numpy())
for _ in range(5):
    train_step(x, labels)
print("sources:", [v.path for v in model.trainable_variables])
print("temperature changed:", float(temperature.numpy()) != start)
