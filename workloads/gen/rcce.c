/*
 * rcce.c -- seed 004's collectives on the SCC (Kohler et al., Sec
 * III-IV): RCCE's message passing through the message-passing buffers, the
 * ring algorithms of RCCE_comm, and the paper's optimisations.
 *
 * The MPB of every core holds (mpb=each, in this order): sent[n] and
 * ready[n], one flag line per peer, then a comm buffer of `buffer` lines
 * (the MPB-direct allreduce adds two result buffers). Flags carry an
 * increasing round number (it * rounds + round + 1), so nothing is reset.
 *
 * The primitives, as RCCE does them (Fig 3):
 *   - put: the message is copied from private memory into the sender's OWN
 *     MPB (local put), as its full lines and then, if the element count is
 *     not a multiple of a line, one padded line by a second call: every
 *     call costs `overhead` cycles (this extra call is what makes the
 *     latency spike with a period of one line, Sec V-A);
 *   - send: put, set sent[me] in the receiver's MPB, wait for ready[recv]
 *     in the own MPB (blocking: the sender waits for the receiver);
 *   - recv: wait for sent[src] in the own MPB, get the message from the
 *     sender's MPB (remote get) into private memory, set ready[me] in the
 *     sender's MPB.
 * A flag is written with `write` and sent at once with `flush` (RCCE
 * writes whole flag lines); `wait` polls as RCCE_wait_until does (invmb,
 * read).
 *
 * Variants (variant=): blocking (RCCE + RCCE_comm: the ring exchanges use
 * the odd-even order of Fig 4, odd ranks receive first); nonblocking
 * (iRCCE: isend and irecv posted together, then both awaited, Fig 5) and
 * lightweight (the paper's one-send-one-receive primitives), which run the
 * same messages and differ only in their software overhead per request; mpb
 * (Sec IV-D, Fig 8): the reduce-scatter reads the left neighbour's MPB and
 * writes its result into its own, double-buffered.
 *
 * Software overheads are parameters (overhead= cycles per RCCE call,
 * request= cycles per send or receive request), not measured here: their
 * defaults are a guess per variant (blocking 100/200, nonblocking 100/800,
 * lightweight 100/100, mpb 100/100) and the paper's iRCCE-versus-lightweight
 * result follows from them, not from the machine.
 *
 * Block splits (split=): rcce gives the remainder of elements / n to the
 * first block, balanced one more element to each of the first remainder
 * blocks (Sec IV-C, Fig 6). In private memory every block starts on a line
 * (maxL lines per block), so a block moves as its own lines, padded as RCCE
 * pads it. Block sizes are trace expressions in the block index.
 *
 * Values: element e of block j of thread t is (t+1)*(j*maxL*W+e+1)+it, so
 * a sum over the threads is (j*maxL*W+e+1)*n(n+1)/2+n*it; padding is 0.
 */
#include "gen_impl.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum variant { V_BLOCKING, V_NONBLOCKING, V_LIGHTWEIGHT, V_MPB };

struct rcce {
    struct gen *g;
    int n, W;
    long E;    /* elements per vector (allgather, alltoall: per block) */
    long maxL; /* lines of the largest block */
    long B;    /* comm buffer lines per core */
    long call, req;
    int rounds; /* flag values per iteration */
    enum variant v;
    bool balanced;
};

/* ---------------------------------------------------------------- expressions */

/* Elements of block J (an expression in t and loop variables). */
static void block_elems(const struct rcce *x, const char *J, char *buf, size_t size)
{
    long base = x->E / x->n, rem = x->E % x->n;
    if (rem == 0)
        snprintf(buf, size, "%ld", base);
    else if (x->balanced)
        snprintf(buf, size, "(%ld+(%ld+n-1-(%s))/n)", base, rem, J);
    else
        snprintf(buf, size, "(%ld+(n-1-(%s))/(n-1)*%ld)", base, J, rem);
}

static long largest_block(const struct rcce *x)
{
    long base = x->E / x->n, rem = x->E % x->n;
    if (rem == 0)
        return base;
    return x->balanced ? base + 1 : base + rem;
}

/* 1 if the expression (0..65535) is positive, else 0. */
static void positive(const char *e, char *buf, size_t size)
{
    snprintf(buf, size, "((%s)+65535)/65536", e);
}

/* ---------------------------------------------------------------- primitives */

