#!/usr/bin/env bash
# Regenerates the Python code of proto/ with the pinned grpcio-tools: the server's server/factmemory/v1 and the
# client distribution's clients/python/src/factmemory_client/v1.
set -euo pipefail
cd "$(dirname "$0")/.."
PY="${PY:-.venv/bin/python}"
PROTO=proto/factmemory/v1/factmemory.proto

rm -f server/factmemory/v1/factmemory_pb2*.py server/factmemory/v1/factmemory_pb2*.pyi
"$PY" -m grpc_tools.protoc -Iproto --python_out=server --pyi_out=server --grpc_python_out=server "$PROTO"

# The client's modules are factmemory_client.v1.*, not factmemory.v1.* (the server's), so that both
# distributions can be installed side by side: generate into a scratch directory, then rewrite the import
# path and the module name the classes report. The proto file name (and so the descriptor) stays the same.
CLIENT=clients/python/src/factmemory_client/v1
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT
"$PY" -m grpc_tools.protoc -Iproto --python_out="$scratch" --pyi_out="$scratch" --grpc_python_out="$scratch" "$PROTO"
rm -f "$CLIENT"/factmemory_pb2*.py "$CLIENT"/factmemory_pb2*.pyi
for file in factmemory_pb2.py factmemory_pb2.pyi factmemory_pb2_grpc.py; do
  sed -e 's/^from factmemory\.v1 import /from factmemory_client.v1 import /' \
      -e "s/'factmemory\.v1\.factmemory_pb2'/'factmemory_client.v1.factmemory_pb2'/" \
      "$scratch/factmemory/v1/$file" > "$CLIENT/$file"
done
if grep -n -E "^(from|import) factmemory[. ]|'factmemory\.v1\.factmemory_pb2'" "$CLIENT"/factmemory_pb2*; then
  echo "gen_python.sh: the client's generated code still refers to factmemory.v1 (the rewrite missed)" >&2
  exit 1
fi
