"""A loopback stand-in for the Hugging Face Hub's HTTP API: it records every call and answers
the few that creating a dataset repository and committing files to it make (``create_repo``,
``validate-yaml``, ``preupload``, ``commit``), so that `huggingface_hub` can be tested without network."""

from __future__ import annotations

import json
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any


class HubServer:
    """``with HubServer() as hub:`` with ``HF_ENDPOINT=hub.url``; ``hub.calls`` lists
    (method, path, JSON body or the lines of an NDJSON body)."""

    def __init__(self) -> None:
        self.calls: list[tuple[str, str, Any]] = []
        hub = self

        class Handler(BaseHTTPRequestHandler):
            def log_message(self, *args: Any) -> None:
                pass

            def _body(self) -> Any:
                raw = self.rfile.read(int(self.headers.get("Content-Length") or 0)).decode("utf-8", "replace")
                if "ndjson" in (self.headers.get("Content-Type") or ""):
                    return [json.loads(line) for line in raw.splitlines() if line.strip()]
                try:
                    return json.loads(raw) if raw else None
                except ValueError:
                    return raw

            def _answer(self, status: int, payload: Any) -> None:
                data = json.dumps(payload).encode()
                self.send_response(status)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(data)))
                self.end_headers()
                self.wfile.write(data)

            def do_GET(self) -> None:  # noqa: N802 - the http.server API
                hub.calls.append(("GET", self.path, None))
                self._answer(404, {"error": "not recorded"})

            def do_POST(self) -> None:  # noqa: N802
                body = self._body()
                hub.calls.append(("POST", self.path, body))
                if self.path == "/api/repos/create":
                    self._answer(200, {"url": f"{hub.url}/datasets/{body['organization'] or 'user'}/{body['name']}"})
                elif self.path == "/api/validate-yaml":  # the dataset card's front matter
                    self._answer(200, {"errors": [], "warnings": []})
                elif "/preupload/" in self.path:
                    self._answer(200, {"files": [{"path": f["path"], "uploadMode": "regular", "shouldIgnore": False}
                                                 for f in body["files"]]})
                elif "/commit/" in self.path:
                    repo = self.path.removeprefix("/api/").split("/commit/")[0]  # datasets/user/name
                    self._answer(200, {"commitUrl": f"{hub.url}/{repo}/commit/{'1' * 40}", "commitOid": "1" * 40})
                else:
                    self._answer(404, {"error": "not recorded"})

        self._server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.url = f"http://127.0.0.1:{self._server.server_address[1]}"
        self._thread = threading.Thread(target=self._server.serve_forever, daemon=True)

    def __enter__(self) -> HubServer:
        self._thread.start()
        return self

    def __exit__(self, *exc: Any) -> None:
        self._server.shutdown()
        self._server.server_close()
