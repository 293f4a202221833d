"""gRPC: servicer, protobuf conversion, interceptors."""
