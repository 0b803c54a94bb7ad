# source: https://github.com/keras-team/keras/issues/4171
# cause: zero-at-runtime
# weights: churn/hidden/kernel, churn/hidden/bias, churn/prob/kernel, churn/prob/bias
# mode: fit
# summary: raw account balances (tens of thousands) feed a binary classifier whose sigmoid output saturates at exactly 0 or 1 on every row; the hand-written class-weighted cross-entropy clips the probabilities to [eps, 1 - eps] before the log, the clip's gradient is zero there, the loss sits at a constant and fit never changes a weight
# lint: no (zero at run time: the saturation depends on the input values)
import numpy as np
import tensorflow as tf

tf.keras.utils.set_random_seed(0)

rng = np.random.default_rng(4171)
balance = rng.uniform(20000.0, 90000.0, size=(256, 3)).astype("float32")
churned = (balance[:, 0] > 55000.0).astype("float32")[:, None]



def weighted_bce(y_true, y_pred):
    p = tf.clip_by_value(y_pred, 1e-7, 1.0 - 1e-7)  # accept: zero-at-runtime
    return -tf.reduce_mean(3.0 * y_true * tf.math.log(p) + (1.0 - y_true) * tf.math.log(1.0 - p))


model = tf.keras.Sequential([
    tf.keras.Input((3,)),
    tf.keras.layers.Dense(16, activation="relu", name="hidden"),
    tf.keras.layers.Dense(1, activation="sigmoid", name="prob"),  # expect: zero-at-runtime primary
], name="churn")
model.compile(optimizer=tf.keras.optimizers.Adam(1e-3), loss=weighted_bce)
before = [w.numpy().copy() for w in model.trainable_weights]
history = model.fit(balance, churned, epochs=2, batch_size=32, verbose=0)
print("loss:", history.history["loss"])
print("changed:", [bool(np.any(b != w.numpy())) for b, w in zip(before, model.trainable_weights)])
