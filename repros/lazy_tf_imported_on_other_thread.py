import threading
def bg():
    import tensorflow
t = threading.Thread(target=bg); t.start(); t.join()
import tensorflow as tf
w = tf.Variable(2.0)
with tf.GradientTape() as tape:
    loss = tf.constant(w.numpy()) * 3.0
OUT_g = tape.gradient(loss, w)
