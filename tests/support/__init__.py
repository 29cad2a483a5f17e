"""Helpers shared by the tests (importable as `support` thanks to pytest's pythonpath)."""
