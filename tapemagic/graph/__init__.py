"""TF-free analysis of a trace: provenance graph, cut analysis, the collapsed picture."""
