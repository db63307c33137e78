"""Exact, deterministic, Qt-free models: one module per panel id (parameters -> result)."""
