"""gpuviz: exact, steppable pictures of GPU execution and memory behaviour."""
__version__ = "0.1.0"
