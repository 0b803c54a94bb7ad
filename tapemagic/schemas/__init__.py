"""JSON Schemas shipped with tapemagic (data only).

TF-free. ``report.schema.json`` describes the v1 report payload and ``catalog.schema.json`` the
rule catalog; load them with :mod:`importlib.resources` (see ``tapemagic.report.validate`` and
``tapemagic.rules``).
"""
