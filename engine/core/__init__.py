"""What every game shares: the engine protocol, errors, grids."""
