"""Protocol edges: gRPC (api/grpc: the service, conversion, interceptors, health) and HTTP (api/http: the review
page); the audit and access logs, token guessing limits and log set-up they share."""
