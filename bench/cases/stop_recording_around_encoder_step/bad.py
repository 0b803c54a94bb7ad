# source: https://github.com/fastestimator/fastestimator/pull/1431
# cause: outside-tape
# weights: enc/conv/kernel, enc/conv/bias
# mode: function
# summary: a traced step wraps the encoder's forward pass in tape.stop_recording() (a switch meant for frozen, no-gradient passes) while the encoder is among the sources; its output is off the tape and the encoder gets None
# lint: yes
import numpy as np
import tensorflow as tf

tf.keras.utils.set_random_seed(1)
rng = np.random.default_rng(1431)
images = rng.normal(size=(16, 8, 8, 1)).astype("float32")
labels = rng.integers(0, 3, size=(16,)).astype("int32")

encoder = tf.keras.Sequential([tf.keras.Input((8, 8, 1)),
                               tf.keras.layers.Conv2D(4, 3, name="conv"),
                               tf.keras.layers.GlobalAveragePooling2D(name="pool")], name="enc")
head = tf.keras.layers.Dense(3, name="head")
head.build((None, 4))
sources = encoder.trainable_variables + head.trainable_variables
optimizer = tf.keras.optimizers.SGD(0.1)


@tf.function
def step(batch, target):
    with tf.GradientTape() as tape:
        with tape.stop_recording():  # expect: outside-tape primary
            features = encoder(batch, training=True)
        logits = head(features)
        loss = tf.reduce_mean(
            tf.nn.sparse_softmax_cross_entropy_with_logits(target, logits))
    grads = tape.gradient(loss, sources)
    return loss, grads


loss, grads = step(images, labels)
print("encoder grads None:", [g is None for g in grads[:2]])
