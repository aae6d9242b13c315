"""``llm:MODEL``: a chat model behind any OpenAI-compatible endpoint, playing through the text
protocol (vLLM, Ollama, a hosted API).

Each move sends the system prompt and the rendered board (:mod:`mswp_gym.text.protocol`); an
invalid reply gets the protocol's feedback and another try, and counts toward
``TextRules.max_invalid`` over the game, after which the agent resigns (:class:`Resign`: the game
is a loss). A request has a timeout and retries with exponential backoff. Replies are cached on
disk by request (model, messages, sampling and the game's seed), one atomically written file
each, so a rerun costs no request and plays the same moves. The standard library only: no client
package is needed.
"""

from __future__ import annotations

import hashlib
import json
import os
import time
import urllib.error
import urllib.request
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from agents.base import Explanation
from agents.episode import Resign
from common.atomic import write_text_atomic
from mswp_gym.spec import GameSpec
from mswp_gym.text.protocol import (
    InvalidReply,
    MoveKind,
    TextRules,
    check_move,
    parse_move,
    render_board,
    system_prompt,
)

DEFAULT_KEY_ENV = "OPENAI_API_KEY"
"""The environment variable the API key is read from, unless another is named."""
RETRY_STATUS = frozenset({408, 409, 425, 429, 500, 502, 503, 504})
"""HTTP statuses worth another try (overload, rate limits, restarts)."""


class EndpointError(RuntimeError):
    """The endpoint gave no usable answer (after the retries, or a refusal such as a bad key)."""


def default_cache() -> Path:
    """``$XDG_CACHE_HOME/mswp-gym/llm`` (``~/.cache/mswp-gym/llm`` by default)."""
    root = os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache"
    return Path(root) / "mswp-gym" / "llm"


@dataclass(frozen=True)
class Reply:
    """One answer of the model, as cached."""

    text: str
    tokens: int
    """Prompt plus completion tokens, as the endpoint reported them (0 if it did not)."""
    seconds: float
    """How long the request took when it was made (a cached reply keeps that figure)."""


@dataclass(frozen=True)
class ChatUsage:
    """What one game cost: ``LLMAgent.usage``."""

    replies: int = 0
    invalid_replies: int = 0
    tokens: int = 0
    seconds: float = 0.0
    """Model seconds, summed over the replies (cached replies count their original time)."""

    def add(self, reply: Reply, invalid: bool) -> ChatUsage:
        """This usage with one more reply."""
        return ChatUsage(
            self.replies + 1, self.invalid_replies + invalid, self.tokens + reply.tokens,
            self.seconds + reply.seconds,
        )  # fmt: skip


@dataclass(frozen=True)
class ChatEndpoint:
    """An OpenAI-compatible ``/chat/completions`` endpoint and how to call it."""

    url: str
    """The API base, e.g. ``http://localhost:8000/v1`` (``/chat/completions`` is appended)."""
    model: str
    key_env: str = DEFAULT_KEY_ENV
    """Environment variable holding the API key (unset: no Authorization header)."""
    timeout: float = 60.0
    """Seconds per request."""
    retries: int = 3
    """Further tries after a failed request (connection error, timeout, 429, 5xx)."""
    backoff: float = 1.0
    """Seconds before the first retry, doubled for each next one."""
    temperature: float = 0.0
    max_tokens: int = 1024
    cache: Path | None = None
    """Folder of cached replies; None caches nothing."""

    def __post_init__(self) -> None:
        if not self.url.startswith(("http://", "https://")):
            raise ValueError(f"llm url must start with http:// or https://, got {self.url!r}")
        if self.timeout <= 0 or self.retries < 0 or self.backoff < 0:
            raise ValueError(f"llm timeout must be > 0, retries and backoff >= 0: {self}")

    def chat(self, messages: list[dict[str, str]], seed: int) -> Reply:
        """The model's reply to ``messages``, from the cache or the endpoint; the request body
        (model, messages, sampling, ``seed``) is the cache key.

        Raises:
            EndpointError: no usable answer after the retries, or a refusal (4xx).
        """
        request = {"model": self.model, "messages": messages, "seed": seed}
        request |= {"temperature": self.temperature, "max_tokens": self.max_tokens}
        body = json.dumps(request, sort_keys=True)
        path = None
        if self.cache is not None:
            digest = hashlib.sha256(body.encode()).hexdigest()
            path = self.cache / digest[:2] / f"{digest}.json"
            try:
                return Reply(**json.loads(path.read_text()))
            except (OSError, ValueError, TypeError):
                pass  # missing (or unreadable): ask the endpoint
        reply = self._post(body)
        if path is not None:
            path.parent.mkdir(parents=True, exist_ok=True)
            write_text_atomic(path, json.dumps(reply.__dict__))
        return reply

    def _post(self, body: str) -> Reply:
        headers = {"Content-Type": "application/json"}
        key = os.environ.get(self.key_env)
        if key:
            headers["Authorization"] = f"Bearer {key}"
        url = self.url.rstrip("/") + "/chat/completions"
        failure = ""
        for attempt in range(self.retries + 1):
            if attempt:
                time.sleep(self.backoff * 2 ** (attempt - 1))
            start = time.perf_counter()
            request = urllib.request.Request(url, body.encode(), headers, method="POST")
            try:
                with urllib.request.urlopen(request, timeout=self.timeout) as response:
                    answer = json.loads(response.read())
                text = answer["choices"][0]["message"].get("content") or ""
                usage = answer.get("usage") or {}
                tokens = int(usage.get("total_tokens") or 0)
                return Reply(str(text), tokens, time.perf_counter() - start)
            except urllib.error.HTTPError as exc:
                failure = f"HTTP {exc.code} {exc.reason}"
                if exc.code not in RETRY_STATUS:
                    break
            except (OSError, ValueError, KeyError, IndexError, TypeError, AttributeError) as exc:
                failure = str(getattr(exc, "reason", None) or exc) or type(exc).__name__
        raise EndpointError(
            f"no answer from {url} for model {self.model!r} after {attempt + 1} "
            f"tr{'y' if attempt == 0 else 'ies'} ({failure})"
        )


