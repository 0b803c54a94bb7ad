# summary: the hinge is max(0, 1 - y*f), positive while a sample is inside the margin, so the loss is non-zero and every weight gets a gradient
import numpy as np
import tensorflow as tf

tf.keras.utils.set_random_seed(0)

rng = np.random.default_rng(1605)
x = rng.normal(size=(64, 5)).astype("float32")
y = np.where(x[:, 0] + x[:, 1] > 0, 1.0, -1.0).astype("float32")[:, None]

model = tf.keras.Sequential([tf.keras.Input((5,)),
                             tf.keras.layers.Dense(8, activation="relu", name="svm_hidden"),
                             tf.keras.layers.Dense(1, name="svm_score",
                                                   kernel_initializer=tf.keras.initializers.RandomNormal(stddev=0.05))],
                            name="svm_head")


@tf.function
def train_step(features, signs):
    with tf.GradientTape() as tape:
        scores = model(features, training=True)
        loss = tf.reduce_mean(tf.maximum(0.0, 1.0 - signs * scores))
    return loss, tape.gradient(loss, model.trainable_variables)


loss, grads = train_step(x, y)
assert len(grads) == 4
assert all(g is not None and float(tf.reduce_sum(tf.abs(g))) > 0 for g in grads)
