"""Learned Minesweeper agents: DAgger imitation of the exact solver and MaskablePPO fine-tuning
with a fully-convolutional policy (``mswp-train``; ``agents.make("net:PATH")`` plays one).

Needs the ``train`` extra (torch, stable-baselines3, sb3-contrib, tensorboard). Submodules are
imported on demand so ``import train`` stays cheap.
"""

from __future__ import annotations
