# summary: the output layer returns logits and the class-weighted loss is tf.nn.weighted_cross_entropy_with_logits, whose gradient never vanishes on a confidently wrong row, so fit changes every weight even before the inputs are rescaled
import numpy as np
import tensorflow as tf

tf.keras.utils.set_random_seed(0)

rng = np.random.default_rng(4171)
balance = rng.uniform(20000.0, 90000.0, size=(256, 3)).astype("float32")
churned = (balance[:, 0] > 55000.0).astype("float32")[:, None]



def weighted_bce(y_true, y_pred):
    return tf.reduce_mean(tf.nn.weighted_cross_entropy_with_logits(y_true, y_pred, pos_weight=3.0))


model = tf.keras.Sequential([
    tf.keras.Input((3,)),
    tf.keras.layers.Dense(16, activation="relu", name="hidden"),
    tf.keras.layers.Dense(1, name="prob"),
], name="churn")
model.compile(optimizer=tf.keras.optimizers.Adam(1e-3), loss=weighted_bce)
before = [w.numpy().copy() for w in model.trainable_weights]
model.fit(balance, churned, epochs=2, batch_size=32, verbose=0)
assert len(model.trainable_weights) == 4
assert all(np.any(b != w.numpy()) for b, w in zip(before, model.trainable_weights, strict=True))
