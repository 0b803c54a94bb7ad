# summary: keras-io captcha OCR shape: a CTCLayer adds ctc loss via add_loss; conv + reshape + BiLSTM + softmax, labels as a second input
# source: https://keras.io/examples/vision/captcha_ocr/
import numpy as np
import tensorflow as tf
import keras
from keras import layers, ops

keras.utils.set_random_seed(15)
rng = np.random.default_rng(15)
N, W, H, C, L = 16, 16, 8, 5, 3
images = rng.uniform(size=(N, W, H, 1)).astype("float32")
labels = rng.integers(1, C, size=(N, L)).astype("float32")


class CTCLayer(layers.Layer):
    def call(self, y_true, y_pred):
        batch_len = tf.cast(tf.shape(y_true)[0], dtype="int64")
        input_length = tf.cast(tf.shape(y_pred)[1], dtype="int64")
        label_length = tf.cast(tf.shape(y_true)[1], dtype="int64")
        input_length = input_length * tf.ones(shape=(batch_len, 1), dtype="int64")
        label_length = label_length * tf.ones(shape=(batch_len, 1), dtype="int64")
        loss = tf.nn.ctc_loss(labels=tf.cast(y_true, tf.int32), logits=tf.math.log(y_pred + 1e-8),
                              label_length=tf.squeeze(tf.cast(label_length, tf.int32), 1),
                              logit_length=tf.squeeze(tf.cast(input_length, tf.int32), 1),
                              logits_time_major=False, blank_index=0)
        self.add_loss(tf.reduce_mean(loss))
        return y_pred


img = keras.Input((W, H, 1), name="image")
lab = keras.Input((L,), name="label")
h = layers.Conv2D(8, 3, activation="relu", padding="same", name="conv1")(img)
h = layers.MaxPooling2D((2, 2))(h)
h = layers.Reshape((W // 2, (H // 2) * 8))(h)
h = layers.Dense(16, activation="relu", name="dense1")(h)
h = layers.Bidirectional(layers.LSTM(8, return_sequences=True))(h)
h = layers.Dense(C, activation="softmax", name="dense2")(h)
out = CTCLayer(name="ctc_loss")(lab, h)
model = keras.Model([img, lab], out)
model.compile(optimizer=keras.optimizers.Adam())
before = [w.numpy().copy() for w in model.trainable_weights]
model.fit({"image": images, "label": labels}, batch_size=8, epochs=1, verbose=0)
assert all(not np.allclose(b, w.numpy()) for b, w in zip(before, model.trainable_weights))
