"""Pure domain: values in, values out; no I/O."""
