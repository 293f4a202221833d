"""Protocol edges: gRPC (and, later, HTTP)."""
