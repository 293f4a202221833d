"""TEMPORARY forwarder: the in-process service is `factmemory.testing.service`. Only the tools on the layer
test's NOT_YET_PUBLIC list (recall, bench: edited by the recall work while this moved) still import it here; the
integrator switches them to `factmemory.testing.service` and deletes this module with that list."""

from factmemory.testing.service import bench_settings, serve_in_process

__all__ = ["bench_settings", "serve_in_process"]
