model2 = tf.keras.Sequential([tf.keras.layers.Input((4,)), tf.keras.layers.Dense(1, name="other")])
def loss_of(p, q):
    host = p.numpy()
    return tf.reduce_sum(host) + tf.reduce_sum(q)
@tf.function
def step():
    with tf.GradientTape() as tape:
        loss = loss_of(model2(x), model(x))
    return tape.gradient(loss, model.trainable_weights + model2.trainable_weights)
step()
