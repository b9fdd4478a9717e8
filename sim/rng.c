/*
 * rng.c -- xoshiro256** streams seeded by splitmix64 from (seed, stream).
 */
#include "sim.h"

static uint64_t splitmix64(uint64_t *x)
{
    uint64_t z = (*x += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
}

static inline uint64_t rotl(uint64_t x, int k)
{
    return (x << k) | (x >> (64 - k));
}

void sim_rng_init(struct sim_rng *r, uint64_t seed, uint64_t stream)
{
    uint64_t x = seed;
    uint64_t mix = splitmix64(&x) ^ (stream * 0xd1342543de82ef95ull);
    for (int i = 0; i < 4; i++)
        r->s[i] = splitmix64(&mix);
    if (!(r->s[0] | r->s[1] | r->s[2] | r->s[3]))
        r->s[0] = 1; /* the all-zero state is a fixed point */
}

uint64_t sim_rng_next(struct sim_rng *r)
{
    uint64_t *s = r->s;
    uint64_t result = rotl(s[1] * 5, 7) * 9;
    uint64_t t = s[1] << 17;
    s[2] ^= s[0];
    s[3] ^= s[1];
    s[1] ^= s[2];
    s[0] ^= s[3];
    s[2] ^= t;
    s[3] = rotl(s[3], 45);
    return result;
}

uint64_t sim_rng_below(struct sim_rng *r, uint64_t n)
{
    SIM_ASSERT(n > 0);
    __uint128_t m = (__uint128_t)sim_rng_next(r) * n;
    uint64_t low = (uint64_t)m;
    if (low < n) {
        uint64_t threshold = -n % n;
        while (low < threshold) {
            m = (__uint128_t)sim_rng_next(r) * n;
            low = (uint64_t)m;
        }
    }
    return (uint64_t)(m >> 64);
}

double sim_rng_unit(struct sim_rng *r)
{
    return (double)(sim_rng_next(r) >> 11) * 0x1.0p-53;
}

uint64_t sim_rng_hash(uint64_t seed, uint64_t a, uint64_t b)
{
    uint64_t x = seed ^ (a * 0xd1342543de82ef95ull);
    uint64_t h = splitmix64(&x);
    x = h ^ b;
    return splitmix64(&x);
}
