# source: https://github.com/tensorflow/tensorflow/issues/43765
# cause: non-differentiable-op
# rule: TM201
# weights: scorer/s/kernel, scorer/s/bias
# mode: function
# summary: a regulariser on the distinct scores (tf.unique) makes tape.gradient raise LookupError; the step catches it and skips the update
# lint: yes
import numpy as np
import tensorflow as tf

tf.keras.utils.set_random_seed(0)

rng = np.random.default_rng(55)
x = rng.normal(size=(16, 3)).astype("float32")
y = rng.normal(size=(16,)).astype("float32")
model = tf.keras.Sequential([tf.keras.layers.Input((3,)),
                             tf.keras.layers.Dense(1, name="s")], name="scorer")
optimizer = tf.keras.optimizers.Adam(0.01)


@tf.function
def train_step(x, y):
    with tf.GradientTape() as tape:
        scores = tf.reshape(model(x), [-1])
        mse = tf.reduce_mean(tf.square(scores - y))
        distinct, _ = tf.unique(scores)  # expect: non-differentiable-op primary
        loss = mse + 0.1 * tf.reduce_mean(tf.square(distinct))
    try:
        grads = tape.gradient(loss, model.trainable_weights)
    except LookupError as error:
        print("skipping the update:", error)
        return loss
    optimizer.apply_gradients(zip(grads, model.trainable_weights))
    return loss


for step in range(3):
    print(float(train_step(x, y)))
