"""Revisions (Alembic skips this file)."""
