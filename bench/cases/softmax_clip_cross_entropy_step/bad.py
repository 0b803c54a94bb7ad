# source: https://github.com/keras-team/keras/issues/6983
# cause: zero-at-runtime
# rule: TM505 (info by design: a model rightly certain of every example gets the same zeros; the scorer counts only warning/error findings as primary, so primary stays n, as for TM110)
# weights: readings/head/kernel, readings/head/bias
# mode: function
# summary: a @tf.function step computes the cross-entropy on softmax probabilities clipped to [eps, 1 - eps] (as Keras' categorical_crossentropy did); unscaled inputs make every softmax row one-hot, so the clip passes no gradient back
# lint: no (zero-at-runtime: only the values show that the softmax saturates)
import numpy as np
import tensorflow as tf

tf.keras.utils.set_random_seed(0)

EPS = 1e-7
rng = np.random.default_rng(6983)
readings = (rng.normal(size=(32, 5)) * 2000.0).astype("float32")  # raw sensor units
labels = tf.one_hot(rng.integers(0, 3, size=32), 3)
model = tf.keras.Sequential([tf.keras.layers.Input((5,)), tf.keras.layers.Dense(3, name="head")],
                            name="readings")
optimizer = tf.keras.optimizers.Adam(1e-3)


@tf.function
def train_step(x, y):
    with tf.GradientTape() as tape:
        probs = tf.nn.softmax(model(x))  # expect: zero-at-runtime primary
        probs = tf.clip_by_value(probs, EPS, 1.0 - EPS)  # accept: zero-at-runtime
        loss = tf.reduce_mean(-tf.reduce_sum(y * tf.math.log(probs), axis=-1))
    grads = tape.gradient(loss, model.trainable_variables)
    return loss, grads


loss, grads = train_step(readings, labels)
optimizer.apply_gradients(zip(grads, model.trainable_variables))
print(float(loss), [float(tf.reduce_max(tf.abs(g))) for g in grads])