/* put/get of `elems` elements (an expression): full lines, then the padded
 * line by its own call. `src`/`dst` are address expressions of line 0. */
static void move(struct rcce *x, const char *who, const char *src_arr, const char *src,
                 const char *dst_arr, const char *dst, const char *elems)
{
    struct gen *g = x->g;
    char full[256], fullp[320], count[900], pad[256];
    snprintf(full, sizeof full, "(%s)/%d", elems, x->W);
    positive(full, fullp, sizeof fullp);
    /* the full lines, or 1 where there are none and the loop does not run:
     * a count that is a constant 0 is refused when the trace loads */
    snprintf(count, sizeof count, "%s+1-%s", full, fullp);
    snprintf(pad, sizeof pad, "((%s)%%%d+%d)/%d", elems, x->W, x->W - 1, x->W);
    gen_for(g, "c", "1", fullp);
    gen_out(g, "%s: compute %ld", who, x->call);
    gen_out(g, "%s: copy %s[%s] %s[%s] %s", who, src_arr, src, dst_arr, dst, count);
    gen_end(g);
    gen_for(g, "c", "1", pad);
    gen_out(g, "%s: compute %ld", who, x->call);
    gen_out(g, "%s: copy %s[%s+%s] %s[%s+%s] 1", who, src_arr, src, full, dst_arr, dst, full);
    gen_end(g);
}

/* The flag value of round R (an expression). */
static void flag_value(const struct rcce *x, const char *R, char *buf, size_t size)
{
    snprintf(buf, size, "it*%d+%s+1", x->rounds, R);
}

/* `who` sets its flag arr[owner*n+t] in owner's MPB. */
static void signal(struct rcce *x, const char *who, const char *arr, const char *owner,
                   const char *val)
{
    gen_out(x->g, "%s: write %s[(%s)*n+t] %s", who, arr, owner, val);
    gen_out(x->g, "%s: flush %s[(%s)*n+t]", who, arr, owner);
}

/* `who` waits for peer's flag arr[t*n+peer] in its own MPB. */
static void await(struct rcce *x, const char *who, const char *arr, const char *peer,
                  const char *val)
{
    gen_out(x->g, "%s: wait %s[t*n+(%s)] >= %s", who, arr, peer, val);
}

/* Blocking send to `to` of `elems` elements from src_arr[src]. */
static void send_blocking(struct rcce *x, const char *who, const char *to, const char *src_arr,
                          const char *src, const char *elems, const char *val)
{
    char own[64];
    snprintf(own, sizeof own, "t*%ld", x->B);
    gen_out(x->g, "%s: compute %ld", who, x->req);
    move(x, who, src_arr, src, "cbuf", own, elems);
    signal(x, who, "sent", to, val);
    await(x, who, "ready", to, val);
}

/* Blocking receive from `from` into dst_arr[dst]. */
static void recv_blocking(struct rcce *x, const char *who, const char *from, const char *dst_arr,
                          const char *dst, const char *elems, const char *val)
{
    char src[128];
    snprintf(src, sizeof src, "(%s)*%ld", from, x->B);
    gen_out(x->g, "%s: compute %ld", who, x->req);
    await(x, who, "sent", from, val);
    move(x, who, "cbuf", src, dst_arr, dst, elems);
    signal(x, who, "ready", from, val);
}

/* A selector for the threads ids[0..cnt) (ascending), ranges compressed. */
static void selector(const int *ids, int cnt, char *buf, size_t size)
{
    size_t len = 0;
    buf[0] = '\0';
    for (int i = 0; i < cnt;) {
        int j = i;
        while (j + 1 < cnt && ids[j + 1] == ids[j] + 1)
            j++;
        len += (size_t)snprintf(buf + len, size - len, "%s%d", len ? "," : "", ids[i]);
        if (j > i)
            len += (size_t)snprintf(buf + len, size - len, "..%d", ids[j]);
        SIM_ASSERT(len < size);
        i = j + 1;
    }
}

/* One exchange of every thread: send to `to`, receive from `from`. */
struct exchange {
    const char *to, *from;
    const char *src_arr, *src, *send_elems;
    const char *dst_arr, *dst, *recv_elems;
    const char *val;
    const bool *recv_first; /* blocking: per thread; NULL: the odd ranks (Fig 4) */
};

