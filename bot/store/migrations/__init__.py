"""Alembic migrations; a package so that setuptools ships env.py and versions/ inside the wheel."""
