# source: https://github.com/laihuiyuan/pre-trained-formality-transfer/issues/7
# cause: non-differentiable-op|integer-dtype
# weights: decoder/embed/kernel, decoder/embed/bias, decoder/vocab/kernel, decoder/vocab/bias
# mode: function
# summary: a sequence reward is computed on strings (greedy argmax tokens joined with tf.strings and matched against a pattern) and its negative is used directly as the loss; nothing on that path has a gradient, so every decoder weight gets None
# lint: yes
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
        tokens = tf.argmax(logits, axis=-1)
        text = tf.strings.reduce_join(tf.gather(vocab, tokens), axis=-1)
        reward = tf.cast(tf.strings.regex_full_match(text, "ab.*"), tf.float32)
        reward += tf.cast(tf.strings.length(tf.strings.regex_replace(text, "[^c]", "")), tf.float32) / steps
        loss = -tf.reduce_mean(reward)  # expect: non-differentiable-op|integer-dtype primary
    return tape.gradient(loss, decoder.trainable_variables)


print("grads None:", [g is None for g in train_step(prompts)])
