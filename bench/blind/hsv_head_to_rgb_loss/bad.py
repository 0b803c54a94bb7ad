# source: https://github.com/tensorflow/tensorflow/issues/21510
# cause: non-differentiable-op
# weights: coloriser/hsv/kernel, coloriser/hsv/bias
# mode: function
# summary: a colourisation head predicts HSV and the loss converts it with tf.image.hsv_to_rgb before comparing with RGB targets; HSVToRGB has no gradient, so apply_gradients gets no gradient for any variable
# lint: yes
import numpy as np
import tensorflow as tf

tf.keras.utils.set_random_seed(0)

rng = np.random.default_rng(21510)
grey = tf.constant(rng.uniform(size=(8, 4, 4, 1)).astype("float32"))
target = tf.constant(rng.uniform(size=(8, 4, 4, 3)).astype("float32"))
model = tf.keras.Sequential([tf.keras.Input((4, 4, 1)),
                             tf.keras.layers.Dense(3, activation="sigmoid", name="hsv")],
                            name="coloriser")
optimizer = tf.keras.optimizers.Adam(1e-3)


@tf.function
def train_step(images, rgb):
    with tf.GradientTape() as tape:
        predicted = tf.image.hsv_to_rgb(model(images, training=True))  # expect: non-differentiable-op primary
        loss = tf.reduce_mean(tf.square(predicted - rgb))
    grads = tape.gradient(loss, model.trainable_variables)
    optimizer.apply_gradients(zip(grads, model.trainable_variables))
    return loss


print(float(train_step(grey, target)))
