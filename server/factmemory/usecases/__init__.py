"""Use-cases: evaluate, provide, review; they depend only on ports and domain."""
