"""The scenarios that ship with gpuviz, installed as the package ``gpuviz.scenarios``."""
