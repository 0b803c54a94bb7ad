# source: https://github.com/labmlai/annotated_deep_learning_paper_implementations/issues/95
# cause: integer-dtype|non-differentiable-op
# weights: router/kernel, router/bias
# mode: function
# summary: a top-1 mixture of experts picks each row's expert with argmax of the router logits and gathers that expert's output without multiplying it by the router probability; the router gets None while the experts train
# lint: yes
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
    choice = tf.argmax(router(inputs), axis=-1)  # expect: integer-dtype|non-differentiable-op primary
    outputs = tf.stack([e(inputs) for e in experts], axis=1)
    return tf.gather(outputs, choice, batch_dims=1)


@tf.function
def train_step(features, targets):
    with tf.GradientTape() as tape:
        loss = tf.reduce_mean(tf.square(switch(features) - targets))
    grads = tape.gradient(loss, variables)
    optimizer.apply_gradients(zip(grads, variables))
    return grads


grads = train_step(x, y)
print({v.path: g is not None for v, g in zip(variables, grads)})
