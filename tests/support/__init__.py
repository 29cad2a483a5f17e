"""Helpers shared by the tests (importable as `tests.support`: pytest puts the repository root on sys.path)."""
