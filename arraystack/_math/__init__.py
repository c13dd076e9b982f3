"""Mathematical functions: ufuncs and how they are called, elementwise functions, reductions,
cumulative functions, special functions, comparisons and window functions."""
