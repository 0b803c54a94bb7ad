# source: https://github.com/nasa/delta/issues/58
# cause: sources-mismatch
# rule: TM113
# weights: encoder/conv_a/kernel, encoder/conv_a/bias
# mode: fit
# summary: a set-trainable callback unfreezes the encoder when training ends, then fit is called again without compile
# lint: no (whether the second fit reuses the first train function depends on the run, not on one line)
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


class SetTrainable(tf.keras.callbacks.Callback):
    def __init__(self, layer):
        super().__init__()
        self.layer = layer

    def on_train_end(self, logs=None):
        self.layer.trainable = True  # expect: sources-mismatch primary


model.compile(optimizer=tf.keras.optimizers.Adam(1e-2),
              loss=tf.keras.losses.BinaryCrossentropy(from_logits=True))
model.fit(images, masks, epochs=2, batch_size=8, verbose=0, callbacks=[SetTrainable(encoder)])
model.fit(images, masks, epochs=2, batch_size=8, verbose=0)
