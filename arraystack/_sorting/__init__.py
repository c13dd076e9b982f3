"""Sorting, searching, counting and set routines."""
