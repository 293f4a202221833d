"""`python -m factmemory_tools.bench [args]`: the same as `factmemory-bench [args]`."""

from factmemory_tools.bench import cli

raise SystemExit(cli())
