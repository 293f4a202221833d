"""Retrieval-quality benchmark: does Provide put the facts that answer a question into its 12 lines?"""
