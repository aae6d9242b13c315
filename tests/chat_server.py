"""A fake OpenAI-compatible chat endpoint on 127.0.0.1 for the ``llm:`` agent's tests and
benchmark: stdlib ``http.server`` in a thread, answering ``/chat/completions`` with a policy's
text, and refusing (HTTP 400) once it has answered ``limit`` requests, so no test can loop.
"""

from __future__ import annotations

import json
import re
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

import numpy as np

Policy = Callable[[dict[str, Any]], str]
"""The reply text for a request body (``model``, ``messages``, ``seed``, ...)."""


class ChatServer(ThreadingHTTPServer):
    """Counts requests; ``url`` is the API base to give the agent."""

    daemon_threads = True

    def __init__(self, policy: Policy, limit: int, delay: float, failures: int) -> None:
        super().__init__(("127.0.0.1", 0), _Handler)
        self.policy, self.limit, self.delay, self.failures = policy, limit, delay, failures
        self.requests = 0
        self.lock = threading.Lock()

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.server_address[1]}/v1"


class _Handler(BaseHTTPRequestHandler):
    server: ChatServer

    def do_POST(self) -> None:
        body = json.loads(self.rfile.read(int(self.headers["Content-Length"])))
        with self.server.lock:
            self.server.requests += 1
            over = self.server.requests > self.server.limit
            failing = self.server.requests <= self.server.failures
        if failing:
            self.send_error(503, "overloaded")
            return
        if over or not self.path.endswith("/chat/completions"):
            self.send_error(400, "request limit reached" if over else "unknown path")
            return
        time.sleep(self.server.delay)
        text = self.server.policy(body)
        answer = {
            "choices": [{"message": {"role": "assistant", "content": text}}],
            "usage": {"prompt_tokens": 100, "completion_tokens": 5, "total_tokens": 105},
        }
        data = json.dumps(answer).encode()
        self.send_response(200)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)

    def log_message(self, format: str, *args: Any) -> None:
        pass


@contextmanager
def chat_server(
    policy: Policy, limit: int = 10_000, delay: float = 0.0, failures: int = 0
) -> Iterator[ChatServer]:
    """Serve ``policy`` until the block ends (``delay``: seconds added to every answer; the first
    ``failures`` requests get HTTP 503)."""
    server = ChatServer(policy, limit, delay, failures)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield server
    finally:
        server.shutdown()
        server.server_close()


def garbage(body: dict[str, Any]) -> str:
    """A policy that never names a move."""
    return "I think the answer is 42, or maybe a fish."


def solver_policy(first_click: str = "safe") -> Policy:
    """A policy that answers the solver's move for the board in the last user message: one
    solver per game seed, so each game plays exactly as the solver does through arrays."""
    from agents import make
    from mswp_gym.constants import HIDDEN
    from mswp_gym.spec import GameSpec
    from mswp_gym.text.protocol import Move, MoveKind, TextRules, format_move, parse_board

    solvers: dict[int, Any] = {}
    lock = threading.Lock()
    rules = TextRules()

    def policy(body: dict[str, Any]) -> str:
        text = body["messages"][-1]["content"]
        board = parse_board(text)
        rows, cols = board.shape
        mines = int(re.search(r"Board [0-9]+x[0-9]+, ([0-9]+) mines", text).group(1))
        seed = int(body["seed"])
        with lock:
            if seed not in solvers or not np.any(board != HIDDEN):
                solvers[seed] = make("solver")
                solvers[seed].reset(seed, GameSpec(rows, cols, mines, first_click))
            solver = solvers[seed]
        action = int(solver.act(board, (board == HIDDEN).ravel().astype(np.int8)))
        return format_move(Move(MoveKind.REVEAL, *divmod(action, cols)), rules)

    return policy
