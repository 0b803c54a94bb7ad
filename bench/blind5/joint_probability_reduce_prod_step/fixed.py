# summary: the likelihood is maximised in log space (the negative sum of log-probabilities), which does not underflow, so every weight gets a gradient
import numpy as np
import tensorflow as tf

tf.keras.utils.set_random_seed(0)

rng = np.random.default_rng(19)
x = rng.normal(size=(4, 200, 3)).astype("float32")
y = (rng.uniform(size=(4, 200)) < 0.5).astype("float32")

model = tf.keras.Sequential([tf.keras.Input((200, 3)),
                             tf.keras.layers.Dense(8, activation="tanh", name="step_hidden"),
                             tf.keras.layers.Dense(1, activation="sigmoid", name="step_prob")],
                            name="seq_model")


@tf.function
def train_step(features, outcomes):
    with tf.GradientTape() as tape:
        p = model(features, training=True)[..., 0]
        p_obs = outcomes * p + (1.0 - outcomes) * (1.0 - p)
        loss = -tf.reduce_mean(tf.reduce_sum(tf.math.log(p_obs + 1e-7), axis=1))
    return loss, tape.gradient(loss, model.trainable_variables)


loss, grads = train_step(x, y)
assert len(grads) == 4
assert all(g is not None and float(tf.reduce_sum(tf.abs(g))) > 0 for g in grads)