static void exchange_blocking(struct rcce *x, const struct exchange *e)
{
    int *rf = sim_xmalloc((size_t)x->n * sizeof *rf), *sf = sim_xmalloc((size_t)x->n * sizeof *sf);
    int nrf = 0, nsf = 0;
    for (int t = 0; t < x->n; t++) {
        bool first = e->recv_first ? e->recv_first[t] : t % 2 == 1;
        if (first)
            rf[nrf++] = t;
        else
            sf[nsf++] = t;
    }
    char sel[4096];
    if (nsf) {
        selector(sf, nsf, sel, sizeof sel);
        send_blocking(x, sel, e->to, e->src_arr, e->src, e->send_elems, e->val);
        recv_blocking(x, sel, e->from, e->dst_arr, e->dst, e->recv_elems, e->val);
    }
    if (nrf) {
        selector(rf, nrf, sel, sizeof sel);
        recv_blocking(x, sel, e->from, e->dst_arr, e->dst, e->recv_elems, e->val);
        send_blocking(x, sel, e->to, e->src_arr, e->src, e->send_elems, e->val);
    }
    free(rf);
    free(sf);
}

/* Non-blocking: isend and irecv posted, then both completed (Fig 5). */
static void exchange(struct rcce *x, const struct exchange *e)
{
    struct gen *g = x->g;
    if (x->v == V_BLOCKING) {
        exchange_blocking(x, e);
        return;
    }
    char own[64];
    snprintf(own, sizeof own, "t*%ld", x->B);
    gen_out(g, "all: compute %ld", x->req); /* isend: the message into the own MPB */
    move(x, "all", e->src_arr, e->src, "cbuf", own, e->send_elems);
    signal(x, "all", "sent", e->to, e->val);
    gen_out(g, "all: compute %ld", x->req); /* irecv */
    char src[128];
    snprintf(src, sizeof src, "(%s)*%ld", e->from, x->B);
    await(x, "all", "sent", e->from, e->val);
    move(x, "all", "cbuf", src, e->dst_arr, e->dst, e->recv_elems);
    signal(x, "all", "ready", e->from, e->val);
    await(x, "all", "ready", e->to, e->val); /* the isend is complete */
}

/* ---------------------------------------------------------------- setup */

static bool rcce_init(struct gen *g, struct rcce *x, bool blocks)
{
    const struct gen_args *a = g->a;
    memset(x, 0, sizeof *x);
    x->g = g;
    x->n = g->n;
    x->W = g->words;
    x->E = a->elements;
    x->v = (enum variant)a->variant;
    x->balanced = a->balanced;
    if (g->mpb_lines == 0) /* the line size and the MPB's lines shape the trace */
        return gen_fail(g,
                        "needs the SCC's message-passing buffers (a machine of protocol scc, "
                        "-c scc); %s",
                        g->pinned ? "this machine has none" : "no machine was given");
    static const long call[] = {100, 100, 100, 100}, req[] = {200, 800, 100, 100};
    x->call = a->overhead >= 0 ? a->overhead : call[x->v];
    x->req = a->request >= 0 ? a->request : req[x->v];
    long blk = blocks ? largest_block(x) : x->E;
    if (blocks && x->E < x->n)
        return gen_fail(g, "%ld elements on %d threads leave empty blocks (elements >= threads)",
                        x->E, x->n);
    x->maxL = (blk + x->W - 1) / x->W;
    long mpb = g->mpb_lines;
    long extra = x->v == V_MPB ? 2 * x->maxL : 0;
    x->B = a->buffer > 0 ? a->buffer : mpb - 2L * x->n - extra;
    if (a->buffer > 0 && x->B > mpb - 2L * x->n - extra)
        return gen_fail(g,
                        "buffer=%ld does not fit the MPB: %ld lines a core, %d flag lines each "
                        "for sent and ready, %ld for the MPB buffers leave %ld",
                        x->B, mpb, x->n, extra, mpb - 2L * x->n - extra);
    if (x->B < x->maxL)
        return gen_fail(g,
                        "a message of %ld lines does not fit the MPB: %ld lines a core, %d "
                        "flag lines each for sent and ready, %ld for the MPB buffers; the "
                        "comm buffer gets %ld (fewer elements or threads)",
                        x->maxL, mpb, x->n, extra, x->B);
    if (x->v == V_BLOCKING && x->n > 512)
        return gen_fail(g, "variant=blocking writes thread lists: at most 512 threads");
    return true;
}

