"""Array creation routines (NumPy's reference chapter of that name)."""
