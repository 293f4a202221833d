"""Domain errors, split by who must act. Only the servicer maps them to gRPC status codes."""


class FactMemoryError(Exception):
    """Base class of every error the service raises on purpose."""


class InvalidInput(FactMemoryError):
    """The caller sent something wrong; retrying the same request will fail again."""


class NotFound(FactMemoryError):
    """The thing named by the caller does not exist in its (agent, entity) scope."""


class NotConfigured(FactMemoryError):
    """A dependency the call needs is not configured (for example no LLM endpoint)."""


class Unavailable(FactMemoryError):
    """A dependency failed transiently (LLM, embedder, database); the same call can be retried."""


class BadModelReply(FactMemoryError):
    """The model's reply is not the contract (not JSON, the wrong shape); nothing was applied. Not transient: the
    same prompt gets the same reply, so a retry is paid for and learns nothing."""


class BadEndpointReply(BadModelReply):
    """The LLM endpoint's body is not a chat completion (a proxy's error page, an empty or cut body); nothing was
    applied. It can pass on a retry, unlike a model's reply of the wrong shape."""


class Conflict(FactMemoryError):
    """The request conflicts with the current state (for example a candidate already resolved)."""


class Refused(FactMemoryError):
    """A dependency refused this request as it stands (an LLM 4xx such as context_length_exceeded): retrying it
    unchanged fails again; the operator's configuration or the request must change."""


class Aborted(FactMemoryError):
    """The call lost a race it cannot settle on its own (another call changed what it was based on); the caller
    starts over from the step named in the message."""
