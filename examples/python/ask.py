#!/usr/bin/env python3
"""Ask a person through Parley's HTTP API and wait for the answer — the standard library only.

    PARLEY_URL=http://localhost:3000 PARLEY_API_KEY=pk_... \\
        python3 ask.py --to sam@parley.test --title "Deploy 4.2 now?" [--schema deploy.json] [--key deploy-4.2]

Prints the answer as JSON and exits 0; when nobody answers, prints the reason and exits 2; on an
error, prints it and exits 1. The program is the package's command line (packages/python,
`python3 -m parley_client`); this file runs it from a checkout of the repository without installing
anything. Python 3.9 or later.
"""

import os
import sys

# The package beside this checkout, unless it is installed (pip install ./packages/python).
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "packages", "python", "src"))

from parley_client.cli import run  # noqa: E402

if __name__ == "__main__":
    run("ask.py")
