# source: https://github.com/tensorflow/tensorflow/issues/28836
# cause: non-differentiable-op
# rule: TM201
# weights: cnn_model/conv/kernel, cnn_model/conv/bias, cnn_model/fc/kernel, cnn_model/fc/bias
# mode: function
# summary: a tf.function(jit_compile=True) step scores the one-hot of the argmax class against the labels
# lint: yes
import numpy as np
import tensorflow as tf

tf.keras.utils.set_random_seed(0)

rng = np.random.default_rng(28836)
images = rng.normal(size=(16, 8, 8, 1)).astype("float32")
labels = rng.integers(0, 3, size=(16,))
model = tf.keras.Sequential([tf.keras.layers.Input((8, 8, 1)),
                             tf.keras.layers.Conv2D(4, 3, activation="relu", name="conv"),
                             tf.keras.layers.Flatten(),
                             tf.keras.layers.Dense(3, name="fc")], name="cnn_model")
optimizer = tf.keras.optimizers.Adam(0.01)


@tf.function(jit_compile=True)
def train_step(batch, target):
    with tf.GradientTape() as tape:
        logits = model(batch, training=True)
        chosen = tf.one_hot(tf.argmax(logits, axis=-1), 3)  # expect: non-differentiable-op primary
        loss = tf.reduce_mean(tf.square(chosen - tf.one_hot(target, 3)))
    grads = tape.gradient(loss, model.trainable_variables)
    optimizer.apply_gradients(zip(grads, model.trainable_variables, strict=False))
    return loss


print(float(train_step(images, labels)))