class LLMAgent:
    """A chat model playing through the text protocol (see the module docstring).

    Sees only the visible board, like every agent; ``explain()`` proves nothing. ``usage`` is
    the current game's cost. Deterministic given the seed where the endpoint is (or the cache
    holds the replies).
    """

    def __init__(self, endpoint: ChatEndpoint, rules: TextRules | None = None) -> None:
        self.endpoint, self.name, self.rules = (
            endpoint,
            f"llm:{endpoint.model}",
            rules or TextRules(),
        )
        self.usage, self._seed, self._system = ChatUsage(), 0, ""
        self._spec: GameSpec | None = None

    def reset(self, seed: int | None = None, spec: GameSpec | None = None) -> None:
        """Start a game: the seed goes into every request (and so into the cache key)."""
        self._seed, self._system, self.usage = 0 if seed is None else int(seed), "", ChatUsage()
        self._spec = spec

    def act(self, observation: np.ndarray, action_mask: np.ndarray) -> int:
        """Ask the model for a move until it names a legal one.

        Raises:
            Resign: the game's invalid replies reached ``rules.max_invalid``.
            EndpointError: the endpoint failed.
        """
        board, mask = np.asarray(observation), np.asarray(action_mask).ravel()
        rows, cols = board.shape
        spec = self._spec or GameSpec(rows, cols, 0)
        if not self._system:
            if mask.size <= rows * cols:  # the env has no flag actions
                self.rules = TextRules(self.rules.one_based, self.rules.max_invalid, False)
            self._system = system_prompt(rows, cols, spec.mines, spec.first_click, self.rules)
        messages = [
            {"role": "system", "content": self._system},
            {"role": "user", "content": render_board(board, spec.mines, self.rules)},
        ]
        while True:
            reply = self.endpoint.chat(messages, self._seed)
            action = self._action(reply.text, board, mask)
            self.usage = self.usage.add(reply, isinstance(action, InvalidReply))
            if not isinstance(action, InvalidReply):
                return action
            if self.usage.invalid_replies >= self.rules.max_invalid:
                raise Resign(f"{self.usage.invalid_replies} invalid replies ({action.reason})")
            feedback = f"Invalid reply: {action.reason}. Reply with one move."
            messages += [
                {"role": "assistant", "content": reply.text},
                {"role": "user", "content": feedback},
            ]

    def _action(self, text: str, board: np.ndarray, mask: np.ndarray) -> int | InvalidReply:
        """The flat action ``text`` names, or why it names no legal one."""
        rows, cols = board.shape
        move = parse_move(text, rows, cols, self.rules)
        if not isinstance(move, InvalidReply):
            move = check_move(move, board, self.rules)
        if isinstance(move, InvalidReply):
            return move
        action = int((move.kind == MoveKind.FLAG) * rows * cols + move.row * cols + move.col)
        if action >= mask.size or not bool(mask[action]):
            return InvalidReply("that move is not allowed now; reveal a hidden (#) cell")
        return action

    def explain(self) -> Explanation:
        """Nothing proven: a model's moves are choices, not deductions."""
        return Explanation()


def load_llm_agent(
    model: str | None,
    *,
    url: str | None = None,
    cache: str | None = None,
    one_based: bool = False,
    max_invalid: int = 3,
    seed: int | None = None,
    **endpoint: Any,
) -> LLMAgent:
    """``agents.make("llm:MODEL", url=...)``: the agent for ``MODEL`` at ``url``.

    ``cache`` is a folder ("none" turns caching off; default :func:`default_cache`);
    ``endpoint`` takes :class:`ChatEndpoint`'s other fields (``key_env``, ``timeout``,
    ``retries``, ...); ``seed`` is ignored (each game's seed comes with ``reset``).

    Raises:
        ValueError: no model, no url, or a bad setting.
        TypeError: an unknown keyword.
    """
    if not model or not url:
        raise ValueError(
            f"llm:MODEL needs a model name and the endpoint's URL (mswp-eval --llm-url URL, e.g. "
            f"http://localhost:8000/v1); got model {model!r}, url {url!r}"
        )
    folder = None if cache == "none" else Path(cache) if cache else default_cache()
    rules = TextRules(one_based=one_based, max_invalid=max_invalid)
    return LLMAgent(ChatEndpoint(url, model, cache=folder, **endpoint), rules)
