model2 = tf.keras.Sequential([tf.keras.layers.Input((4,)), tf.keras.layers.Dense(1, name="other")])
@tf.function
def inner(p, q):
    host = p.numpy()
    return tf.reduce_sum(host) + tf.reduce_sum(q)
@tf.function
def middle(a, b):
    return inner(b, a)
@tf.function
def step():
    with tf.GradientTape() as tape:
        loss = middle(model(x), model2(x))
    return tape.gradient(loss, model.trainable_weights + model2.trainable_weights)
step()
