"""Provide's read path: the candidate statements, the in-process vector copy, the fact memo and the forget watch
that keeps them exact."""
