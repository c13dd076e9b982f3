"""Array manipulation routines: shapes, joining, splitting, rearranging, padding, editing."""