/* The MPB declarations: sent, ready, the comm buffer (and more, after). */
/* The flag lines and the comm buffers (`data`: whether the trace moves any
 * data through them; RCCE's barrier keeps their place in the MPB but uses
 * none). */
static void rcce_decls(struct rcce *x, bool data)
{
    struct gen *g = x->g;
    char d[128];
    gb_printf(&g->out, "%-24s # sent[c*n+s]: in c's MPB, s has put a message for c\n",
              "line sent n*n mpb=each");
    gb_printf(&g->out, "%-24s # ready[c*n+r]: in c's MPB, r has taken c's message\n",
              "line ready n*n mpb=each");
    snprintf(d, sizeof d, "line cbuf n*%ld mpb=each", x->B);
    gb_printf(&g->out, "%-24s # cbuf[c*B..]: c's comm buffer, B = %ld lines%s\n", d, x->B,
              data ? "" : " (kept in its MPB place; the barrier sends no data through it)");
}

/* Element counts of block j: the split's (blocks of one vector over the
 * threads), or whole vectors (allgather, alltoall). */
static void elems_of(const struct rcce *x, bool split, const char *J, char *buf, size_t size)
{
    if (split)
        block_elems(x, J, buf, size);
    else
        snprintf(buf, size, "%ld", x->E);
}

/* arr[t][j] for j < blocks (maxL lines each): element e is
 * (t+1)*(j*maxL*W+e+1)+it; padding stays 0. */
static void fill_vector(struct rcce *x, const char *who, const char *arr, long blocks, bool split)
{
    struct gen *g = x->g;
    char nb[32], e[160], last[200];
    snprintf(nb, sizeof nb, "%ld", blocks - 1);
    gen_for(g, "j", "0", nb);
    elems_of(x, split, "j", e, sizeof e);
    snprintf(last, sizeof last, "%s-1", e);
    gen_for(g, "e", "0", last);
    gen_out(g, "%s: write %s[t*%ld+j*%ld+e/%d].(e%%%d) (t+1)*(j*%ld+e+1)+it", who, arr,
            blocks * x->maxL, x->maxL, x->W, x->W, x->maxL * x->W);
    gen_end(g);
    gen_end(g);
}

/* `who` expects arr[t][j] (j from j0 to j1, expressions) to hold `value`,
 * an expression in j and e. */
static void check_vector(struct rcce *x, const char *who, const char *arr, long blocks,
                         const char *j0, const char *j1, bool split, const char *value)
{
    struct gen *g = x->g;
    char e[160], last[200];
    gen_for(g, "j", j0, j1);
    elems_of(x, split, "j", e, sizeof e);
    snprintf(last, sizeof last, "%s-1", e);
    gen_for(g, "e", "0", last);
    gen_out(g, "%s: expect %s[t*%ld+j*%ld+e/%d].(e%%%d) == %s", who, arr, blocks * x->maxL, x->maxL,
            x->W, x->W, value);
    gen_end(g);
    gen_end(g);
}

/* The expected sum over the threads of element e of block j. */
static void sum_value(const struct rcce *x, char *buf, size_t size)
{
    snprintf(buf, size, "(j*%ld+e+1)*%ld+n*it", x->maxL * x->W, (long)x->n * (x->n + 1) / 2);
}

/* Address of arr[t][J] (n blocks of maxL lines a thread). */
static void at(const struct rcce *x, const char *J, char *buf, size_t size)
{
    snprintf(buf, size, "t*%ld+(%s)*%ld", (long)x->n * x->maxL, J, x->maxL);
}

static void lines_of(const struct rcce *x, const char *elems, char *buf, size_t size)
{
    snprintf(buf, size, "((%s)+%d)/%d", elems, x->W - 1, x->W);
}

/* ---------------------------------------------------------------- ring parts */

/* Reduce-scatter on the ring, through the comm buffers (rounds 0..n-2 of
 * the flag values): in round r thread t sends the partial sum of block
 * (t-r)%n and receives that of block (t-r-1)%n, adding its own; the sum of
 * block (t+1)%n ends in tmp[(n-2)%2]. */
