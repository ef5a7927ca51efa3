"""``python3 -m parley_client --to … --title …``: ask a person from the command line (see ``cli``)."""

from .cli import run

run("python3 -m parley_client")
