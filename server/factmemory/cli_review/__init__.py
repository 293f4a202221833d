"""The review commands of `factmemory`: facts, candidates, entities, forget, export, against a running service.

Human-readable output by default, --json for scripts. Every failure is one line on stderr and a non-zero exit:
2 for a wrong command line, 1 for an error the service reported, 3 when the service cannot be reached.
arguments: the command line; commands: running one (the list commands are one table); lines: the output."""

from factmemory.cli_review.arguments import (
    COMMANDS,
    EXIT_ERROR,
    EXIT_UNREACHABLE,
    EXIT_USAGE,
    NAME_MATCHES,
    CommandLineError,
    Connection,
    OneLineParser,
    add_client_options,
    add_commands,
    agent_arg,
    hoisted,
    is_uuid,
    parse_address,
    person_arg,
    pick_agent,
    pick_person,
    uuid_arg,
)
from factmemory.cli_review.commands import agent_document, run

__all__ = [
    "COMMANDS",
    "EXIT_ERROR",
    "EXIT_UNREACHABLE",
    "EXIT_USAGE",
    "NAME_MATCHES",
    "CommandLineError",
    "Connection",
    "OneLineParser",
    "add_client_options",
    "add_commands",
    "agent_arg",
    "agent_document",
    "hoisted",
    "is_uuid",
    "parse_address",
    "person_arg",
    "pick_agent",
    "pick_person",
    "run",
    "uuid_arg",
]
