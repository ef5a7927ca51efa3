"""Imported first by every test: the package is imported from this checkout's src/, installed or not."""

import os
import sys

SOURCE = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "src")
if os.path.abspath(SOURCE) not in [os.path.abspath(entry) for entry in sys.path]:
    sys.path.insert(0, os.path.abspath(SOURCE))
