# source: https://github.com/keras-team/keras-cv/issues/759
# summary: compile(jit_compile=True) + fit, a BatchNormalization and Adam: every weight trains, no finding
import numpy as np
import tensorflow as tf

tf.keras.utils.set_random_seed(0)

rng = np.random.default_rng(61)
x = rng.normal(size=(60, 5)).astype("float32")
y = (x[:, :1] + 0.5 * x[:, 1:2] > 0).astype("float32")

model = tf.keras.Sequential([tf.keras.layers.Input((5,)),
                             tf.keras.layers.Dense(8, name="hidden"),
                             tf.keras.layers.BatchNormalization(name="bn"),
                             tf.keras.layers.Activation("relu"),
                             tf.keras.layers.Dense(1, activation="sigmoid", name="prob")],
                            name="clf")
model.compile(optimizer=tf.keras.optimizers.Adam(1e-2), loss="binary_crossentropy",
              metrics=["accuracy"], jit_compile=True)
before = [w.numpy().copy() for w in model.trainable_weights]
model.fit(x, y, epochs=2, batch_size=16, validation_split=0.2, verbose=0)
assert all(not np.allclose(b, w.numpy()) for b, w in zip(before, model.trainable_weights))
