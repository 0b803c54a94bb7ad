# source: https://github.com/tensorflow/tensorflow/issues/47906
# cause: sources-mismatch
# rule: TM113
# weights: backbone/feat1/kernel, backbone/feat1/bias
# mode: fit
# summary: a Keras callback sets the frozen backbone trainable after a few epochs of fit
# lint: no (the callback runs after fit traced its step: only the order at run time shows it)
import numpy as np
import tensorflow as tf

tf.keras.utils.set_random_seed(0)

rng = np.random.default_rng(47906)
x = rng.normal(size=(64, 6)).astype("float32")
y = rng.integers(0, 3, size=64)
backbone = tf.keras.Sequential([tf.keras.layers.Input((6,)),
                                tf.keras.layers.Dense(8, activation="relu", name="feat1")],
                               name="backbone")
backbone.trainable = False
model = tf.keras.Sequential([backbone, tf.keras.layers.Dense(3, name="classes")],
                            name="classifier")


class UnfreezeAt(tf.keras.callbacks.Callback):
    def __init__(self, epoch):
        super().__init__()
        self.at = epoch

    def on_epoch_end(self, epoch, logs=None):
        if epoch == self.at:
            backbone.trainable = True  # expect: sources-mismatch primary


model.compile(optimizer=tf.keras.optimizers.Adam(1e-2),
              loss=tf.keras.losses.SparseCategoricalCrossentropy(from_logits=True))
model.fit(x, y, epochs=4, batch_size=16, verbose=0, callbacks=[UnfreezeAt(1)])
