# summary: self-training in an eager loop: pseudo-labels for unlabeled data are np.argmax of the same model's model.predict(...) inside the tape (constants by design), the loss is the sparse cross-entropy of the model's own forward pass against them plus the labeled loss
# source: https://keras.io/examples/vision/consistency_training/
import numpy as np
import tensorflow as tf
import keras
from keras import layers

keras.utils.set_random_seed(74)
rng = np.random.default_rng(74)
xl = rng.normal(size=(8, 6)).astype("float32")
yl = rng.integers(0, 3, size=(8,))
xu = rng.normal(size=(16, 6)).astype("float32")
model = keras.Sequential([keras.Input((6,)), layers.Dense(8, activation="relu", name="h"), layers.Dense(3, name="logits")])
opt = keras.optimizers.Adam(1e-3)
ce = keras.losses.SparseCategoricalCrossentropy(from_logits=True)
with tf.GradientTape() as tape:
    pseudo = np.argmax(model.predict(xu, verbose=0), axis=-1)
    loss = ce(yl, model(xl, training=True)) + 0.5 * ce(pseudo, model(xu, training=True))
grads = tape.gradient(loss, model.trainable_weights)
opt.apply_gradients(zip(grads, model.trainable_weights))
assert all(g is not None and float(tf.norm(g)) > 0 for g in grads)
