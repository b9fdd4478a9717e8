/*
 * mpi_shm.c -- seed 001's shared-memory MPI transfer (Putigny, Ruelle,
 * Goglin, Sec III-IV): a sender and a receiver move a message through a
 * shared buffer of `buffers` chunks, as Open MPI (32 kB fragments) and MPICH
 * (64 kB cells) do.
 *
 * Reading: every byte sees the four accesses of Table II: the sender loads
 * its application buffer and stores into a shared chunk; the receiver loads
 * the chunk and stores into its receive buffer. Chunks pipeline as in Table
 * I: the sender fills chunk i+1 while the receiver empties chunk i; a chunk
 * is reused only once the receiver has freed it (a ready and a free flag per
 * shared chunk, counting chunks, so nothing is reset between iterations).
 * reuse=same: thread 0 always sends; reuse=alternate: the threads swap roles
 * every iteration through the same shared chunks, so the previous reader
 * (holding the chunks Shared) writes them next instead of their Owned writer
 * (Sec IV-E, Fig. 14). recv=/send= cold evicts that side's buffer before the
 * transfer, hot leaves it in that side's cache (Fig. 6); flush=sender flushes
 * every shared line the sender wrote (clflush, Sec IV-C). Non-temporal
 * stores are not modelled: nt=sender is refused.
 */
#include "gen_impl.h"

#include <stdio.h>

struct mpi {
    long L, c, NC;           /* message lines, lines per chunk, chunks per message */
    int K;                   /* shared chunks */
    char Ssel[16], Rsel[16]; /* sender, receiver as selectors */
    char S[16], R[16];       /* ... and as expressions */
};

static void mpi_roles(const struct gen *g, struct mpi *x)
{
    bool alt = g->a->alternate;
    snprintf(x->Ssel, sizeof x->Ssel, "%s", alt ? "it%2" : "0");
    snprintf(x->Rsel, sizeof x->Rsel, "%s", alt ? "1-it%2" : "1");
    snprintf(x->S, sizeof x->S, "%s", alt ? "(it%2)" : "0");
    snprintf(x->R, sizeof x->R, "%s", alt ? "(1-it%2)" : "1");
}

/* Runs `body` (a statement with one %s for the line index) for j = 0..L-1
 * on thread `who`. */
static void each_line(struct gen *g, const struct mpi *x, const char *who, const char *op,
                      const char *buf, const char *base, const char *tail)
{
    char to[32];
    snprintf(to, sizeof to, "%ld", x->L - 1);
    gen_for(g, "j", "0", to);
    gen_out(g, "%s: %s %s[%s*%ld+j]%s", who, op, buf, base, x->L, tail);
    gen_end(g);
}

/* Before the timed transfer: the sender writes its message (word 0 of line j
 * is it*L+j+1, so a stale copy shows); cold sides are evicted, a hot receive
 * buffer is primed M in the receiver's cache. */
static void mpi_setup(struct gen *g, const struct mpi *x)
{
    char value[64];
    snprintf(value, sizeof value, " it*%ld+j+1", x->L);
    each_line(g, x, x->Ssel, "write", "app", x->S, value);
    if (g->a->send_cold)
        each_line(g, x, x->Ssel, "evict", "app", x->S, "");
    if (g->a->recv_cold)
        each_line(g, x, x->Rsel, "evict", "rcv", x->R, "");
    else
        each_line(g, x, x->Rsel, "prime", "rcv", x->R, " M");
}

/* Chunk i of the message: the sender waits until its shared chunk is free,
 * copies, (flushes,) and marks it ready; the receiver waits for it, copies
 * it out and frees it. Chunk numbers count on across iterations. */
static void mpi_chunk(struct gen *g, const struct mpi *x, long i)
{
    long lines = x->L - i * x->c < x->c ? x->L - i * x->c : x->c;
    char num[64], slot[96];
    snprintf(num, sizeof num, "it*%ld+%ld", x->NC, i);
    snprintf(slot, sizeof slot, "(%s)%%%d", num, x->K);
    gen_out(g, "%s: wait fre[%s] >= %s-%d", x->Ssel, slot, num, x->K - 1);
    gen_out(g, "%s: copy app[%s*%ld+%ld] shm[%s*%ld] %ld", x->Ssel, x->S, x->L, i * x->c, slot,
            x->c, lines);
    if (g->a->flush) {
        char to[32];
        snprintf(to, sizeof to, "%ld", lines - 1);
        gen_for(g, "j", "0", to);
        gen_out(g, "%s: flush shm[%s*%ld+j]", x->Ssel, slot, x->c);
        gen_end(g);
    }
    gen_out(g, "%s: write rdy[%s] %s+1", x->Ssel, slot, num);
    gen_out(g, "%s: wait rdy[%s] >= %s+1", x->Rsel, slot, num);
    gen_out(g, "%s: copy shm[%s*%ld] rcv[%s*%ld+%ld] %ld", x->Rsel, slot, x->c, x->R, x->L,
            i * x->c, lines);
    gen_out(g, "%s: write fre[%s] %s+1", x->Rsel, slot, num);
}

bool gen_emit_mpi_shm(struct gen *g)
{
    const struct gen_args *a = g->a;
    if (a->nt)
        return gen_fail(g, "nt=sender needs non-temporal stores, which are not modelled yet");
    struct mpi x;
    long lb = (long)g->words * 8;
    x.L = (a->bytes + lb - 1) / lb;
    x.c = (a->chunk + lb - 1) / lb;
    x.NC = (x.L + x.c - 1) / x.c;
    x.K = a->buffers;
    long total = 4 * x.L + (long)x.K * x.c + 2L * x.K;
    if (total > WL_MAX_LINES)
        return gen_fail(g,
                        "bytes=%ld, chunk=%ld, buffers=%d: the message and the receive buffer of "
                        "both threads (4 x %ld lines of %ld bytes), the shared chunks (%ld) and "
                        "their flags are %ld lines, more than a trace may declare (%d in all, "
                        "WL_MAX_LINES)",
                        a->bytes, a->chunk, x.K, x.L, lb, (long)x.K * x.c, total, WL_MAX_LINES);
    if (x.NC > 4096)
        return gen_fail(g, "bytes=%ld in chunks of %ld is %ld chunks: at most 4096", a->bytes,
                        a->chunk, x.NC);
    mpi_roles(g, &x);
    gen_line(g, "app", 2 * x.L, "app[t*L+j]: thread t's message (user data)");
    gen_line(g, "rcv", 2 * x.L, "rcv[t*L+j]: thread t's receive buffer");
    gen_line(g, "shm", (long)x.K * x.c, "the shared chunks: chunk k is shm[k*c .. k*c+c-1]");
    gen_line(g, "rdy", x.K, "rdy[k]: the number (+1) of the last chunk written into chunk k");
    gen_line(g, "fre", x.K, "fre[k]: the number (+1) of the last chunk read out of chunk k");
    gen_iter_open(g);
    mpi_setup(g, &x);
    gen_sync(g);
    for (long i = 0; i < x.NC; i++)
        mpi_chunk(g, &x, i);
    gen_mark(g);
    char value[64];
    snprintf(value, sizeof value, " == it*%ld+j+1", x.L);
    each_line(g, &x, x.Rsel, "expect", "rcv", x.R, value);
    gen_end(g);
    return true;
}
