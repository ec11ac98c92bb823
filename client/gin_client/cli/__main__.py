"""`python -m gin_client.cli`: the `gin` command, where it is not on the PATH."""
import sys

from .main import main

sys.exit(main())
