# source: https://github.com/keras-team/keras/issues/1732
# cause: variable-assign|non-differentiable-op
# weights: ranker/h/kernel, ranker/h/bias, ranker/p/kernel, ranker/p/bias
# mode: function
# summary: the step optimises 1 - AUC read from a keras.metrics.AUC object; update_state thresholds the scores and accumulates counts into the metric's variables, so no gradient reaches the model
# lint: yes
import numpy as np
import tensorflow as tf

tf.keras.utils.set_random_seed(0)

rng = np.random.default_rng(1732)
x = tf.constant(rng.normal(size=(64, 5)).astype("float32"))
y = tf.constant((x.numpy()[:, :1] + 0.3 * x.numpy()[:, 1:2] > 0).astype("float32"))
model = tf.keras.Sequential([tf.keras.Input((5,)),
                             tf.keras.layers.Dense(8, activation="relu", name="h"),
                             tf.keras.layers.Dense(1, activation="sigmoid", name="p")],
                            name="ranker")
auc = tf.keras.metrics.AUC(num_thresholds=50)
optimizer = tf.keras.optimizers.Adam(1e-2)


@tf.function
def train_step(features, labels):
    with tf.GradientTape() as tape:
        auc.reset_state()
        auc.update_state(labels, model(features, training=True))  # expect: variable-assign|non-differentiable-op primary
        loss = 1.0 - auc.result()  # accept: variable-assign|non-differentiable-op
    grads = tape.gradient(loss, model.trainable_variables)
    optimizer.apply_gradients(zip(grads, model.trainable_variables))
    return loss


print(float(train_step(x, y)))
