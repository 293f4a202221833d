"""`python -m factmemory.bench [args]`: the same as `factmemory bench [args]`."""

import logging
import sys

from factmemory.bench import main
from factmemory.settings import Settings

logging.basicConfig(level=logging.INFO, format="%(asctime)s %(levelname)s %(name)s: %(message)s")
raise SystemExit(main(Settings(), sys.argv[1:]))
