# summary: the chosen expert's output is scaled by its router probability (Switch Transformer), so the router trains too
import numpy as np
import tensorflow as tf

tf.keras.utils.set_random_seed(0)

rng = np.random.default_rng(95)
x = tf.constant(rng.normal(size=(64, 4)).astype("float32"))
y = tf.constant(np.where(x.numpy()[:, :1] > 0, x.numpy()[:, 1:2], -x.numpy()[:, 2:3]))
router = tf.keras.layers.Dense(2, name="router")
experts = [tf.keras.layers.Dense(1, name=f"expert{i}") for i in range(2)]
router.build((None, 4))
for expert in experts:
    expert.build((None, 4))
variables = router.trainable_variables + [v for e in experts for v in e.trainable_variables]
optimizer = tf.keras.optimizers.Adam(1e-2)


def switch(inputs):
    probs = tf.nn.softmax(router(inputs))
    choice = tf.argmax(probs, axis=-1)
    outputs = tf.stack([e(inputs) for e in experts], axis=1)
    gate = tf.gather(probs, choice, batch_dims=1)[:, None]
    return gate * tf.gather(outputs, choice, batch_dims=1)


@tf.function
def train_step(features, targets):
    with tf.GradientTape() as tape:
        loss = tf.reduce_mean(tf.square(switch(features) - targets))
    grads = tape.gradient(loss, variables)
    optimizer.apply_gradients(zip(grads, variables))
    return grads


grads = train_step(x, y)
assert len(grads) == 6
assert all(g is not None and float(tf.reduce_max(tf.abs(g))) > 0 for g in grads)
