# source: https://github.com/keras-team/keras/issues/12983
# cause: sources-mismatch
# weights: logit_temperature
# mode: fit
# summary: a classification loss is meant to learn its softmax temperature: the loss factory makes a trainable tf.Variable and closes over it, and the loss is given to compile; fit differentiates only the model's trainable variables, so the temperature never changes while the classifier trains
# lint: yes
import numpy as np
import tensorflow as tf

tf.keras.utils.set_random_seed(0)

rng = np.random.default_rng(12983)
x = rng.normal(size=(96, 4)).astype("float32")
y = rng.integers(0, 3, size=(96,))


def tempered_crossentropy():
    temperature = tf.Variable(1.0, trainable=True, name="logit_temperature")  # expect: sources-mismatch primary

    def loss(labels, logits):
        return tf.reduce_mean(tf.keras.losses.sparse_categorical_crossentropy(
            labels, logits / temperature, from_logits=True))

    return loss, temperature


loss_fn, temperature = tempered_crossentropy()
model = tf.keras.Sequential([tf.keras.Input((4,)), tf.keras.layers.Dense(3, name="logits")],
                            name="classifier")
model.compile(optimizer=tf.keras.optimizers.Adam(5e-2), loss=loss_fn)
model.fit(x, y, epochs=2, batch_size=32, verbose=0)
print("temperature:", float(temperature.numpy()))
