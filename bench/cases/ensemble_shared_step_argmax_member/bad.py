# source: https://github.com/ftramer/ensemble-adv-training/issues/4
# cause: non-differentiable-op
# rule: TM201
# weights: member2/conv/kernel, member2/conv/bias, member2/out/kernel, member2/out/bias
# mode: function
# summary: one tf.function step trains each ensemble member; member2's loss scores a one-hot argmax
# lint: no (the loss reaches the step as an item of a Python list passed as an argument: the checker follows a function where it is called or given to compile, not through a list)
import numpy as np
import tensorflow as tf

tf.keras.utils.set_random_seed(0)

rng = np.random.default_rng(44)
images = rng.normal(size=(16, 8, 8, 1)).astype("float32")
labels = tf.one_hot(rng.integers(0, 4, size=(16,)), 4)


def member(name):
    return tf.keras.Sequential([tf.keras.layers.Input((8, 8, 1)),
                                tf.keras.layers.Conv2D(4, 3, activation="relu", name="conv"),
                                tf.keras.layers.Flatten(),
                                tf.keras.layers.Dense(4, name="out")], name=name)


def soft_loss(y, logits):
    return tf.reduce_mean(tf.keras.losses.categorical_crossentropy(y, logits, from_logits=True))


def hard_loss(y, logits):
    hard = tf.one_hot(tf.argmax(logits, axis=1), 4)  # expect: non-differentiable-op primary
    return tf.reduce_mean(tf.keras.losses.categorical_crossentropy(y, hard))


ensemble = [member("member0"), member("member1"), member("member2")]
optimizers = [tf.keras.optimizers.Adam(1e-3) for _ in ensemble]
for model, optimizer in zip(ensemble, optimizers, strict=True):
    # a tf.function may make variables on its first call only: the slots are made here
    optimizer.build(model.trainable_variables)
loss_functions = [soft_loss, soft_loss, hard_loss]


@tf.function
def train_step(model, optimizer, loss_fn, x, y):
    with tf.GradientTape() as tape:
        loss = loss_fn(y, model(x, training=True))
    grads = tape.gradient(loss, model.trainable_variables)
    optimizer.apply_gradients(zip(grads, model.trainable_variables, strict=False))
    return loss


for epoch in range(3):
    for model, optimizer, loss_fn in zip(ensemble, optimizers, loss_functions, strict=True):
        print(model.name, float(train_step(model, optimizer, loss_fn, images, labels)))
