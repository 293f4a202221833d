"""The review page: an HTTP listener for people, beside the gRPC server, calling the same use-cases."""
