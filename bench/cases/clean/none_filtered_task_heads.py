# summary: heads trained in turn from one gradient call over every weight; the None gradients of the other heads are replaced by zeros before apply_gradients (the hand-written unconnected_gradients=ZERO)
import tensorflow as tf

tf.keras.utils.set_random_seed(51)

trunk = tf.keras.layers.Dense(16, activation="relu", name="trunk")
heads = {"a": tf.keras.layers.Dense(2, name="head_a"), "b": tf.keras.layers.Dense(1, name="head_b")}
x = tf.random.normal((8, 6))
for head in heads.values():
    head(trunk(x))
variables = (trunk.trainable_variables + heads["a"].trainable_variables
             + heads["b"].trainable_variables)
opt = tf.keras.optimizers.SGD(1e-2)
labels = tf.random.uniform((8,), 0, 2, tf.int32)
values = tf.random.normal((8, 1))

for step in range(2):
    task = "a" if step % 2 == 0 else "b"
    with tf.GradientTape() as tape:
        out = heads[task](trunk(x))
        if task == "a":
            loss = tf.reduce_mean(tf.nn.sparse_softmax_cross_entropy_with_logits(labels, out))
        else:
            loss = tf.reduce_mean(tf.square(out - values))
    grads = tape.gradient(loss, variables)
    grads = [tf.zeros_like(v) if g is None else g for g, v in zip(grads, variables)]
    opt.apply_gradients(zip(grads, variables))
    print(step, task, round(float(loss), 4))
