# summary: a callback unfreezes the backbone, gives the model a new optimizer and asks Keras for a new train function
import numpy as np
import tensorflow as tf

tf.keras.utils.set_random_seed(0)

rng = np.random.default_rng(4790)
x = rng.normal(size=(64, 6)).astype("float32")
y = rng.integers(0, 3, size=64)
backbone = tf.keras.Sequential([tf.keras.layers.Input((6,)),
                                tf.keras.layers.Dense(8, activation="relu", name="trunk")],
                               name="backbone")
backbone.trainable = False
model = tf.keras.Sequential([backbone, tf.keras.layers.Dense(3, name="classes")],
                            name="classifier")


class Unfreeze(tf.keras.callbacks.Callback):
    def on_epoch_end(self, epoch, logs=None):
        if epoch == 0:
            backbone.trainable = True
            self.model.optimizer = tf.keras.optimizers.Adam(1e-3)
            self.model.make_train_function(force=True)
            self.before = [w.numpy().copy() for w in backbone.weights]


unfreeze = Unfreeze()
model.compile(optimizer=tf.keras.optimizers.Adam(1e-2),
              loss=tf.keras.losses.SparseCategoricalCrossentropy(from_logits=True))
model.fit(x, y, epochs=3, batch_size=16, verbose=0, callbacks=[unfreeze])
assert all(not np.allclose(a, w.numpy()) for a, w in zip(unfreeze.before, backbone.weights))
