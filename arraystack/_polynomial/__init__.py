"""Polynomials: the power-series routines (poly1d, polyfit, roots, ...) and their construction."""
