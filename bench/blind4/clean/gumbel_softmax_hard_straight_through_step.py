# source: https://github.com/keras-team/keras/issues/10938
# summary: a categorical bottleneck samples a hard one-hot code with argmax of Gumbel-perturbed logits and passes it on as soft + tf.stop_gradient(hard - soft); the argmax and one-hot sit inside stop_gradient and the soft sample carries the gradient, so the encoder and decoder both train
import numpy as np
import tensorflow as tf

tf.keras.utils.set_random_seed(0)

rng = np.random.default_rng(10938)
x = rng.normal(size=(32, 6)).astype("float32")

encoder = tf.keras.Sequential([tf.keras.Input((6,)),
                               tf.keras.layers.Dense(8, activation="relu", name="gs_hidden"),
                               tf.keras.layers.Dense(4, name="gs_logits")], name="gs_encoder")
decoder = tf.keras.Sequential([tf.keras.Input((4,)),
                               tf.keras.layers.Dense(6, name="gs_recon")], name="gs_decoder")
sources = encoder.trainable_variables + decoder.trainable_variables
optimizer = tf.keras.optimizers.Adam(1e-2)


@tf.function
def train_step(batch):
    with tf.GradientTape() as tape:
        logits = encoder(batch, training=True)
        uniform = tf.random.uniform(tf.shape(logits), 1e-6, 1.0 - 1e-6, seed=10938)
        gumbel = -tf.math.log(-tf.math.log(uniform))
        soft = tf.nn.softmax((logits + gumbel) / 0.5)
        hard = tf.one_hot(tf.argmax(soft, axis=-1), 4)
        code = soft + tf.stop_gradient(hard - soft)
        loss = tf.reduce_mean(tf.square(decoder(code, training=True) - batch))
    grads = tape.gradient(loss, sources)
    optimizer.apply_gradients(zip(grads, sources))
    return grads


grads = train_step(x)
assert len(grads) == 6
assert all(g is not None and float(tf.reduce_max(tf.abs(g))) > 0 for g in grads)
