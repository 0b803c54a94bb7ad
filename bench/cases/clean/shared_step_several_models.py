# summary: one tf.function step shared by three models, then a loop over them at one gradient line
import numpy as np
import tensorflow as tf

tf.keras.utils.set_random_seed(0)

rng = np.random.default_rng(45)
features = rng.normal(size=(32, 6)).astype("float32")
targets = [tf.one_hot(rng.integers(0, 3, size=(32,)), 3) for _ in range(3)]


def task_model(name):
    return tf.keras.Sequential([tf.keras.layers.Input((6,)),
                                tf.keras.layers.Dense(8, activation="relu", name="hidden"),
                                tf.keras.layers.Dense(3, name="head")], name=name)


models = [task_model(f"task{i}") for i in range(3)]
optimizers = [tf.keras.optimizers.Adam(1e-2) for _ in models]
for model, optimizer in zip(models, optimizers, strict=True):
    # a tf.function may make variables on its first call only: the slots are made here
    optimizer.build(model.trainable_variables)


@tf.function
def train_step(model, optimizer, x, y):
    with tf.GradientTape() as tape:
        logits = model(x, training=True)
        loss = tf.reduce_mean(tf.keras.losses.categorical_crossentropy(y, logits,
                                                                       from_logits=True))
    grads = tape.gradient(loss, model.trainable_variables)
    optimizer.apply_gradients(zip(grads, model.trainable_variables, strict=True))
    accuracy = tf.reduce_mean(tf.cast(tf.equal(tf.argmax(logits, 1), tf.argmax(y, 1)),
                                      tf.float32))
    return loss, accuracy


before = [[v.numpy().copy() for v in m.trainable_variables] for m in models]
for epoch in range(3):
    for model, optimizer, y in zip(models, optimizers, targets, strict=True):
        loss, accuracy = train_step(model, optimizer, features, y)
    with tf.GradientTape(persistent=True) as tape:
        losses = [tf.reduce_mean(tf.keras.losses.categorical_crossentropy(
            y, m(features, training=True), from_logits=True)) for m, y in zip(models, targets)]
    for model, optimizer, loss in zip(models, optimizers, losses, strict=True):
        grads = tape.gradient(loss, model.trainable_variables)
        assert all(g is not None for g in grads)
        optimizer.apply_gradients(zip(grads, model.trainable_variables, strict=True))
    del tape
for model, old in zip(models, before, strict=True):
    assert all(np.any(v.numpy() != o) for v, o in zip(model.trainable_variables, old, strict=True))
