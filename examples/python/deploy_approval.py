"""Ask Sam whether to deploy a release, and act on his typed answer — or on why nobody gave one."""

import os
import sys
from datetime import timedelta

from parley_client import Client

DEPLOY = {  # A JSON Schema object: each property is one question.
    "type": "object", "required": ["decision", "window_hours"],
    "properties": {
        "decision": {"description": "Deploy now?", "oneOf": [{"const": "approve", "title": "Approve"}, {"const": "reject", "title": "Reject"}]},
        "window_hours": {"type": "integer", "description": "How many hours may it take?", "minimum": 1, "maximum": 12},
    },
}


def ask_to_deploy(parley: Client, release: str) -> str:
    # The same key after a crash picks up the same ask (or its answer) instead of asking twice.
    result = parley.ask("sam@parley.test", f"Deploy {release} now?", response_schema=DEPLOY, within=timedelta(hours=4), idempotency_key=f"deploy-{release}")
    if not result.ok:  # away, expired, declined (with Sam's note)…
        return f"not deploying {release}: {result.reason}" + (f" ({result.note})" if result.note else "")
    if result.value["decision"] != "approve":
        return f"not deploying {release}: rejected"
    return f"deploying {release} in a window of {timedelta(hours=result.value['window_hours'])}"


if __name__ == "__main__":
    print(ask_to_deploy(Client(os.environ["PARLEY_URL"], os.environ["PARLEY_API_KEY"]), sys.argv[1]))