static void reduce_scatter_ring(struct rcce *x)
{
    struct gen *g = x->g;
    char val[128], sendb[160], recvb[160], se[200], re[200], src[200], dst[200], own[200],
        lines[260];
    /* round 0: the own block goes out as it is */
    flag_value(x, "0", val, sizeof val);
    block_elems(x, "t", se, sizeof se);
    block_elems(x, "(t+n-1)%n", re, sizeof re);
    at(x, "t", src, sizeof src);
    snprintf(dst, sizeof dst, "t*%ld", 2 * x->maxL);
    gen_note(g, "reduce-scatter, round 0: the own block out, the left one's in");
    struct exchange e0 = {"(t+1)%n", "(t+n-1)%n", "vec", src, se, "tmp", dst, re, val, NULL};
    exchange(x, &e0);
    at(x, "(t+n-1)%n", own, sizeof own);
    lines_of(x, re, lines, sizeof lines);
    gen_out(g, "all: addline tmp[%s] vec[%s] %s", dst, own, lines);
    if (x->n > 2) {
        char last[32];
        snprintf(last, sizeof last, "%d", x->n - 2);
        gen_note(g, "reduce-scatter, rounds 1..n-2: partial sums around the ring");
        gen_for(g, "r", "1", last);
        flag_value(x, "r", val, sizeof val);
        snprintf(sendb, sizeof sendb, "(t+n-r)%%n");
        snprintf(recvb, sizeof recvb, "(t+2*n-r-1)%%n");
        block_elems(x, sendb, se, sizeof se);
        block_elems(x, recvb, re, sizeof re);
        snprintf(src, sizeof src, "t*%ld+(r+1)%%2*%ld", 2 * x->maxL, x->maxL);
        snprintf(dst, sizeof dst, "t*%ld+r%%2*%ld", 2 * x->maxL, x->maxL);
        struct exchange e = {"(t+1)%n", "(t+n-1)%n", "tmp", src, se, "tmp", dst, re, val, NULL};
        exchange(x, &e);
        at(x, recvb, own, sizeof own);
        lines_of(x, re, lines, sizeof lines);
        gen_out(g, "all: addline tmp[%s] vec[%s] %s", dst, own, lines);
        gen_end(g);
    }
}

/* Reduce-scatter on the MPBs (Sec IV-D, Fig 8), rounds 0..n-1 of the flag
 * values: thread t writes block (t-r)%n's partial sum into its own MPB
 * buffer r%2, its operand the left neighbour's buffer (r-1)%2; it may
 * reuse a buffer once the right neighbour has read it. The paper's
 * operator reads the left MPB and the input vector and writes the own MPB;
 * the trace has no three-operand add, so the left MPB's lines go through
 * tmp (standing for the operator's registers: L1 hits), which gives the
 * same MPB traffic, one remote read and one own write an element. The sum
 * of block (t+1)%n ends in tmp[0]. */
static void reduce_scatter_mpb(struct rcce *x)
{
    struct gen *g = x->g;
    char val[128], prev[128], old[128], blk[64], el[200], lines[260], own[200];
    long L2 = 2 * x->maxL;
    gen_note(g, "reduce-scatter on the MPBs, round 0: the own block into the own MPB");
    flag_value(x, "0", val, sizeof val);
    block_elems(x, "t", el, sizeof el);
    lines_of(x, el, lines, sizeof lines);
    at(x, "t", own, sizeof own);
    gen_out(g, "all: compute %ld", x->call);
    gen_out(g, "all: copy vec[%s] mb[t*%ld] %s", own, L2, lines);
    signal(x, "all", "sent", "(t+1)%n", val);
    for (int part = 0; part < 2; part++) {
        /* rounds 1..n-1; from round 2 on a buffer is reused */
        char from[32], to[32];
        snprintf(from, sizeof from, "%d", part ? 2 : 1);
        snprintf(to, sizeof to, "%d", part ? x->n - 1 : 1);
        if (part && x->n < 3)
            break;
        gen_note(g, part ? "rounds 2..n-1: a buffer is reused once the right one has read it"
                         : "round 1");
        gen_for(g, "r", from, to);
        flag_value(x, "r", val, sizeof val);
        flag_value(x, "r-1", prev, sizeof prev);
        flag_value(x, "r-2", old, sizeof old);
        snprintf(blk, sizeof blk, "(t+n-r)%%n");
        block_elems(x, blk, el, sizeof el);
        lines_of(x, el, lines, sizeof lines);
        at(x, blk, own, sizeof own);
        await(x, "all", "sent", "(t+n-1)%n", prev);
        if (part)
            await(x, "all", "ready", "(t+1)%n", old);
        gen_out(g, "all: compute %ld", x->call);
        gen_out(g, "all: copy mb[(t+n-1)%%n*%ld+(r+1)%%2*%ld] tmp[t*%ld] %s", L2, x->maxL, L2,
                lines);
        gen_out(g, "all: addline tmp[t*%ld] vec[%s] %s", L2, own, lines);
        signal(x, "all", "ready", "(t+n-1)%n", prev);
        /* the last round's sum stays private: nobody reads it from the MPB */
        char last[64];
        snprintf(last, sizeof last, "%d-r", x->n - 1);
        char cond[128];
        positive(last, cond, sizeof cond);
        gen_for(g, "c", "1", cond);
        gen_out(g, "all: copy tmp[t*%ld] mb[t*%ld+r%%2*%ld] %s", L2, L2, x->maxL, lines);
        signal(x, "all", "sent", "(t+1)%n", val);
        gen_end(g);
        gen_end(g);
    }
}

