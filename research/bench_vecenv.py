"""Which vectorised env is fastest for MaskablePPO on this machine: Dummy, Subproc or native?

Two figures per kind and env count: raw env steps/s with random legal actions (masks fetched the
way sb3-contrib does it), and PPO env steps/s (rollout collection + update) of the board policy.

    nice -n 10 .venv/bin/python research/bench_vecenv.py --n-envs 8 16 --steps 4096
"""

from __future__ import annotations

import argparse
import time

import numpy as np
import torch as th
from sb3_contrib.common.maskable.utils import get_action_masks

from train.ppo import build_model, make_vec_env
from train.session import game_spec
from train.settings import VEC_ENVS, PPOSettings, TrainSettings, VecEnvKind


def raw_steps_per_second(settings: TrainSettings, steps: int) -> float:
    """Env steps/s of random legal actions through the VecEnv (no network)."""
    spec = game_spec(settings)
    env = make_vec_env(settings, spec)
    env.seed(0)
    env.reset()
    rng = np.random.default_rng(0)
    start = time.perf_counter()
    for _ in range(steps // settings.ppo.n_envs):
        masks = get_action_masks(env)
        actions = np.array([rng.choice(np.flatnonzero(m)) for m in masks])
        env.step(actions)
    elapsed = time.perf_counter() - start
    env.close()
    return (steps // settings.ppo.n_envs) * settings.ppo.n_envs / elapsed


def ppo_steps_per_second(settings: TrainSettings, steps: int) -> float:
    """Env steps/s of MaskablePPO.learn (collection + updates) with the board policy."""
    spec = game_spec(settings)
    env = make_vec_env(settings, spec)
    model = build_model(settings, spec, env, None)
    model.learn(settings.ppo.n_envs * settings.ppo.n_steps)  # warm-up rollout
    start = time.perf_counter()
    model.learn(steps, reset_num_timesteps=False)
    elapsed = time.perf_counter() - start
    env.close()
    return steps / elapsed


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--n-envs", type=int, nargs="+", default=[8, 16])
    parser.add_argument("--steps", type=int, default=4096, help="env steps per measurement")
    parser.add_argument("--kinds", nargs="+", default=list(VEC_ENVS), choices=VEC_ENVS)
    parser.add_argument("--threads", type=int, default=1, help="torch threads")
    args = parser.parse_args()
    th.set_num_threads(args.threads)
    print(f"Beginner 9x9/10, {args.steps} env steps per figure, torch threads {args.threads}")
    print(f"{'kind':8} {'n_envs':>6} {'raw steps/s':>12} {'PPO steps/s':>12}")
    for n_envs in args.n_envs:
        for kind in args.kinds:
            ppo = PPOSettings(vec_env=VecEnvKind(kind), n_envs=n_envs, n_steps=64, batch_size=256)
            settings = TrainSettings(eval_baselines=False, ppo=ppo)
            raw = raw_steps_per_second(settings, args.steps)
            ppo = ppo_steps_per_second(settings, args.steps)
            print(f"{kind:8} {n_envs:6d} {raw:12.0f} {ppo:12.0f}", flush=True)


if __name__ == "__main__":
    main()
