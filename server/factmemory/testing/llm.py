"""A scripted OpenAI-compatible HTTP server for tests and the benchmarks: the real `openai` client talks to it.

Replies are chosen by the text inside the prompt's <current_message> block. Every request is recorded.
Run standalone (used by the TypeScript tests):
    python -m factmemory.testing.llm --port 0 --script script.json   (or tests/support/llm_stub.py)
prints `llm stub listening on http://127.0.0.1:<port>/v1` once ready.
Script file: {"replies": [{"match": "<substring>", "content": {...}}], "default": {...}, "chat": [...]}.
An agent's own response call (elizaOS's message handler: no <current_message> block, the person's message under
"# Received Message") is answered by the "chat" rules, matched against that message: the agent's reply as XML text.
Speaks chat completions (/v1/chat/completions), the Responses API (/v1/responses, which the Vercel AI SDK behind
@elizaos/plugin-openai uses) and embeddings (/v1/embeddings).
"""

from __future__ import annotations

import argparse
import base64
import json
import re
import struct
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

from factmemory.domain.prompts import CURRENT_MESSAGE, CURRENT_MESSAGES, read_block, read_fact_lines, read_messages
from factmemory.testing.wire import as_chat as _as_chat
from factmemory.testing.wire import chat_completion as _chat_completion
from factmemory.testing.wire import responses_reply as _responses_reply

_RECEIVED = re.compile(r"# Received Message\n[^\n]*?: ([^\n]*)")


@dataclass
class Fault:
    """A scripted failure: an HTTP status with a body, or a broken transport."""

    status: int = 500
    body: str = '{"error": {"message": "scripted failure", "type": "server_error"}}'
    headers: dict[str, str] = field(default_factory=dict)
    truncate: bool = False  # send a Content-Length larger than the body, then close
    delay_s: float = 0.0


@dataclass
class Reply:
    """What the model answers: a JSON object (serialized as the message content) or raw text."""

    content: dict[str, Any] | str
    delay_s: float = 0.0
    prompt_tokens: int = 0  # 0 = estimate from the prompt
    completion_tokens: int = 0


Rule = Reply | Fault | Callable[[dict[str, Any]], "Reply | Fault"]


def _user_text(body: dict[str, Any]) -> str:
    return "\n".join(m["content"] for m in body.get("messages", []) if isinstance(m.get("content"), str))


def current_message(body: dict[str, Any]) -> str:
    """The text inside the <current_message> block of a chat request; for a batch the <current_messages> block
    (every message, so a rule matches a batch holding its text); "" if none."""
    text = _user_text(body)
    found = read_block(text, CURRENT_MESSAGE)
    if found is None:
        found = read_block(text, CURRENT_MESSAGES)
    return found or ""


def received_message(body: dict[str, Any]) -> str:
    """The person's message an elizaOS response call answers (its "# Received Message" block); "" if none."""
    found = _RECEIVED.search(_user_text(body))
    return found.group(1).strip() if found else ""


def batch_messages(body: dict[str, Any]) -> list[str]:
    """The texts of the messages of a request, M1 first: a batch's, or the one current message."""
    return read_messages(_user_text(body))


def facts_shown(body: dict[str, Any]) -> list[tuple[str, str]]:
    """(handle, claim) of every fact line the request's prompt shows the model, in the prompt's order."""
    prompt = "\n".join(str(m.get("content", "")) for m in body.get("messages", []))
    return read_fact_lines(prompt)


def per_message(ops_for: Callable[[int, str], list[dict[str, Any]]], **rest: Any) -> Callable[[dict[str, Any]], Reply]:
    """A rule answering every message of a request (one, or a batch) with ops_for(index, text); in a batch each op
    names its message (M1, ...), as the prompt asks. `rest`: the reply's other items (relationships, ...)."""

    def answer(body: dict[str, Any]) -> Reply:
        texts = batch_messages(body)
        batched = read_block(_user_text(body), CURRENT_MESSAGES) is not None
        ops = [
            op | ({"message": f"M{i + 1}"} if batched else {})
            for i, text in enumerate(texts)
            for op in ops_for(i, text)
        ]
        return Reply({"facts": {"ops": ops}} | rest)

    return answer


