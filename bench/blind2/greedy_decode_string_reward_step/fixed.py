# summary: the string reward weights the log-probability of the decoded tokens (REINFORCE with a mean baseline), so the reward stays a plain number and the decoder gets gradients
import numpy as np
import tensorflow as tf

tf.keras.utils.set_random_seed(0)

rng = np.random.default_rng(7)
prompts = rng.normal(size=(32, 6)).astype("float32")
vocab = tf.constant(["a", "b", "c", "d"])
steps = 5
decoder = tf.keras.Sequential([tf.keras.Input((6,)),
                               tf.keras.layers.Dense(16, activation="tanh", name="embed"),
                               tf.keras.layers.Dense(steps * 4, name="vocab"),
                               tf.keras.layers.Reshape((steps, 4))], name="decoder")


@tf.function
def train_step(batch):
    with tf.GradientTape() as tape:
        logits = decoder(batch, training=True)
        tokens = tf.squeeze(tf.random.categorical(tf.reshape(logits, [-1, 4]), 1, seed=7), -1)
        tokens = tf.reshape(tokens, [-1, steps])
        text = tf.strings.reduce_join(tf.gather(vocab, tokens), axis=-1)
        reward = tf.cast(tf.strings.regex_full_match(text, "ab.*"), tf.float32)
        reward += tf.cast(tf.strings.length(tf.strings.regex_replace(text, "[^c]", "")), tf.float32) / steps
        log_probs = tf.reduce_sum(tf.gather(tf.nn.log_softmax(logits), tokens, batch_dims=2), axis=-1)
        loss = -tf.reduce_mean((reward - tf.reduce_mean(reward)) * log_probs)
    return tape.gradient(loss, decoder.trainable_variables)


grads = train_step(prompts)
assert len(grads) == 4
assert all(g is not None and float(tf.reduce_max(tf.abs(g))) > 0 for g in grads)
