model2 = tf.keras.Sequential([tf.keras.layers.Input((4,)), tf.keras.layers.Dense(1, name="other")])
@tf.function
def step():
    with tf.GradientTape() as tape:
        q = model(x)
        host = model2(x).numpy()
        loss = tf.reduce_sum(host) + tf.reduce_sum(q)
    return tape.gradient(loss, model.trainable_weights + model2.trainable_weights)
step()
