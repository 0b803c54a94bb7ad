# source: https://github.com/keras-team/keras-io/pull/242
# summary: a trained teacher makes soft labels inside dataset.map (off every tape, on purpose); the student is trained on them and only its own weights are the sources
import numpy as np
import tensorflow as tf

tf.keras.utils.set_random_seed(0)

rng = np.random.default_rng(242)
x = rng.normal(size=(64, 6)).astype("float32")
teacher = tf.keras.Sequential([tf.keras.Input((6,)),
                               tf.keras.layers.Dense(3, name="t_logits")], name="teacher")
student = tf.keras.Sequential([tf.keras.Input((6,)),
                               tf.keras.layers.Dense(8, activation="relu", name="s_hidden"),
                               tf.keras.layers.Dense(3, name="s_logits")], name="student")
dataset = tf.data.Dataset.from_tensor_slices(x).batch(16)
dataset = dataset.map(lambda batch: (batch, tf.nn.softmax(teacher(batch) / 2.0)))
optimizer = tf.keras.optimizers.Adam(1e-2)

for features, soft in dataset:
    with tf.GradientTape() as tape:
        logits = student(features, training=True)
        loss = tf.reduce_mean(tf.keras.losses.categorical_crossentropy(soft, logits / 2.0,
                                                                       from_logits=True))
    grads = tape.gradient(loss, student.trainable_variables)
    optimizer.apply_gradients(zip(grads, student.trainable_variables))
assert len(grads) == 4
assert all(g is not None and float(tf.reduce_max(tf.abs(g))) > 0 for g in grads)
