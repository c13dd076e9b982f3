"""Indexing routines: subscripts, index tricks, selection, and iteration over arrays."""