/* Allgather of blocks on the ring (flag values from `base`): thread t
 * starts with block (t+first)%n in res and, in round r, passes block
 * (t+first-r)%n to the right and takes (t+first-r-1)%n from the left. */
static void allgather_ring(struct rcce *x, int base, int first, bool split)
{
    struct gen *g = x->g;
    char last[32], val[128], r[64], sb[96], rb[96], se[200], re[200], src[200], dst[200];
    snprintf(last, sizeof last, "%d", x->n - 2);
    snprintf(r, sizeof r, "r+%d", base);
    gen_note(g, "allgather on the ring: n-1 rounds");
    gen_for(g, "r", "0", last);
    flag_value(x, r, val, sizeof val);
    snprintf(sb, sizeof sb, "(t+%d+n-r)%%n", first);
    snprintf(rb, sizeof rb, "(t+%d+2*n-r-1)%%n", first);
    elems_of(x, split, sb, se, sizeof se);
    elems_of(x, split, rb, re, sizeof re);
    at(x, sb, src, sizeof src);
    at(x, rb, dst, sizeof dst);
    struct exchange e = {"(t+1)%n", "(t+n-1)%n", "res", src, se, "res", dst, re, val, NULL};
    exchange(x, &e);
    gen_end(g);
}

/* The reduce-scatter of the variant; the sum of block (t+1)%n ends in
 * res[t][(t+1)%n]. Uses flag values 0..n-1. */
static void reduce_scatter(struct rcce *x)
{
    char el[200], lines[260], dst[200];
    block_elems(x, "(t+1)%n", el, sizeof el);
    lines_of(x, el, lines, sizeof lines);
    at(x, "(t+1)%n", dst, sizeof dst);
    if (x->v == V_MPB) {
        reduce_scatter_mpb(x);
        gen_out(x->g, "all: copy tmp[t*%ld] res[%s] %s", 2 * x->maxL, dst, lines);
    } else {
        reduce_scatter_ring(x);
        gen_out(x->g, "all: copy tmp[t*%ld+%d*%ld] res[%s] %s", 2 * x->maxL, (x->n - 2) % 2,
                x->maxL, dst, lines);
    }
}

/* ---------------------------------------------------------------- generators */

static void private_decls(struct rcce *x, long vec_blocks, bool tmp)
{
    struct gen *g = x->g;
    char d[96];
    snprintf(d, sizeof d, "line vec n*%ld", vec_blocks * x->maxL);
    gb_printf(&g->out, "%-24s # vec[t][j]: thread t's input, %ld lines a block\n", d, x->maxL);
    snprintf(d, sizeof d, "line res n*%ld", (long)x->n * x->maxL);
    gb_printf(&g->out, "%-24s # res[t][j]: thread t's result, block j\n", d);
    if (tmp) {
        snprintf(d, sizeof d, "line tmp n*%ld", 2 * x->maxL);
        gb_printf(&g->out, "%-24s # tmp[t][2]: partial sums received\n", d);
    }
    if (x->v == V_MPB) {
        snprintf(d, sizeof d, "line mb n*%ld mpb=each", 2 * x->maxL);
        gb_printf(&g->out, "%-24s # mb[t][2]: t's two MPB result buffers (Fig 8)\n", d);
    }
}

