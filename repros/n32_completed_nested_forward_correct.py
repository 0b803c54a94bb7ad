@tf.function
def forward(inp):
    return model(inp)
@tf.function
def step():
    with tf.GradientTape() as tape:
        pred = forward(x)
        loss = tf.reduce_sum(pred)
    return tape.gradient(loss, model.trainable_weights)
g = step()
assert all(v is not None for v in g)
