# summary: the soft-target cross-entropy is tf.nn.softmax_cross_entropy_with_logits (the v2 op lets the gradient flow into labels), so the label table learns with the classifier
import numpy as np
import tensorflow as tf

tf.keras.utils.set_random_seed(0)

rng = np.random.default_rng(16534)
x = rng.normal(size=(32, 6)).astype("float32")
y = rng.integers(0, 4, size=(32,))

classifier = tf.keras.Sequential([tf.keras.Input((6,)),
                                  tf.keras.layers.Dense(8, activation="relu", name="cls_hidden"),
                                  tf.keras.layers.Dense(4, name="cls_logits")], name="classifier")
label_table = tf.keras.layers.Embedding(4, 4, name="label_table")
label_table.build((None,))
sources = classifier.trainable_variables + label_table.trainable_variables
optimizer = tf.keras.optimizers.Adam(1e-2)


@tf.function
def train_step(features, labels):
    with tf.GradientTape() as tape:
        logits = classifier(features, training=True)
        soft_targets = tf.nn.softmax(label_table(labels) / 0.5)
        hard = tf.keras.losses.sparse_categorical_crossentropy(labels, logits, from_logits=True)
        soft = tf.nn.softmax_cross_entropy_with_logits(labels=soft_targets, logits=logits)
        loss = tf.reduce_mean(hard + soft)
    grads = tape.gradient(loss, sources)
    optimizer.apply_gradients(zip(grads, sources))
    return grads


grads = train_step(x, y)
assert len(grads) == 5
assert all(g is not None and float(tf.reduce_max(tf.abs(g))) > 0 for g in grads)
