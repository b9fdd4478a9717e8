#!/usr/bin/env python3
"""The hold model in SimPy, as `ccsim bench engine` runs it: PENDING processes,
each waiting 1..100 cycles (1 ns) and then again, until EVENTS timeouts have
fired. Prints events_per_s=<number> as its last line, like ccsim."""
import random
import sys
import time

import simpy


def holder(env, rng, counter):
    while True:
        yield env.timeout(rng.randint(1, 100))
        counter[0] += 1


def main():
    pending = int(sys.argv[1]) if len(sys.argv) > 1 else 65536
    events = int(sys.argv[2]) if len(sys.argv) > 2 else 1000000
    rng = random.Random(1)
    env = simpy.Environment()
    counter = [0]
    for _ in range(pending):
        env.process(holder(env, rng, counter))
    env.run(until=101)  # warm-up: every process is holding
    start_count, start = counter[0], time.perf_counter()
    horizon = env.now
    while counter[0] - start_count < events:
        horizon += 100
        env.run(until=horizon)
    wall = time.perf_counter() - start
    fired = counter[0] - start_count
    print(f"simpy hold model: {pending} pending, {fired} events, {wall:.3f} s")
    print(f"events_per_s={fired / wall:.0f}")


if __name__ == "__main__":
    main()
