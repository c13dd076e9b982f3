"""Function transformations: jit (tracing, caching, placement, write-back, tiering), grad and
the other derivatives, vmap, structured control flow, custom differentiation rules."""
