#!/usr/bin/env bash
# Regenerates server/factmemory/v1 from proto/ with the pinned grpcio-tools.
set -euo pipefail
cd "$(dirname "$0")/.."
PY="${PY:-.venv/bin/python}"
rm -f server/factmemory/v1/factmemory_pb2*.py server/factmemory/v1/factmemory_pb2*.pyi
"$PY" -m grpc_tools.protoc -Iproto --python_out=server --pyi_out=server --grpc_python_out=server \
  proto/factmemory/v1/factmemory.proto
