# source: https://errorhandle.ai/how-does-the-gradient-descent-work-when-the-one-hot-encoded-labels-are-all-zeros
# cause: zero-at-runtime
# weights: category_net/cat_hidden/kernel, category_net/cat_hidden/bias, category_net/cat_probs/kernel, category_net/cat_probs/bias
# mode: function
# summary: product categories arrive as catalogue codes (101, 205, 307) and the step one-hots them with tf.one_hot(codes, 3) as if they were indices 0..2; every code is out of range, so every target row is all zeros, the hand-written cross-entropy -sum(t * log p) is exactly 0 and every gradient is 0
# lint: no (the codes' values, not the code, put them out of range)
import keras
import numpy as np
import tensorflow as tf

keras.utils.set_random_seed(0)

rng = np.random.default_rng(307)
x = rng.normal(size=(60, 5)).astype("float32")
codes = rng.choice(np.array([101, 205, 307]), size=60).astype("int32")

model = keras.Sequential([keras.Input((5,)),
                          keras.layers.Dense(12, activation="relu", name="cat_hidden"),
                          keras.layers.Dense(3, activation="softmax", name="cat_probs")], name="category_net")


@tf.function
def train_step(features, category_codes):
    with tf.GradientTape() as tape:
        targets = tf.one_hot(category_codes, 3)  # expect: zero-at-runtime primary
        probs = model(features, training=True)
        loss = -tf.reduce_mean(tf.reduce_sum(targets * tf.math.log(probs + 1e-7), axis=-1))
    return loss, tape.gradient(loss, model.trainable_variables)


loss, grads = train_step(x, codes)
print("loss:", float(loss), [float(tf.reduce_sum(tf.abs(g))) for g in grads])