class ScriptedLLM:
    """Thread-based HTTP server; use as a context manager or start()/stop()."""

    def __init__(self, port: int = 0) -> None:
        self.requests: list[dict[str, Any]] = []
        self.embedding_requests: list[dict[str, Any]] = []
        self.embedding_faults: list[Fault] = []  # answered in turn to the next embeddings requests
        self._rules: list[tuple[str, list[Rule]]] = []
        self._chat_rules: list[tuple[str, list[Rule]]] = []  # an agent's response calls (received_message)
        self.default: Rule = Reply({"facts": {"ops": []}})
        self.reject_json_schema = False
        self.reject_json_object = False
        self.latency_s = 0.0
        self.embedding_dims = 8  # when a request names no dimensions
        self._lock = threading.Lock()
        self._server = ThreadingHTTPServer(("127.0.0.1", port), self._handler())
        self._server.daemon_threads = True
        self._thread = threading.Thread(target=self._server.serve_forever, daemon=True)

    @property
    def port(self) -> int:
        return int(self._server.server_address[1])

    @property
    def base_url(self) -> str:
        return f"http://127.0.0.1:{self.port}/v1"

    def start(self) -> ScriptedLLM:
        self._thread.start()
        return self

    def stop(self) -> None:
        self._server.shutdown()
        self._server.server_close()

    def __enter__(self) -> ScriptedLLM:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.stop()

    def on(self, match: str, *rules: Rule) -> None:
        """Answer requests whose current message contains `match`; several rules are used in turn."""
        with self._lock:
            self._rules.insert(0, (match, list(rules)))

    def reset(self) -> None:
        with self._lock:
            self._rules.clear()
            self._chat_rules.clear()
            self.requests.clear()
            self.embedding_requests.clear()
            self.embedding_faults.clear()
            self.default = Reply({"facts": {"ops": []}})
            self.reject_json_schema = False
            self.reject_json_object = False
            self.latency_s = 0.0

    def calls_for(self, match: str) -> list[dict[str, Any]]:
        return [r for r in self.requests if match in current_message(r)]

    def on_chat(self, match: str, *rules: Rule) -> None:
        """Answer an agent's response calls whose received message contains `match`; several rules in turn."""
        with self._lock:
            self._chat_rules.insert(0, (match, list(rules)))

    def _choose(self, body: dict[str, Any]) -> Rule:
        text = current_message(body)
        said = "" if text else received_message(body)
        with self._lock:
            for match, rules in self._chat_rules if said else ():
                if match in said:
                    return rules.pop(0) if len(rules) > 1 else rules[0]
            for match, rules in self._rules:
                if match in text:
                    return rules.pop(0) if len(rules) > 1 else rules[0]
            return self.default

    def _answer(self, body: dict[str, Any]) -> tuple[int, dict[str, str], bytes, bool, float]:
        return self._shaped(body, _chat_completion)

    def _answer_responses(self, body: dict[str, Any]) -> tuple[int, dict[str, str], bytes, bool, float]:
        return self._shaped(body, _responses_reply)

    def _shaped(
        self, body: dict[str, Any], shape: Callable[[dict[str, Any], str, int, int], dict[str, Any]]
    ) -> tuple[int, dict[str, str], bytes, bool, float]:
        fmt = (body.get("response_format") or {}).get("type")
        if (fmt == "json_schema" and self.reject_json_schema) or (fmt == "json_object" and self.reject_json_object):
            error = {"error": {"message": f"response_format {fmt} is not supported", "type": "invalid_request_error"}}
            return 400, {}, json.dumps(error).encode(), False, 0.0
        rule = self._choose(body)
        if callable(rule):
            rule = rule(body)
        if isinstance(rule, Fault):
            return rule.status, rule.headers, rule.body.encode(), rule.truncate, rule.delay_s
        content = rule.content if isinstance(rule.content, str) else json.dumps(rule.content)
        prompt_chars = sum(len(str(m.get("content", ""))) for m in body.get("messages", []))
        prompt_tokens = rule.prompt_tokens or prompt_chars // 4
        completion_tokens = rule.completion_tokens or len(content) // 4
        reply = shape(body, content, prompt_tokens, completion_tokens)
        return 200, {}, json.dumps(reply).encode(), False, rule.delay_s

    def _vectors(self, texts: list[str], dims: int) -> list[list[float]]:
        """The embedding of each text: a toy one here (subclasses answer with a real engine)."""
        return [toy_embedding(t, dims) for t in texts]

    def _embeddings(self, body: dict[str, Any]) -> bytes:
        inputs = body.get("input")
        texts = [inputs] if isinstance(inputs, str) else [str(t) for t in inputs or []]
        vectors = self._vectors(texts, int(body.get("dimensions") or self.embedding_dims))
        encode = _base64_vector if body.get("encoding_format") == "base64" else list  # as the OpenAI API does
        data = [{"object": "embedding", "index": i, "embedding": encode(v)} for i, v in enumerate(vectors)]
        return json.dumps(
            {
                "object": "list",
                "data": data,
                "model": body.get("model", "stub"),
                "usage": {"prompt_tokens": 1, "total_tokens": 1},
            }
        ).encode()

    def _handler(self) -> type[BaseHTTPRequestHandler]:
        stub = self

        class Handler(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"
            # Headers and body are written separately: without TCP_NODELAY, Nagle's algorithm and the client's
            # delayed ACK hold the body back ~40 ms on every call, which every latency figure would include.
            disable_nagle_algorithm = True

            def log_message(self, format: str, *args: Any) -> None:
                return

            def _send(
                self, status: int, payload: bytes, headers: dict[str, str] | None = None, truncate: bool = False
            ) -> None:
                self.send_response(status)
                self.send_header("Content-Type", "application/json")
                for key, value in (headers or {}).items():
                    self.send_header(key, value)
                self.send_header("Content-Length", str(len(payload) + (50 if truncate else 0)))
                if truncate:
                    self.send_header("Connection", "close")
                self.end_headers()
                self.wfile.write(payload)
                self.wfile.flush()
                if truncate:
                    self.close_connection = True

            def do_GET(self) -> None:
                if self.path.startswith("/_requests"):
                    with stub._lock:
                        payload = json.dumps(stub.requests).encode()
                    self._send(200, payload)
                else:
                    self._send(404, b"{}")

            def do_POST(self) -> None:
                length = int(self.headers.get("Content-Length", "0"))
                body = json.loads(self.rfile.read(length) or b"{}")
                if self.path.endswith("/embeddings"):
                    with stub._lock:
                        stub.embedding_requests.append(body)
                        fault = stub.embedding_faults.pop(0) if stub.embedding_faults else None
                    if fault is not None:
                        self._send(fault.status, fault.body.encode(), fault.headers, fault.truncate)
                    else:
                        self._send(200, stub._embeddings(body))
                    return
                responses_api = self.path.endswith("/responses")
                if responses_api:
                    body = _as_chat(body)
                with stub._lock:
                    stub.requests.append(body)
                answer = stub._answer_responses if responses_api else stub._answer
                status, headers, payload, truncate, delay = answer(body)
                if delay or stub.latency_s:
                    time.sleep(delay + stub.latency_s)
                self._send(status, payload, headers, truncate)

        return Handler


def _base64_vector(vector: list[float]) -> str:
    """An embedding as the OpenAI API sends it when asked for base64: little-endian float32 bytes."""
    return base64.b64encode(struct.pack(f"<{len(vector)}f", *vector)).decode()


def toy_embedding(text: str, dims: int) -> list[float]:
    """A deterministic bag-of-words embedding (for the openai embedder path in tests)."""
    vector = [0.0] * dims
    for word in re.findall(r"\w+", text.lower()):
        vector[sum(map(ord, word)) % dims] += 1.0
    norm = sum(v * v for v in vector) ** 0.5 or 1.0
    return [v / norm for v in vector]


SCRIPT_HELP = """\
A reply (`content`) is what the model would answer for one message: a JSON object with
  facts          {"ops": [...]}: add_durable / add_current {claim, category}, strengthen / decay {fact},
                 contradict {fact, proposed_claim}, merge {fact, duplicate}
  relationships  [{"source_entity_id", "target_entity_id", "tags"}]
  identities     [{"entity_id", "platform", "handle", "confidence"}]
  success        {"completed": true, "reason": "..."}
`fact` is the handle the prompt shows a known fact under (D1, D2 ... durable, C1 ... current, nearest first);
a script may name the fact by its claim instead ("fact_claim"): the stub puts the handle the prompt shows it under.
Example (learn a home, then a move that contradicts it; the service keeps the change for a reviewer):
  {"replies": [
    {"match": "I live in Berlin", "content": {"facts": {"ops": [
        {"op": "add_durable", "claim": "lives in Berlin", "category": "identity"}]},
      "relationships": [], "identities": [], "success": {"completed": true, "reason": "ok"}}},
    {"match": "I moved to Lisbon", "content": {"facts": {"ops": [
        {"op": "contradict", "fact_claim": "lives in Berlin", "proposed_claim": "lives in Lisbon", "reason": "moved"}]},
      "relationships": [], "identities": [], "success": {"completed": true, "reason": "ok"}}}],
   "default": {"facts": {"ops": []}, "relationships": [], "identities": [],
               "success": {"completed": true, "reason": "nothing new"}}}
Without a key or a script, `factmemory serve --demo` answers simple sentences itself."""


def with_handles(content: dict[str, Any]) -> Callable[[dict[str, Any]], Reply]:
    """A rule answering `content`, each op's `fact_claim` replaced by the handle this request's prompt shows that
    claim under (an op whose claim the prompt does not show keeps `fact` empty: the service rejects that op)."""

    def answer(body: dict[str, Any]) -> Reply:
        shown = {claim: handle for handle, claim in facts_shown(body)}
        ops = [
            {k: v for k, v in op.items() if k != "fact_claim"} | {"fact": shown.get(str(op["fact_claim"]), "")}
            if isinstance(op, dict) and "fact_claim" in op
            else op
            for op in (content.get("facts") or {}).get("ops", [])
        ]
        return Reply(content | {"facts": {**(content.get("facts") or {}), "ops": ops}})

    return answer


def _rule(content: Any, delay_s: float = 0.0) -> Rule:
    if isinstance(content, dict) and "fact_claim" in json.dumps(content.get("facts")):
        return with_handles(content)
    return Reply(content, delay_s=delay_s)


def load_script(stub: ScriptedLLM, path: str) -> None:
    with open(path, encoding="utf-8") as handle:
        script = json.load(handle)
    for reply in reversed(script.get("replies", [])):
        stub.on(reply["match"], _rule(reply["content"], float(reply.get("delay_s", 0))))
    for reply in reversed(script.get("chat", [])):
        stub.on_chat(reply["match"], Reply(reply["content"]))
    if "default" in script:
        stub.default = _rule(script["default"])
    stub.latency_s = float(script.get("latency_s", 0))


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, epilog=SCRIPT_HELP, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--port", type=int, default=0)
    parser.add_argument("--script", help="JSON script file")
    parser.add_argument("--embedding-dims", type=int, default=8, help="embedding size when a request names none")
    args = parser.parse_args()
    stub = ScriptedLLM(args.port)
    stub.embedding_dims = args.embedding_dims
    if args.script:
        load_script(stub, args.script)
    stub.start()
    print(f"llm stub listening on {stub.base_url}", flush=True)
    try:
        threading.Event().wait()
    except KeyboardInterrupt:
        stub.stop()


if __name__ == "__main__":
    main()
