"""Space Chess rules."""
