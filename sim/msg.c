/*
 * msg.c -- the message pool and the line map.
 */
#include "sim.h"

#include <stdlib.h>
#include <string.h>

#define MSG_BLOCK 64

struct sim_msg_block {
    struct sim_msg_block *next;
    struct sim_msg msgs[MSG_BLOCK];
};

/* A new block's messages go to the free list. */
static void grow(struct sim_msg_pool *p)
{
    struct sim_msg_block *b = sim_xmalloc(sizeof *b);
    b->next = p->blocks;
    p->blocks = b;
    for (int i = MSG_BLOCK - 1; i >= 0; i--) {
        b->msgs[i].next = p->free;
        p->free = &b->msgs[i];
    }
    p->allocated += MSG_BLOCK;
}

struct sim_msg *sim_msg_new(struct sim_msg_pool *p)
{
    if (!p->free)
        grow(p);
    struct sim_msg *m = p->free;
    p->free = m->next;
    p->in_use++;
    memset(m, 0, offsetof(struct sim_msg, data));
    return m;
}

void sim_msg_free(struct sim_msg_pool *p, struct sim_msg *m)
{
    m->next = p->free;
    p->free = m;
    p->in_use--;
}

void sim_msg_pool_destroy(struct sim_msg_pool *p)
{
    while (p->blocks) {
        struct sim_msg_block *b = p->blocks;
        p->blocks = b->next;
        free(b);
    }
    p->free = NULL;
}

static inline size_t map_hash(uint64_t key)
{
    key ^= key >> 33;
    key *= 0xff51afd7ed558ccdull;
    key ^= key >> 33;
    return (size_t)key;
}

void sim_map_init(struct sim_map *m)
{
    m->cap = 64;
    m->len = 0;
    m->keys = sim_xcalloc(m->cap, sizeof *m->keys);
    m->vals = sim_xcalloc(m->cap, sizeof *m->vals);
}

void sim_map_destroy(struct sim_map *m)
{
    free(m->keys);
    free(m->vals);
    m->keys = NULL;
    m->vals = NULL;
    m->cap = m->len = 0;
}

void *sim_map_get(const struct sim_map *m, uint64_t key)
{
    for (size_t i = map_hash(key) & (m->cap - 1);; i = (i + 1) & (m->cap - 1)) {
        if (!m->vals[i])
            return NULL;
        if (m->keys[i] == key)
            return m->vals[i];
    }
}

static void map_grow(struct sim_map *m)
{
    struct sim_map old = *m;
    m->cap *= 2;
    m->len = 0;
    m->keys = sim_xcalloc(m->cap, sizeof *m->keys);
    m->vals = sim_xcalloc(m->cap, sizeof *m->vals);
    for (size_t i = 0; i < old.cap; i++)
        if (old.vals[i])
            sim_map_put(m, old.keys[i], old.vals[i]);
    free(old.keys);
    free(old.vals);
}

void sim_map_put(struct sim_map *m, uint64_t key, void *val)
{
    SIM_ASSERT(val != NULL);
    *sim_map_slot(m, key) = val;
}

void **sim_map_slot(struct sim_map *m, uint64_t key)
{
    size_t i = map_hash(key) & (m->cap - 1);
    while (m->vals[i] && m->keys[i] != key)
        i = (i + 1) & (m->cap - 1);
    if (m->vals[i])
        return &m->vals[i];
    if (2 * (m->len + 1) > m->cap) { /* an insert past half: grow, then look again */
        map_grow(m);
        i = map_hash(key) & (m->cap - 1);
        while (m->vals[i])
            i = (i + 1) & (m->cap - 1);
    }
    m->len++;
    m->keys[i] = key;
    return &m->vals[i];
}

void sim_map_each(const struct sim_map *m, void (*fn)(uint64_t key, void *val, void *ctx),
                  void *ctx)
{
    for (size_t i = 0; i < m->cap; i++)
        if (m->vals[i])
            fn(m->keys[i], m->vals[i], ctx);
}
