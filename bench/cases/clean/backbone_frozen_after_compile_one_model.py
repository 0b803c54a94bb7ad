# source: https://github.com/keras-team/keras/issues/4674
# summary: one model, compiled, then its pretrained part frozen before its first fit: Keras 3 honours the freeze at trace time, no other model was compiled with it frozen, and the head training alone is what the code asks for
import numpy as np
import tensorflow as tf

tf.keras.utils.set_random_seed(0)

rng = np.random.default_rng(4674)
x = rng.normal(size=(80, 3)).astype("float32")
y = rng.normal(size=(80, 5)).astype("float32")

pretrained = tf.keras.Sequential([tf.keras.Input((3,)), tf.keras.layers.Dense(5, name="p1")],
                                 name="pretrained")
model = tf.keras.Sequential([pretrained, tf.keras.layers.Dense(5, name="top")], name="model")
model.compile(optimizer=tf.keras.optimizers.RMSprop(0.01), loss="mse")
pretrained.trainable = False
kept = [w.numpy().copy() for w in pretrained.weights]
head = [w.numpy().copy() for w in model.trainable_weights]
model.fit(x, y, epochs=2, batch_size=16, verbose=0)
assert all(np.all(k == w.numpy()) for k, w in zip(kept, pretrained.weights))
assert all(np.any(h != w.numpy()) for h, w in zip(head, model.trainable_weights))
