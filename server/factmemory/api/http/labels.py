"""How the review page names things: categories, people, actors in a history, the queue's count. Pure."""

from __future__ import annotations


def category_label(category: str) -> str:
    """A category as words on the page: 'current_state' -> 'current state'."""
    return category.replace("_", " ")


def person_label(name: str, entity_id: object) -> str:
    """A person as the page names them: their name, else (an import or an id alone brought them) their id's start."""
    return name or f"unnamed · {str(entity_id)[:8]}"


def short_actor(actor: str) -> str:
    """'message:<long id>' -> 'message <first 8>'; 'chat:<entity id>' -> 'the person, in the chat'; reviewers and
    imports are shown as they are."""
    kind, _, ident = actor.partition(":")
    if kind == "chat":
        return "the person, in the chat"
    return f"message {ident[:8]}" if kind == "message" and len(ident) > 12 else actor


def queue_label(count: int, more: bool) -> str:
    """The pending count shown in the navigation: exact below the page size, '100+' beyond it."""
    return f"{count}+" if more else str(count)
