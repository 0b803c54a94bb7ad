# summary: the callback unfreezes the encoder when training ends; compile() comes before the second fit
import numpy as np
import tensorflow as tf

tf.keras.utils.set_random_seed(0)

rng = np.random.default_rng(58)
images = rng.normal(size=(24, 8, 8, 1)).astype("float32")
masks = (rng.random(size=(24, 8, 8, 1)) > 0.5).astype("float32")
encoder = tf.keras.Sequential([tf.keras.layers.Input((8, 8, 1)),
                               tf.keras.layers.Conv2D(4, 3, padding="same", activation="relu",
                                                      name="conv_a")], name="encoder")
encoder.trainable = False
model = tf.keras.Sequential([encoder, tf.keras.layers.Conv2D(1, 1, name="mask")],
                            name="segmenter")
loss = tf.keras.losses.BinaryCrossentropy(from_logits=True)


class SetTrainable(tf.keras.callbacks.Callback):
    def __init__(self, layer):
        super().__init__()
        self.layer = layer

    def on_train_end(self, logs=None):
        self.layer.trainable = True


model.compile(optimizer=tf.keras.optimizers.Adam(1e-2), loss=loss)
model.fit(images, masks, epochs=2, batch_size=8, verbose=0, callbacks=[SetTrainable(encoder)])
model.compile(optimizer=tf.keras.optimizers.Adam(1e-3), loss=loss)
before = [w.numpy().copy() for w in encoder.weights]
model.fit(images, masks, epochs=2, batch_size=8, verbose=0)
assert all(not np.allclose(a, w.numpy()) for a, w in zip(before, encoder.weights))
