"""Pure game rules: no I/O, no clock, no randomness except from a game's stored seed."""