static bool scc_allreduce(struct gen *g, bool reduce_only, bool scatter_only)
{
    struct rcce x;
    if (!rcce_init(g, &x, true))
        return false;
    x.rounds = 3 * x.n;
    rcce_decls(&x, true);
    private_decls(&x, x.n, true);
    gen_iter_open(g);
    fill_vector(&x, "all", "vec", x.n, true);
    gen_sync(g);
    reduce_scatter(&x);
    char val[128], sum[128], el[200], src[200], dst[200];
    if (reduce_only) {
        /* gather to thread 0: each sends its block's sum (flag values n..2n-2) */
        gen_note(g, "gather of the sums to thread 0");
        flag_value(&x, "n+t-1", val, sizeof val);
        block_elems(&x, "(t+1)%n", el, sizeof el);
        at(&x, "(t+1)%n", src, sizeof src);
        send_blocking(&x, "others", "0", "res", src, el, val);
        gen_for(g, "s", "1", "n-1");
        flag_value(&x, "n+s-1", val, sizeof val);
        block_elems(&x, "(s+1)%n", el, sizeof el);
        at(&x, "(s+1)%n", dst, sizeof dst);
        recv_blocking(&x, "0", "s", "res", dst, el, val);
        gen_end(g);
    } else if (!scatter_only)
        allgather_ring(&x, x.n, 1, true);
    gen_mark(g);
    sum_value(&x, sum, sizeof sum);
    if (reduce_only)
        check_vector(&x, "0", "res", x.n, "0", "n-1", true, sum);
    else if (scatter_only)
        check_vector(&x, "all", "res", x.n, "(t+1)%n", "(t+1)%n", true, sum);
    else
        check_vector(&x, "all", "res", x.n, "0", "n-1", true, sum);
    gen_end(g);

    return true;
}

bool gen_emit_scc_allreduce(struct gen *g)
{
    return scc_allreduce(g, false, false);
}

bool gen_emit_scc_reduce(struct gen *g)
{
    return scc_allreduce(g, true, false);
}

bool gen_emit_scc_reducescatter(struct gen *g)
{
    return scc_allreduce(g, false, true);
}

/* Broadcast (RCCE_comm's scatter-allgather for long messages): thread 0
 * sends block j to thread j, then an allgather of the blocks. */
bool gen_emit_scc_bcast(struct gen *g)
{
    struct rcce x;
    if (!rcce_init(g, &x, true))
        return false;
    x.rounds = 2 * x.n;
    rcce_decls(&x, true);
    private_decls(&x, x.n, false);
    gen_iter_open(g);
    fill_vector(&x, "0", "vec", x.n, true);
    gen_sync(g);
    char val[128], el[200], lines[260], src[200], dst[200];
    gen_note(g, "scatter: thread 0 sends block j to thread j");
    block_elems(&x, "0", el, sizeof el);
    lines_of(&x, el, lines, sizeof lines);
    gen_out(g, "0: copy vec[0] res[0] %s", lines);
    gen_for(g, "j", "1", "n-1");
    flag_value(&x, "j-1", val, sizeof val);
    block_elems(&x, "j", el, sizeof el);
    at(&x, "j", src, sizeof src);
    send_blocking(&x, "0", "j", "vec", src, el, val);
    gen_end(g);
    flag_value(&x, "t-1", val, sizeof val);
    block_elems(&x, "t", el, sizeof el);
    at(&x, "t", dst, sizeof dst);
    recv_blocking(&x, "others", "0", "res", dst, el, val);
    allgather_ring(&x, x.n, 0, true);
    gen_mark(g);
    char value[128];
    snprintf(value, sizeof value, "j*%ld+e+1+it", x.maxL * x.W);
    check_vector(&x, "all", "res", x.n, "0", "n-1", true, value);
    gen_end(g);

    return true;
}

/* Allgather: every thread's whole vector of E elements to every thread. */
bool gen_emit_scc_allgather(struct gen *g)
{
    struct rcce x;
    if (!rcce_init(g, &x, false))
        return false;
    x.rounds = x.n;
    rcce_decls(&x, true);
    private_decls(&x, 1, false);
    gen_iter_open(g);
    fill_vector(&x, "all", "vec", 1, false);
    gen_sync(g);
    char lines[64], dst[200];
    snprintf(lines, sizeof lines, "%ld", x.maxL);
    at(&x, "t", dst, sizeof dst);
    gen_out(g, "all: copy vec[t*%ld] res[%s] %s", x.maxL, dst, lines);
    allgather_ring(&x, 0, 0, false);
    gen_mark(g);
    check_vector(&x, "all", "res", x.n, "0", "n-1", false, "(j+1)*(e+1)+it");
    gen_end(g);

    return true;
}

