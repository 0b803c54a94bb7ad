# source: https://github.com/BVLC/caffe/issues/1605
# cause: zero-at-runtime
# weights: svm_head/svm_hidden/kernel, svm_head/svm_hidden/bias, svm_head/svm_score/kernel, svm_head/svm_score/bias
# mode: function
# summary: a hand-written hinge loss has its margin term reversed (max(0, y*f - 1) instead of max(0, 1 - y*f)); with small initial scores every term is below zero, the loss is exactly 0 from the first step and every gradient is zero
# lint: no (the sign of the margin is arithmetic: both orders are valid code)
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
        loss = tf.reduce_mean(tf.maximum(0.0, signs * scores - 1.0))  # expect: zero-at-runtime primary
    return loss, tape.gradient(loss, model.trainable_variables)


loss, grads = train_step(x, y)
print("loss:", float(loss), [float(tf.reduce_sum(tf.abs(g))) for g in grads])
