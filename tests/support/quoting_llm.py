"""An OpenAI-compatible endpoint that refuses every call with HTTP 400 quoting the line of
its input it objects to (issue 22's finding 3), for the play and OpenEnv tests."""

from __future__ import annotations

import json
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import comma_env


class QuotingLLM:
    """An OpenAI-compatible endpoint that refuses every call with HTTP 400 quoting the line of
    its input it objects to, as validating servers do (the attacker's finding 3)."""

    def __enter__(self) -> str:
        class Handler(BaseHTTPRequestHandler):
            def do_POST(self) -> None:  # noqa: N802 (http.server's name)
                body = json.loads(self.rfile.read(int(self.headers.get("content-length") or 0)))
                content = body["messages"][-1]["content"]
                text = content if isinstance(content, str) else json.dumps(content)
                quoted = [line for line in text.splitlines() if "pin" in line.lower() and ":" in line]
                payload = json.dumps({"error": {"message": f"unsupported field in input: {quoted[-1:]}",
                                                "type": "BadRequestError"}}).encode()
                self.send_response(400)
                self.send_header("content-type", "application/json")
                self.send_header("content-length", str(len(payload)))
                self.end_headers()
                self.wfile.write(payload)

            def log_message(self, *args: object) -> None:
                pass

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        threading.Thread(target=self.server.serve_forever, daemon=True).start()
        return f"http://127.0.0.1:{self.server.server_address[1]}/v1"

    def __exit__(self, *exc: object) -> None:
        self.server.shutdown()
        self.server.server_close()


def atm_secrets(seed: int) -> list[str]:
    """The PIN and the balance of ATM instance `seed` (what must never reach the expert)."""
    env = comma_env.make("atm")
    env.reset(seed=seed)
    puzzle = env.unwrapped.puzzle
    return [puzzle.pin, f"{puzzle.balance_cents / 100:.2f}"]
