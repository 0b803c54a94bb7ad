# source: https://github.com/tensorflow/tensorflow/issues/16534
# cause: stop-gradient
# weights: label_table/embeddings
# mode: function
# summary: a label-embedding classifier learns a soft target distribution per class (softmax of a row of label_table) jointly with the classifier, but its cross-entropy is tf.compat.v1.nn.softmax_cross_entropy_with_logits, which wraps labels in stop_gradient; the classifier trains while the label table gets None
# lint: yes
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
        soft = tf.compat.v1.nn.softmax_cross_entropy_with_logits(  # expect: stop-gradient primary
            labels=soft_targets, logits=logits)
        loss = tf.reduce_mean(hard + soft)
    grads = tape.gradient(loss, sources)
    optimizer.apply_gradients(zip(grads, sources))
    return grads


grads = train_step(x, y)
print("grads are None:", [g is None for g in grads])
