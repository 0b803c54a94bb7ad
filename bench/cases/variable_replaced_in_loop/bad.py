# source: https://www.tensorflow.org/guide/autodiff?hl=en
# cause: not-watched
# rule: TM102
# weights: -
# mode: eager
# summary: the update `x = x - lr * g` replaces the tf.Variable by a tensor: step 2 gets None
# lint: yes
import tensorflow as tf

tf.keras.utils.set_random_seed(0)

x = tf.Variable(2.0, name="x")
for epoch in range(2):
    with tf.GradientTape() as tape:  # accept: not-watched
        y = (x - 5.0) ** 2
    g = tape.gradient(y, x)
    print(type(x).__name__, g)
    if g is None:
        raise ValueError(f"epoch {epoch}: no gradient")
    x = x - 0.1 * g  # expect: not-watched primary
