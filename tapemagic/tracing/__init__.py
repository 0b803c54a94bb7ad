"""Tracing a TensorFlow run: the only package that imports TensorFlow.

Its modules import it; this ``__init__`` imports nothing, so ``tracing.frames`` stays TF-free.
"""
