# source: https://github.com/cdipaolo/goml/issues/19
# cause: zero-at-runtime
# weights: seq_model/step_hidden/kernel, seq_model/step_hidden/bias, seq_model/step_prob/kernel, seq_model/step_prob/bias
# mode: function
# summary: a sequence model maximises the joint likelihood of 200 per-step Bernoulli outcomes written as 1 - tf.reduce_prod of the step probabilities; the product of 200 numbers near 0.5 underflows to exactly 0 in float32, so the loss is constant 1 and every gradient is exactly zero
# lint: no (underflow is a value: the product is fine for short sequences)
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
        likelihood = tf.reduce_prod(p_obs, axis=1)  # expect: zero-at-runtime primary
        loss = tf.reduce_mean(1.0 - likelihood)
    return loss, tape.gradient(loss, model.trainable_variables)


loss, grads = train_step(x, y)
print("loss:", float(loss), [float(tf.reduce_sum(tf.abs(g))) for g in grads])
