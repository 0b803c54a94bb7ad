# summary: the catalogue codes are mapped to indices 0..2 with tf.searchsorted over the sorted known codes before tf.one_hot, so each target row has its 1 and every weight gets a gradient
import keras
import numpy as np
import tensorflow as tf

keras.utils.set_random_seed(0)

rng = np.random.default_rng(307)
x = rng.normal(size=(60, 5)).astype("float32")
codes = rng.choice(np.array([101, 205, 307]), size=60).astype("int32")
known_codes = tf.constant([101, 205, 307])

model = keras.Sequential([keras.Input((5,)),
                          keras.layers.Dense(12, activation="relu", name="cat_hidden"),
                          keras.layers.Dense(3, activation="softmax", name="cat_probs")], name="category_net")


@tf.function
def train_step(features, category_codes):
    with tf.GradientTape() as tape:
        targets = tf.one_hot(tf.searchsorted(known_codes, category_codes), 3)
        probs = model(features, training=True)
        loss = -tf.reduce_mean(tf.reduce_sum(targets * tf.math.log(probs + 1e-7), axis=-1))
    return loss, tape.gradient(loss, model.trainable_variables)


loss, grads = train_step(x, codes)
assert len(grads) == 4
assert all(g is not None and float(tf.reduce_sum(tf.abs(g))) > 0 for g in grads)
