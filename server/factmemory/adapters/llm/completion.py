"""Reads an OpenAI-compatible chat completion body without trusting it: any shape but the contract's is an
endpoint fault (BadEndpointReply: UNAVAILABLE, nothing applied), never a crash of ours."""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict, Field, StrictInt, ValidationError

from factmemory.domain.errors import BadEndpointReply, BadModelReply
from factmemory.domain.models import Usage
from factmemory.domain.reply import loads

# Token counts are stored as PostgreSQL integers and sent as protobuf int32.
MAX_TOKENS = 2**31 - 1


class _Lenient(BaseModel):
    model_config = ConfigDict(extra="ignore")


class _Message(_Lenient):
    content: str | None = None


class _Choice(_Lenient):
    message: _Message


class _Usage(_Lenient):
    prompt_tokens: StrictInt = Field(default=0, ge=0, le=MAX_TOKENS)
    completion_tokens: StrictInt = Field(default=0, ge=0, le=MAX_TOKENS)


class _Completion(_Lenient):
    choices: list[_Choice]
    usage: _Usage | None = None


def read_completion(body: bytes) -> tuple[str, Usage]:
    """The first choice's content and the token usage of a chat completion body."""
    try:
        data = loads(body, "the LLM endpoint's reply")
    except BadModelReply as exc:
        raise BadEndpointReply(str(exc)) from None
    if not isinstance(data, dict):
        raise BadEndpointReply(f"the LLM endpoint's reply is not a chat completion (a JSON {type(data).__name__})")
    try:
        completion = _Completion.model_validate(data)
    except (ValidationError, RecursionError) as exc:
        where = ""
        if isinstance(exc, ValidationError):
            first = exc.errors()[0]
            where = " at " + (".".join(str(p) for p in first["loc"]) or "(root)") + f": {first['msg']}"
        raise BadEndpointReply(f"the LLM endpoint's reply is not a chat completion{where}") from None
    if not completion.choices or completion.choices[0].message.content is None:
        raise BadEndpointReply("the model returned no content")
    usage = completion.usage or _Usage()
    return completion.choices[0].message.content, Usage(
        llm_calls=1, prompt_tokens=usage.prompt_tokens, completion_tokens=usage.completion_tokens
    )
