# summary: soft true-negative and false-positive counts are sums of probabilities, so the specificity loss (with a little cross-entropy to keep recall) is differentiable and every weight trains
import numpy as np
import tensorflow as tf

tf.keras.utils.set_random_seed(0)

rng = np.random.default_rng(33587)
x = rng.normal(size=(128, 4)).astype("float32")
y = (x[:, 0] + 0.5 * x[:, 2] > 0.3).astype("float32")[:, None]


def specificity_loss(y_true, y_pred):
    negatives = 1.0 - y_true
    tn = tf.reduce_sum(negatives * (1.0 - y_pred))
    fp = tf.reduce_sum(negatives * y_pred)
    bce = tf.reduce_mean(tf.keras.losses.binary_crossentropy(y_true, y_pred))
    return 1.0 - tn / (tn + fp + 1e-7) + 0.1 * bce


model = tf.keras.Sequential([tf.keras.Input((4,)),
                             tf.keras.layers.Dense(8, activation="relu", name="hidden"),
                             tf.keras.layers.Dense(1, activation="sigmoid", name="score")], name="screen")
model.compile(optimizer="adam", loss=specificity_loss)
before = [w.numpy().copy() for w in model.trainable_weights]
model.fit(x, y, epochs=1, batch_size=32, verbose=0)
assert len(model.trainable_weights) == 4
assert all(np.any(b != w.numpy()) for b, w in zip(before, model.trainable_weights, strict=True))
