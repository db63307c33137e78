"""Fonts, architecture presets and the scenario schema, installed as ``gpuviz.resources``."""