/* Alltoall: block j of thread t goes to thread j; in round r thread t
 * sends to t+r and receives from t-r. Blocking: the +r permutation is a
 * union of cycles, and along each cycle the threads at odd positions
 * receive first (the ring's odd-even order of Fig 4, cycle by cycle; an odd
 * cycle has two neighbours that both send first, which resolves as on the
 * ring). */
bool gen_emit_scc_alltoall(struct gen *g)
{
    struct rcce x;
    if (!rcce_init(g, &x, false))
        return false;
    x.rounds = x.n;
    rcce_decls(&x, true);
    private_decls(&x, x.n, false);
    gen_iter_open(g);
    fill_vector(&x, "all", "vec", x.n, false);
    gen_sync(g);
    char lines[64], own[200], val[128], to[64], from[64], src[200], dst[200], el[32];
    snprintf(lines, sizeof lines, "%ld", x.maxL);
    snprintf(el, sizeof el, "%ld", x.E);
    at(&x, "t", own, sizeof own);
    gen_out(g, "all: copy vec[%s] res[%s] %s", own, own, lines);
    bool *first = sim_xcalloc((size_t)x.n, sizeof *first);
    for (int r = 1; r < x.n; r++) {
        /* the +r permutation is a union of cycles; along each, odd
         * positions receive first (Fig 4's order, cycle by cycle) */
        for (int t = 0; t < x.n; t++)
            first[t] = false;
        bool *seen = sim_xcalloc((size_t)x.n, sizeof *seen);
        for (int c = 0; c < x.n; c++)
            for (int t = c, pos = 0; !seen[t]; t = (t + r) % x.n, pos++) {
                seen[t] = true;
                first[t] = pos % 2 == 1;
            }
        free(seen);
        gen_note(g, "round %d: to t+%d, from t-%d", r, r, r);
        snprintf(val, sizeof val, "it*%d+%d", x.rounds, r);
        snprintf(to, sizeof to, "(t+%d)%%n", r);
        snprintf(from, sizeof from, "(t+n-%d)%%n", r);
        at(&x, to, src, sizeof src);
        at(&x, from, dst, sizeof dst);
        struct exchange e = {to, from, "vec", src, el, "res", dst, el, val, first};
        exchange(&x, &e);
    }
    free(first);
    gen_mark(g);
    char value[128];
    snprintf(value, sizeof value, "(j+1)*(t*%ld+e+1)+it", x.maxL * x.W);
    check_vector(&x, "all", "res", x.n, "0", "n-1", false, value);
    gen_end(g);

    return true;
}

/* RCCE_barrier's shape: every thread sets its flag in thread 0's MPB,
 * thread 0 waits for each, then sets the release flag in every MPB. The
 * check: arrive[t] (in t's MPB) is it+1 for every t afterwards. */
bool gen_emit_scc_barrier(struct gen *g)
{
    struct rcce x;
    struct gen_args a = *g->a;
    a.elements = g->n; /* no data: one element a block, a one-line buffer */
    a.buffer = 1;
    const struct gen_args *saved = g->a;
    g->a = &a;
    bool ok = rcce_init(g, &x, true);
    g->a = saved;
    if (!ok)
        return false;
    x.rounds = 1;
    rcce_decls(&x, false);
    gb_printf(&g->out, "%-24s # arrive[t]: it+1 once t entered (in t's MPB)\n",
              "line arrive n mpb=each");
    gen_iter_open(g);
    gen_sync(g);
    gen_out(g, "all: write arrive[t] it+1");
    gen_out(g, "all: flush arrive[t]");
    char val[64];
    flag_value(&x, "0", val, sizeof val);
    gen_out(g, "others: compute %ld", x.req);
    signal(&x, "others", "sent", "0", val);
    gen_out(g, "0: compute %ld", x.req);
    gen_for(g, "s", "1", "n-1");
    await(&x, "0", "sent", "s", val);
    gen_end(g);
    gen_for(g, "s", "1", "n-1");
    gen_out(g, "0: write ready[s*n] %s", val);
    gen_out(g, "0: flush ready[s*n]");
    gen_end(g);
    await(&x, "others", "ready", "0", val);
    gen_mark(g);
    gen_out(g, "all: invmb");
    gen_out(g, "all: expect arrive[0..n-1] == it+1");
    gen_end(g);

    return true;
}
