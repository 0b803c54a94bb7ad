# summary: the variable is updated in place with assign_sub
import tensorflow as tf

tf.keras.utils.set_random_seed(0)

x = tf.Variable(2.0, name="x")
for epoch in range(2):
    with tf.GradientTape() as tape:
        y = (x - 5.0) ** 2
    g = tape.gradient(y, x)
    print(type(x).__name__, g)
    if g is None:
        raise ValueError(f"epoch {epoch}: no gradient")
    x.assign_sub(0.1 * g)
assert isinstance(x, tf.Variable)
