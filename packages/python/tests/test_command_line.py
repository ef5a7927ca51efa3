"""``python3 -m parley_client`` asks from the command line and says how the ask ended by its exit code."""

from __future__ import annotations

import os
import subprocess
import sys
import unittest
from typing import Dict, List, Optional

import local_package
from fake_parley import FakeParley, Reply, answered_json, api_error, ask_json


def run(arguments: List[str], env: Dict[str, str]) -> "subprocess.CompletedProcess[str]":
    child_env = {"PATH": os.environ.get("PATH", ""), "PYTHONPATH": local_package.SOURCE, **env}
    return subprocess.run([sys.executable, "-m", "parley_client", *arguments], env=child_env, capture_output=True, text=True, timeout=60)


class CommandLine(unittest.TestCase):
    fake: Optional[FakeParley] = None

    def tearDown(self) -> None:
        if self.fake is not None:
            self.fake.close()

    def test_an_answer_is_printed_as_json_and_exits_0_after_waiting_out_a_503(self) -> None:
        replies = [api_error(503, "unavailable", "Down a moment."), Reply(201, ask_json()), Reply(200, answered_json({"go": True}))]
        self.fake = FakeParley(lambda request: replies.pop(0))
        done = run(["--to", "sam@parley.test", "--title", "Go?", "--key", "go-1"], {"PARLEY_URL": self.fake.url, "PARLEY_API_KEY": "pk_test"})
        self.assertEqual(done.returncode, 0, done.stderr)
        self.assertEqual(done.stdout, '{"go": true}\n')
        self.assertIn("Parley: Down a moment.; trying POST /api/v1/asks again in", done.stderr)
        self.assertIn("Answered by Sam <sam@parley.test>.", done.stderr)

    def test_a_decline_prints_its_reason_and_exits_2_with_the_note_on_stderr(self) -> None:
        declined = ask_json(status="nothing", reason="declined", note="Ask Cy.", declined_by={"email": "sam@parley.test", "name": "Sam"})
        self.fake = FakeParley(lambda request: Reply(201, declined))
        done = run(["--to", "sam@parley.test", "--title", "Go?"], {"PARLEY_URL": self.fake.url, "PARLEY_API_KEY": "pk_test"})
        self.assertEqual((done.returncode, done.stdout), (2, "declined\n"))
        self.assertIn("Sam declined to answer. Their note: Ask Cy.", done.stderr)

    def test_a_usage_error_or_a_missing_key_exits_1_not_2(self) -> None:
        self.assertEqual(run(["--title", "Go?"], {"PARLEY_URL": "http://127.0.0.1:9", "PARLEY_API_KEY": "pk_test"}).returncode, 1)
        self.assertEqual(run(["--to", "sam@parley.test", "--title", "Go?", "--poll", "61"], {"PARLEY_URL": "http://127.0.0.1:9", "PARLEY_API_KEY": "pk_test"}).returncode, 1)
        missing = run(["--to", "sam@parley.test", "--title", "Go?"], {})
        self.assertEqual(missing.returncode, 1)
        self.assertIn("Set PARLEY_URL", missing.stderr)


if __name__ == "__main__":
    unittest.main()
