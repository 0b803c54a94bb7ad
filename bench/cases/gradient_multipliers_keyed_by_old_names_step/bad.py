# source: https://github.com/tensorflow/tensorflow/issues/22295
# cause: zero-at-runtime
# weights: tagger/tag_hidden/kernel, tagger/tag_hidden/bias, tagger/tag_out/kernel, tagger/tag_out/bias
# mode: function
# summary: per-variable gradient multipliers are kept in a dict keyed by TF1-style variable names ("tag_hidden/kernel:0") and looked up with a default of 0.0; Keras 3 variables are named by their path, no key ever matches, every gradient is multiplied by 0.0 before apply_gradients and no weight changes
# lint: no (which keys match is only known at run time)
import numpy as np
import tensorflow as tf

tf.keras.utils.set_random_seed(0)

rng = np.random.default_rng(22295)
x = rng.normal(size=(48, 5)).astype("float32")
y = (x @ rng.normal(size=(5, 3)) > 0).astype("float32")
multipliers = {"tag_hidden/kernel:0": 0.1, "tag_hidden/bias:0": 0.1,
               "tag_out/kernel:0": 1.0, "tag_out/bias:0": 1.0}

model = tf.keras.Sequential([tf.keras.Input((5,)),
                             tf.keras.layers.Dense(8, activation="tanh", name="tag_hidden"),
                             tf.keras.layers.Dense(3, name="tag_out")], name="tagger")
optimizer = tf.keras.optimizers.SGD(0.1)
bce = tf.keras.losses.BinaryCrossentropy(from_logits=True)


@tf.function
def train_step(features, labels):
    with tf.GradientTape() as tape:
        loss = bce(labels, model(features, training=True))
    grads = tape.gradient(loss, model.trainable_variables)
    grads = [g * multipliers.get(v.path, 0.0)  # expect: zero-at-runtime primary
             for g, v in zip(grads, model.trainable_variables)]
    optimizer.apply_gradients(zip(grads, model.trainable_variables))
    return loss


before = [v.numpy().copy() for v in model.trainable_variables]
for _ in range(3):
    train_step(x, y)
print("changed:", [bool(np.any(b != v.numpy())) for b, v in zip(before, model.trainable_variables)])
