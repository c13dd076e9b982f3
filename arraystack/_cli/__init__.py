"""`python -m arraystack`: the commands (info, bench, cache) and the demo."""
