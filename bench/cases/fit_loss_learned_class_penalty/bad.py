# source: https://github.com/keras-team/keras/issues/13844
# cause: sources-mismatch
# rule: TM114
# weights: class_penalty
# mode: fit
# summary: a weighted cross-entropy is meant to learn its per-class penalty: the loss builder makes a trainable tf.Variable and the loss closes over it, but fit differentiates only the model's trainable variables, so the penalty keeps its first value
# lint: no (a variable a loss function closes over is what fit never trains; the static checker does not follow compile's loss)
import numpy as np
import tensorflow as tf

tf.keras.utils.set_random_seed(0)

rng = np.random.default_rng(13844)
x = rng.normal(size=(120, 4)).astype("float32")
y = tf.keras.utils.to_categorical((x[:, 0] > 0).astype("int32") + (x[:, 1] > 1).astype("int32"), 3)


def penalised_crossentropy():
    penalty = tf.Variable([1.0, 1.0, 1.0], trainable=True, name="class_penalty")  # expect: sources-mismatch primary

    def loss(y_true, y_pred):
        weights = tf.nn.softplus(penalty)
        picked = -tf.reduce_sum(y_true * weights * tf.math.log(y_pred + 1e-7), axis=-1)
        return tf.reduce_mean(picked) + 0.1 * tf.reduce_sum(tf.square(penalty))

    loss.penalty = penalty
    return loss


criterion = penalised_crossentropy()
model = tf.keras.Sequential([tf.keras.Input((4,)),
                             tf.keras.layers.Dense(8, activation="relu", name="hidden"),
                             tf.keras.layers.Dense(3, activation="softmax", name="probs")],
                            name="classifier")
model.compile(optimizer=tf.keras.optimizers.Adam(0.05), loss=criterion)
start = criterion.penalty.numpy().copy()
model.fit(x, y, epochs=2, batch_size=24, verbose=0)
print("penalty changed:", bool(np.any(start != criterion.penalty.numpy())))
