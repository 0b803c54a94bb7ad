"""Tracing a TensorFlow run: the only package that imports TensorFlow.

Its modules import it; this ``__init__`` imports nothing, so ``tracing.lazy`` (the doors' way
in) stays TF-free.
"""
