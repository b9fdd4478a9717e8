/*
 * murphi.c -- a protocol's tables as a Murphi model (Rumur's dialect: no
 * union, no multiset), for `ccsim protocol NAME --murphi` and `ccsim
 * verify`. The model is generated from what the simulator runs: each table
 * is one procedure with a case per (state, event) cell that runs its row's
 * actions and sets its next state; every action is a procedure whose body
 * is its catalogue row's Murphi (cc_internal.h); the runtime's glue
 * (runtime.c: which event a message is, parking and replaying requests, the
 * internal Done event, the home's queue) is written here beside the C it
 * mirrors. The rules are the events (a core's request, a replacement, a
 * message at a cache or at the home, a parked request, Done, memory's
 * answers), with the event a parameter, so a counterexample names the cell
 * of each step.
 *
 * The model. NC caches, one home, NL lines, data values 0..NV-1.
 *   - Network: one channel per node, a bag of messages (delivered in any
 *     order: the runtime needs no point-to-point order, the random tester's
 *     jitter reorders freely), kept sorted so that equal bags are one
 *     state, with its bound checked by an assert.
 *   - A core has at most one request (a Load or a Store) outstanding; it
 *     waits in the cache (a stall row) and is replayed as soon as its line
 *     is stable, before the cache takes any message (runtime.c replays
 *     parked requests in the same step).
 *   - Replacements fire nondeterministically on any stable copy without a
 *     waiting request.
 *   - The home takes one message at a time; a stalled request waits in the
 *     line's FIFO queue, served first when the line is stable; a transient
 *     line whose awaited answers are all in raises Done before anything
 *     else happens to it; memory answers at any later time.
 *   - Data: every copy, message and memory holds its value's age: 0 is the
 *     line's last write (the ghost), k a value k writes older (NV-1: that
 *     or older). A store ages every value of its line and writes age 0.
 *     Which value a store writes does not matter to a protocol, only
 *     whether a copy holds the last write, so NV = 2 is exact.
 *   - As in the runtime, Done follows a home row in the same step when
 *     nothing more is awaited, and a request parked on a line is replayed
 *     in the step that makes the line stable; the drain of a stable line's
 *     queue is a step of its own that goes before any other.
 *   - home.probe_filter and home.owned_write_writeback are constants of
 *     the model (cc_murphi_opts), one model per setting.
 *   - home.probe_per_socket is not: the model has no sockets and its
 *     broadcast home probes every cache the directory does not list. A
 *     probe's answer changes no state, so the simulator's one probe a
 *     socket sends a subset of the model's probes.
 */
#include "cc_internal.h"

#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

static const char *const cache_states[CS_COUNT] = {
#define X(name, doc) #name,
    CC_CACHE_STATES(X)
#undef X
};
static const char *const home_states[HS_COUNT] = {
#define X(name, doc) #name,
    CC_HOME_STATES(X)
#undef X
};
static const char *const cache_actions[] = {
#define X(name, doc, murphi) #name,
    CC_CACHE_ACTIONS(X)
#undef X
};
static const char *const home_actions[] = {
#define X(name, doc, murphi) #name,
    CC_HOME_ACTIONS(X)
#undef X
};

/* ------------------------------------------------------------ declarations */

/* Text kept in pieces (C99 compilers need take only 4095-byte strings). */
static void print_text(FILE *f, const char *const *pieces)
{
    for (; *pieces; pieces++)
        fputs(*pieces, f);
}

static void print_enum(FILE *f, const char *type, const char *prefix, const char *const *names,
                       int n, const char *first)
{
    fprintf(f, "  %s: enum { ", type);
    if (first)
        fprintf(f, "%s, ", first);
    for (int i = 0; i < n; i++)
        fprintf(f, "%s%s%s", prefix, names[i], i + 1 < n ? ", " : " };\n");
}

static void print_header(FILE *f, const struct cc_protocol *p, const struct cc_murphi_opts *o)
{
    /* the command that writes this model again: --broadcast and
     * --owned-write-writeback are verify's (it writes the model with --keep) */
    bool verify_only = o->broadcast || o->owned_write_writeback;
    char queue[32] = "";
    if (o->queue)
        snprintf(queue, sizeof queue, " --queue %d", o->queue);
    fprintf(f, "-- ccsim %s %s%s --caches %d --lines %d --values %d%s%s%s%s%s\n",
            verify_only ? "verify" : "protocol", p->name, verify_only ? "" : " --murphi", o->caches,
            o->lines, o->values, queue, o->broadcast ? " --broadcast" : "",
            o->owned_write_writeback ? " --owned-write-writeback" : "", o->retry ? " --retry" : "",
            verify_only ? " --keep DIR" : "");
    /* a variant's tables live in its family's file (mesif-llc: mesif.c) */
    int family = (int)strcspn(p->name, "-");
    fprintf(f,
            "-- A Murphi model (Rumur) of the tables ccsim runs for %s, generated from them:\n"
            "-- protocols/%.*s.c, the catalogues of protocols/cc_internal.h (each action's\n"
            "-- Murphi body is in its catalogue row) and the runtime's glue (protocols/\n"
            "-- murphi.c). Do not edit: regenerate. `ccsim verify %s` checks it.\n",
            p->name, family, p->name, p->name);
    fprintf(f,
            "--\n"
            "-- Network: a bag per node (any delivery order), bounded by QC, QH (asserts).\n"
            "-- A core has one request outstanding; replacements fire on any stable copy.\n"
            "-- cache_row_of and home_row_of give the row of each (state, event) cell,\n"
            "-- numbered as in `ccsim protocol %s` (from 1 in each table); cache_run and\n"
            "-- home_run run it.\n\n",
            p->name);
}

/* Whether a protocol's writers collect invalidation acks themselves (GOLS). */
static bool writer_collects_acks(const struct cc_protocol *p)
{
    for (size_t i = 0; i < p->cache.nrows; i++)
        for (int a = 0; a < CC_MAX_ACTIONS && p->cache.rows[i].actions[a]; a++)
            if (p->cache.rows[i].actions[a] == &cc_act_send_inv_ack_to_req)
                return true;
    return false;
}

/* Channel bounds: a cache gets at most three of a data or grant, an
 * invalidation, a forward, a put ack and a probe for a line at a time, or,
 * where writers collect the acks, a writer its data or grant and an ack
 * from every other cache; the home at most a request or put and the
 * answers of a transaction from each cache. Too small a bound fails the
 * check on its assert, it does not hide a state. */
int cc_murphi_cache_queue(const struct cc_protocol *p, const struct cc_murphi_opts *o)
{
    if (o->queue)
        return o->queue;
    int per_line = writer_collects_acks(p) && o->caches > 3 ? o->caches : 3;
    return per_line * o->lines;
}

int cc_murphi_home_queue(const struct cc_murphi_opts *o)
{
    if (o->queue)
        return o->queue;
    /* with retry, the requests the home refuses wait in its channel too */
    return (2 * o->caches + 1 + (o->retry ? o->caches : 0)) * o->lines;
}

static void print_consts(FILE *f, const struct cc_protocol *p, const struct cc_murphi_opts *o)
{
    fprintf(f, "const\n");
    fprintf(f, "  NC: %d;                 -- caches\n", o->caches);
    fprintf(f, "  NL: %d;                 -- lines\n", o->lines);
    fprintf(f, "  NV: %d;                 -- data values: ages (0: the last write)\n", o->values);
    fprintf(f, "  QC: %d;                 -- messages a cache's channel holds\n",
            cc_murphi_cache_queue(p, o));
    fprintf(f, "  QH: %d;                 -- messages the home's channel holds\n",
            cc_murphi_home_queue(o));
    fprintf(f, "  HQMAX: %d;              -- requests the home parks per line\n", o->caches);
    fprintf(f, "  PMAX: %d;               -- answers a transaction awaits\n", 2 * o->caches + 2);
    fprintf(f, "  PUTS_CARRY_DATA: %s;   -- a sharer's eviction carries the line\n",
            p->puts_carry_data ? "true" : "false");
    fprintf(f, "  probe_filter: %s;      -- home.probe_filter (false: a broadcast home)\n",
            o->broadcast ? "false" : "true");
    fprintf(f, "  owned_write_writeback: %s; -- home.owned_write_writeback\n",
            o->owned_write_writeback ? "true" : "false");
    fprintf(f, "  RETRY: %s;             -- home.retry_cycles > 0: a busy line refuses requests\n",
            o->retry ? "true" : "false");
    fprintf(f, "  -- message types (numbers: a channel is sorted by them)\n  M_NONE: 0;\n");
    for (int t = 0; t < M_COUNT; t++)
        fprintf(f, "  M_%s: %d;\n", cc_msg_names[t], t + 1);
    fprintf(f, "\n");
}

static void print_types(FILE *f)
{
    fprintf(f, "type\n  Cache: scalarset(NC);  -- the model is symmetric in the caches\n"
               "  Line: 0..NL-1;\n  Value: 0..NV-1;\n");
    print_enum(f, "CState", "C_", cache_states, CS_COUNT, NULL);
    print_enum(f, "CEvent", "CE_", cc_cache_event_names, CE_COUNT, NULL);
    print_enum(f, "HState", "H_", home_states, HS_COUNT, NULL);
    print_enum(f, "HEvent", "HE_", cc_home_event_names, HE_COUNT, NULL);
    fprintf(f, "  MType: 0..%d;\n", M_COUNT);
    print_enum(f, "CAct", "CA_", cache_actions, (int)SIM_COUNT_OF(cache_actions), NULL);
    print_enum(f, "HAct", "HA_", home_actions, (int)SIM_COUNT_OF(home_actions), NULL);
    fprintf(f, "  ReqKind: enum { R_None, R_Load, R_Store };\n"
               "  -- src: the sending cache (undefined: the home); rq: the requester\n"
               "  -- acks: the acks a forward, data or grant tells the requester to await\n"
               "  Msg: record t: MType; ln: Line; src: Cache; rq: Cache; data: boolean;\n"
               "    v: Value; gone: boolean; acks: 0..NC; end;\n"
               "  CChan: record n: 0..QC; m: array[0..QC-1] of Msg; end;\n"
               "  HChan: record n: 0..QH; m: array[0..QH-1] of Msg; end;\n"
               "  -- got, need: acks in and awaited (IM_D, IM_A, SM_D, SM_A; else 0)\n"
               "  CLine: record st: CState; v: Value; got: 0..NC; need: 0..NC; end;\n"
               "  CacheRec: record ln: array[Line] of CLine; rq: ReqKind; rl: Line; end;\n"
               "  -- owner, fwd, requester, supplier: undefined when there is none\n"
               "  Dir: record\n"
               "    st: HState; owner: Cache; fwd: Cache; sharer: array[Cache] of boolean;\n"
               "    mem: Value; requester: Cache; pending: 0..PMAX; supplier: Cache;\n"
               "    gone: boolean; upgrade: boolean; acks: 0..NC;\n"
               "    mem_reads: 0..2; mem_acks: 0..2; qn: 0..HQMAX; q: array[0..HQMAX-1] of Msg;\n"
               "  end;\n"
               "  -- a step's request: the core's own (C[c].rq), or a sibling thread's\n"
               "  Step: record stalled: boolean; performed: boolean; req: ReqKind;\n"
               "    sibling: boolean; end;\n\n");
    fprintf(f, "var\n"
               "  net: array[Cache] of CChan;  -- what each cache is sent\n"
               "  hnet: HChan;                 -- what the home is sent\n"
               "  C: array[Cache] of CacheRec;\n"
               "  D: array[Line] of Dir;\n"
               "  U: boolean;  -- urgent(), kept up to date: the guards read it\n\n");
}

/* ------------------------------------------------------------ state sets */

static void print_state_set(FILE *f, const char *fn, const char *type, const char *prefix,
                            const char *const *names, int n, bool (*in)(int))
{
    fprintf(f, "function %s(s: %s): boolean;\nbegin\n  return false", fn, type);
    for (int i = 0; i < n; i++)
        if (in(i))
            fprintf(f, " | s = %s%s", prefix, names[i]);
    fprintf(f, ";\nend;\n\n");
}

static bool cache_stable(int st)
{
    return st < CS_IS_D;
}

static bool home_stable(int st)
{
    return st < HS_IE_M;
}

static void print_state_sets(FILE *f)
{
    print_state_set(f, "stable_c", "CState", "C_", cache_states, CS_COUNT, cache_stable);
    print_state_set(f, "readable", "CState", "C_", cache_states, CS_COUNT, cc_state_readable);
    print_state_set(f, "writable", "CState", "C_", cache_states, CS_COUNT, cc_state_writable);
    print_state_set(f, "stable_h", "HState", "H_", home_states, HS_COUNT, home_stable);
}

/* ------------------------------------------------------------ cells */

/* The row of each (state, event) cell, as the runtime expands the tables. */
struct cells {
    const struct cc_row *cache[CS_COUNT][CE_COUNT];
    const struct cc_row *home[HS_COUNT][HE_COUNT];
};

static void expand(const struct cc_table *t, const struct cc_row **cells, int nstates, int nevents)
{
    for (size_t i = 0; i < t->nrows; i++)
        for (int st = 0; st < nstates; st++)
            for (int ev = 0; ev < nevents; ev++)
                if ((t->rows[i].states & CC_BIT(st)) && (t->rows[i].events & CC_BIT(ev)) &&
                    !cells[st * nevents + ev])
                    cells[st * nevents + ev] = &t->rows[i];
}

static bool row_stalls(const struct cc_row *r)
{
    for (int a = 0; a < CC_MAX_ACTIONS && r->actions[a]; a++)
        if (r->actions[a] == &cc_act_stall || r->actions[a] == &hc_act_stall)
            return true;
    return false;
}

/* function NAME(s, e): the row of the cell (1..), or 0; with takes, only
 * rows that do not stall count. */
static void print_row_fn(FILE *f, const char *fn, const char *stype, const char *etype,
                         const char *sp, const char *ep, const char *const *snames,
                         const char *const *enames, const struct cc_table *t,
                         const struct cc_row **cells, int ns, int ne, bool takes)
{
    fprintf(f, "function %s(s: %s; e: %s): %s;\nbegin\n  switch s\n", fn, stype, etype,
            takes ? "boolean" : "0..64");
    for (int st = 0; st < ns; st++) {
        bool any = false;
        for (int ev = 0; ev < ne; ev++) {
            const struct cc_row *r = cells[st * ne + ev];
            if (!r || (takes && row_stalls(r)))
                continue;
            if (!any)
                fprintf(f, "  case %s%s:\n    switch e\n", sp, snames[st]);
            any = true;
            if (takes)
                fprintf(f, "    case %s%s: return true;\n", ep, enames[ev]);
            else
                fprintf(f, "    case %s%s: return %zu;\n", ep, enames[ev],
                        (size_t)(r - t->rows) + 1);
        }
        if (any)
            fprintf(f, "    else return %s;\n    endswitch;\n", takes ? "false" : "0");
    }
    fprintf(f, "  else return %s;\n  endswitch;\nend;\n\n", takes ? "false" : "0");
}

/* A sibling thread's request in a cell whose row only parks it, or only
 * performs it, leaving the line as it is: the invariant sibling_ok judges
 * it without a step; any other row (none in the tables built) runs as a
 * rule. */
static int sibling_kind(const struct cc_row *r)
{
    if (!r || r->next != CC_SAME || !r->actions[0] || r->actions[1])
        return 0;
    return r->actions[0] == &cc_act_stall ? 1 : r->actions[0] == &cc_act_perform_request ? 2 : 0;
}

static void print_siblings(FILE *f, const struct cells *cl)
{
    fprintf(f, "function sibling_simple(s: CState; e: CEvent): boolean;\nbegin\n  return false");
    for (int st = 0; st < CS_COUNT; st++)
        for (int ev = CE_Load; ev <= CE_Store; ev++)
            if (sibling_kind(cl->cache[st][ev]) || !cl->cache[st][ev])
                fprintf(f, "\n    | (s = C_%s & e = CE_%s)", cache_states[st],
                        cc_cache_event_names[ev]);
    fprintf(f, ";\nend;\n\n");
    fprintf(f, "-- a sibling's request in state s has a row, and performs only on a copy\n"
               "-- it may read (a load) or write (a store)\n"
               "function sibling_ok(s: CState): boolean;\nbegin\n  switch s\n");
    for (int st = 0; st < CS_COUNT; st++) {
        const struct cc_row *ld = cl->cache[st][CE_Load], *sr = cl->cache[st][CE_Store];
        bool ok = ld && sr;
        ok = ok && (sibling_kind(ld) != 2 || cc_state_readable(st));
        ok = ok && (sibling_kind(sr) != 2 || cc_state_writable(st));
        fprintf(f, "  case C_%s: return %s;\n", cache_states[st], ok ? "true" : "false");
    }
    fprintf(f, "  endswitch;\nend;\n\n");
}

/* Whether a home row chooses a cache (a supplier among the sharers). */
static bool row_picks(const struct cc_row *r)
{
    for (int a = 0; a < CC_MAX_ACTIONS && r->actions[a]; a++)
        if (r->actions[a] == &hc_act_share_read ||
            r->actions[a] == &hc_act_inv_sharers_but_supplier ||
            r->actions[a] == &hc_act_pick_supplier)
            return true;
    return false;
}

static void print_row_picks(FILE *f, const struct cc_table *t)
{
    bool any = false;
    fprintf(f, "function row_picks(row: 0..64): boolean;\nbegin\n  return false");
    for (size_t i = 0; i < t->nrows; i++)
        if (row_picks(&t->rows[i])) {
            fprintf(f, " | row = %zu", i + 1);
            any = true;
        }
    fprintf(f, ";\nend;\n\nconst PICKS: %s; -- some row chooses a cache\n\n",
            any ? "true" : "false");
}

/* The cache event of a message type (runtime.c cc_cache_event_of). */
static void print_cache_event(FILE *f)
{
    fprintf(f, "function cache_event_of(t: MType): CEvent;\nbegin\n  switch t\n");
    for (int t = 0; t < M_COUNT; t++)
        if (cc_cache_event_of(t) >= 0)
            fprintf(f, "  case M_%s: return CE_%s;\n", cc_msg_names[t],
                    cc_cache_event_names[cc_cache_event_of(t)]);
    fprintf(f, "  else error \"a cache got a message it has no event for\";\n  endswitch;\n"
               "  return CE_Probe;\nend;\n\n");
    fprintf(f,
            "-- refined by the acks (runtime.c cc_cache_event_counted)\n"
            "function cache_event(m: Msg; cl: CLine): CEvent;\nvar e: CEvent;\nbegin\n"
            "  e := cache_event_of(m.t);\n"
            "  if e = CE_Data_M & m.acks > cl.got then return CE_Data_A; endif;\n"
            "  if e = CE_Grant & m.acks > cl.got then return CE_Grant_A; endif;\n"
            "  if e = CE_Inv_Ack & (cl.st = C_IM_A | cl.st = C_SM_A) & cl.got + 1 = cl.need then\n"
            "    return CE_Last_Ack;\n  endif;\n  return e;\nend;\n\n");
}

/* ------------------------------------------------------------ the glue */

/* Messages, channels, the home's queue, and the helpers action bodies use.
 * (Rumur copies a procedure's body at every call: helpers that many
 * actions call, like send, call little themselves.) */
static const char *const glue[] = {
    "procedure clear_msg(var m: Msg);\n"
    "begin\n"
    "  m.t := M_NONE; m.ln := 0; undefine m.src; undefine m.rq; m.data := false; m.v := 0;\n"
    "  m.gone := false; m.acks := 0;\n"
    "end;\n\n"
    "-- a channel is a bag, kept sorted (on all but the caches' names)\n"
    "function mkey(m: Msg): 0..KMAX;\n"
    "begin\n"
    "  return ((((m.t * NL + m.ln) * 2 + (m.data ? 1 : 0)) * NV + m.v) * 2 + (m.gone ? 1 : 0))\n"
    "    * (NC + 1) + m.acks;\n"
    "end;\n\n"
    "procedure deliver_c(dst: Cache; m: Msg);\n"
    "var p: 0..QC; t: Msg;\n"
    "begin\n"
    "  assert net[dst].n < QC \"a cache's channel holds more messages than its bound (QC)\";\n"
    "  p := net[dst].n;\n"
    "  net[dst].m[p] := m;\n"
    "  net[dst].n := p + 1;\n"
    "  while p > 0 do\n"
    "    if mkey(net[dst].m[p - 1]) > mkey(m) then\n"
    "      t := net[dst].m[p - 1]; net[dst].m[p - 1] := m; net[dst].m[p] := t; p := p - 1;\n"
    "    else\n"
    "      p := 0;\n"
    "    endif;\n"
    "  end;\n"
    "end;\n\n"
    "procedure deliver_h(m: Msg);\n"
    "var p: 0..QH; t: Msg;\n"
    "begin\n"
    "  assert hnet.n < QH \"the home's channel holds more messages than its bound (QH)\";\n"
    "  p := hnet.n;\n"
    "  hnet.m[p] := m;\n"
    "  hnet.n := p + 1;\n"
    "  while p > 0 do\n"
    "    if mkey(hnet.m[p - 1]) > mkey(m) then\n"
    "      t := hnet.m[p - 1]; hnet.m[p - 1] := m; hnet.m[p] := t; p := p - 1;\n"
    "    else\n"
    "      p := 0;\n"
    "    endif;\n"
    "  end;\n"
    "end;\n\n"
    "procedure to_home(t: MType; c: Cache; l: Line; rq: Cache; data: boolean; v: Value;\n"
    "                  gone: boolean);\n"
    "var m: Msg;\n"
    "begin\n"
    "  m.t := t; m.ln := l; m.src := c; m.rq := rq; m.data := data; m.gone := gone;\n"
    "  m.v := data ? v : 0; m.acks := 0;\n"
    "  deliver_h(m);\n"
    "end;\n\n"
    "procedure to_peer(t: MType; c: Cache; rq: Cache; l: Line; v: Value; acks: 0..NC);\n"
    "var m: Msg;\n"
    "begin\n"
    "  m.t := t; m.ln := l; m.src := c; m.rq := rq; m.data := true; m.gone := false;\n"
    "  m.v := v; m.acks := acks;\n"
    "  deliver_c(rq, m);\n"
    "end;\n\n"
    "-- an invalidated copy's ack, to the requester that collects them\n"
    "procedure ack_peer(c: Cache; rq: Cache; l: Line);\n"
    "var m: Msg;\n"
    "begin\n"
    "  m.t := M_INV_ACK; m.ln := l; m.src := c; m.rq := rq; m.data := false; m.gone := false;\n"
    "  m.v := 0; m.acks := 0;\n"
    "  deliver_c(rq, m);\n"
    "end;\n\n"
    "-- a message from the home; acks: the invalidation acks it tells the\n"
    "-- requester to await (a forward carries the count on to the requester)\n"
    "procedure to_cache_counted(t: MType; dst: Cache; l: Line; rq: Cache; data: boolean;\n"
    "                           v: Value; acks: 0..NC);\n"
    "var m: Msg;\n"
    "begin\n"
    "  m.t := t; m.ln := l; undefine m.src; m.rq := rq; m.data := data; m.gone := false;\n"
    "  m.v := data ? v : 0; m.acks := acks;\n"
    "  deliver_c(dst, m);\n"
    "end;\n\n"
    "procedure to_cache(t: MType; dst: Cache; l: Line; rq: Cache; data: boolean; v: Value);\n"
    "begin\n"
    "  to_cache_counted(t, dst, l, rq, data, v, 0);\n"
    "end;\n\n"
    "procedure to_cache_acks(t: MType; dst: Cache; l: Line; rq: Cache; acks: 0..NC);\n"
    "begin\n"
    "  to_cache_counted(t, dst, l, rq, false, 0, acks);\n"
    "end;\n\n",
    "procedure take_c(c: Cache; i: 0..QC-1);\n"
    "begin\n"
    "  for j: 0..QC-2 do\n"
    "    if j >= i & j + 1 < net[c].n then net[c].m[j] := net[c].m[j + 1]; endif;\n"
    "  end;\n"
    "  net[c].n := net[c].n - 1;\n"
    "  clear_msg(net[c].m[net[c].n]);\n"
    "end;\n\n"
    "procedure take_h(i: 0..QH-1);\n"
    "begin\n"
    "  for j: 0..QH-2 do\n"
    "    if j >= i & j + 1 < hnet.n then hnet.m[j] := hnet.m[j + 1]; endif;\n"
    "  end;\n"
    "  hnet.n := hnet.n - 1;\n"
    "  clear_msg(hnet.m[hnet.n]);\n"
    "end;\n\n"
    "-- a request for a busy line waits in the line's queue or, with RETRY\n"
    "-- (runtime.c cc_park_message, home.retry_cycles), is refused and comes\n"
    "-- back through the home's input: any later step may take it again\n"
    "procedure park(l: Line; m: Msg);\n"
    "begin\n"
    "  if RETRY then\n"
    "    deliver_h(m);\n"
    "  else\n"
    "    assert D[l].qn < HQMAX \"a home parks more requests than its bound (HQMAX)\";\n"
    "    D[l].q[D[l].qn] := m;\n"
    "    D[l].qn := D[l].qn + 1;\n"
    "  endif;\n"
    "end;\n\n"
    "procedure unpark(l: Line);\n"
    "begin\n"
    "  for j: 0..HQMAX-2 do\n"
    "    if j + 1 < D[l].qn then D[l].q[j] := D[l].q[j + 1]; endif;\n"
    "  end;\n"
    "  D[l].qn := D[l].qn - 1;\n"
    "  clear_msg(D[l].q[D[l].qn]);\n"
    "end;\n\n"
    "procedure await_answers(l: Line; k: 0..2);\n"
    "begin\n"
    "  assert D[l].pending + k <= PMAX \"a transaction awaits more answers than PMAX\";\n"
    "  D[l].pending := D[l].pending + k;\n"
    "end;\n\n"
    "-- a sharer other than `except` to supply the line: the step's pick if it\n"
    "-- is one (the rule tries every pick: the runtime takes the lowest-numbered\n"
    "-- sharer, any is allowed here), else any; undefined if there is none\n"
    "procedure pick_sharer(l: Line; except: Cache; pick: Cache; var r: Cache);\n"
    "begin\n"
    "  undefine r;\n"
    "  for k: Cache do\n"
    "    if k != except & D[l].sharer[k] then r := k; endif;\n"
    "  end;\n"
    "  if pick != except & D[l].sharer[pick] then r := pick; endif;\n"
    "end;\n\n"
    "-- the supplier of a write: the owner, else a sharer (pick_sharer's)\n"
    "procedure choose_supplier(l: Line; pick: Cache);\n"
    "begin\n"
    "  if !isundefined(D[l].owner) then D[l].supplier := D[l].owner;\n"
    "  else pick_sharer(l, D[l].requester, pick, D[l].supplier); endif;\n"
    "  assert !isundefined(D[l].supplier) \"a write of a line nobody holds to supply\";\n"
    "end;\n\n"
    "-- invalidates every holder but the requester and, unless all, the\n"
    "-- supplier (runtime: actions.c inv_all_but): Inv, whose ack the home\n"
    "-- awaits, or Inv_R, whose ack the requester collects (counted in acks)\n"
    "procedure inv_holders(l: Line; t: MType; all: boolean);\n"
    "begin\n"
    "  for k: Cache do\n"
    "    if !is(D[l].requester, k) & (all | !is(D[l].supplier, k))\n"
    "       & (D[l].sharer[k] | is(D[l].owner, k)) then\n"
    "      to_cache(t, k, l, D[l].requester, false, 0);\n"
    "      if t = M_INV_R then D[l].acks := D[l].acks + 1; else await_answers(l, 1); endif;\n"
    "    endif;\n"
    "  end;\n"
    "end;\n\n"
    "procedure clear_holders(l: Line);\n"
    "begin\n"
    "  for k: Cache do D[l].sharer[k] := false; end;\n"
    "  undefine D[l].owner;\n"
    "  undefine D[l].fwd;\n"
    "end;\n\n"
    "-- a forward, with the count of acks the requester collects (0: none)\n"
    "procedure forward_acks(l: Line; t: MType; var dst: Cache; acks: 0..NC);\n"
    "begin\n"
    "  assert !isundefined(dst) \"a forward with no cache to go to\";\n"
    "  assert dst != D[l].requester \"a forward to the requester itself\";\n"
    "  to_cache_acks(t, dst, l, D[l].requester, acks);\n"
    "end;\n\n"
    "procedure forward(l: Line; t: MType; var dst: Cache; await: boolean);\n"
    "begin\n"
    "  forward_acks(l, t, dst, 0);\n"
    "  if await then await_answers(l, 1); endif;\n"
    "end;\n\n",
    "-- a store: every value of the line gets one write older\n"
    "function older(v: Value): Value;\n"
    "begin\n"
    "  return v < NV - 1 ? v + 1 : v;\n"
    "end;\n\n"
    "procedure age(l: Line);\n"
    "begin\n"
    "  for c: Cache do\n"
    "    if C[c].ln[l].st != C_I then C[c].ln[l].v := older(C[c].ln[l].v); endif;\n"
    "    for i: 0..QC-1 do\n"
    "      if i < net[c].n & net[c].m[i].ln = l & net[c].m[i].data then\n"
    "        net[c].m[i].v := older(net[c].m[i].v);\n"
    "      endif;\n"
    "    end;\n"
    "  end;\n"
    "  for i: 0..QH-1 do\n"
    "    if i < hnet.n & hnet.m[i].ln = l & hnet.m[i].data then\n"
    "      hnet.m[i].v := older(hnet.m[i].v);\n"
    "    endif;\n"
    "  end;\n"
    "  for i: 0..HQMAX-1 do\n"
    "    if i < D[l].qn & D[l].q[i].data then D[l].q[i].v := older(D[l].q[i].v); endif;\n"
    "  end;\n"
    "  D[l].mem := older(D[l].mem);\n"
    "end;\n\n"
    "-- the core's request on its copy: a store writes the last write\n"
    "procedure perform(c: Cache; l: Line; var f: Step);\n"
    "begin\n"
    "  assert readable(C[c].ln[l].st) \"perform_request on a copy that cannot be read\";\n"
    "  if f.req = R_Store then\n"
    "    assert writable(C[c].ln[l].st) \"a store on a copy that is not writable\";\n"
    "    age(l);\n"
    "    C[c].ln[l].v := 0;\n"
    "  endif;\n"
    "  if !f.sibling then C[c].rq := R_None; C[c].rl := 0; endif;\n"
    "  f.performed := true;\n"
    "end;\n\n",
    "-- a parked request is replayed as soon as its line is stable\n"
    "function replay_due(c: Cache): boolean;\n"
    "begin\n"
    "  return C[c].rq != R_None & stable_c(C[c].ln[C[c].rl].st);\n"
    "end;\n\n"
    "-- the runtime drains a stable line's queue before anything else\n"
    "function drain_due(l: Line): boolean;\n"
    "begin\n"
    "  return stable_h(D[l].st) & D[l].qn > 0;\n"
    "end;\n\n"
    "-- what the runtime does in the step that caused it goes first\n"
    "function urgent(): boolean;\n"
    "begin\n"
    "  return exists l: Line do drain_due(l) end;\n"
    "end;\n\n"
    "-- after a step at the home: a stable line forgets its transaction; a\n"
    "-- busy one sends the parked requests it takes back to the home's input\n"
    "procedure settle(l: Line);\n"
    "var go: boolean; m: Msg;\n"
    "begin\n"
    "  if stable_h(D[l].st) then\n"
    "    undefine D[l].requester; undefine D[l].supplier; D[l].gone := false;\n"
    "    D[l].upgrade := false; D[l].acks := 0;\n"
    "  else\n"
    "    go := true;\n"
    "    while go & D[l].qn > 0 do\n"
    "      if home_takes(D[l].st, home_event(D[l].q[0])) then\n"
    "        m := D[l].q[0]; unpark(l); deliver_h(m);\n"
    "      else\n"
    "        go := false;\n"
    "      endif;\n"
    "    end;\n"
    "  endif;\n"
    "end;\n\n",
    NULL};

static void print_glue(FILE *f, const struct cc_murphi_opts *o)
{
    long kmax = (long)(M_COUNT + 1) * o->lines * 2 * o->values * 2 * (o->caches + 1);
    fprintf(f, "const KMAX: %ld;\n\n", kmax - 1);
    fprintf(f, "function is(var x: Cache; k: Cache): boolean; -- x is defined and is k\n"
               "begin\n  return !isundefined(x) & x = k;\nend;\n\n");
    fprintf(f, "%s", cc_murphi_home_event);
    print_text(f, glue);
}

/* ------------------------------------------------------------ actions */

/* Every action is a procedure, called from one place (cache_act, home_act):
 * the tables name actions, they do not call them. */
static void print_actions(FILE *f)
{
#define CACHE(name, doc, murphi)                                                                   \
    fprintf(f,                                                                                     \
            "-- %s\nprocedure ca_%s(c: Cache; l: Line; m: Msg; var f: Step);\nbegin\n"             \
            "  alias cl: C[c].ln[l] do\n    %s\n  end;\nend;\n\n",                                 \
            doc, #name, murphi);
    CC_CACHE_ACTIONS(CACHE)
#undef CACHE
#define HOME(name, doc, murphi)                                                                    \
    fprintf(                                                                                       \
        f,                                                                                         \
        "-- %s\nprocedure ha_%s(l: Line; m: Msg; ev: HEvent; pick: Cache; var f: Step);\nbegin\n"  \
        "  alias d: D[l] do\n    %s\n  end;\nend;\n\n",                                            \
        doc, #name, murphi);
    CC_HOME_ACTIONS(HOME)
#undef HOME
    fprintf(f, "procedure cache_act(a: CAct; c: Cache; l: Line; m: Msg; var f: Step);\n"
               "begin\n  switch a\n");
    for (size_t i = 0; i < SIM_COUNT_OF(cache_actions); i++)
        fprintf(f, "  case CA_%s: ca_%s(c, l, m, f);\n", cache_actions[i], cache_actions[i]);
    fprintf(f, "  endswitch;\nend;\n\n");
    fprintf(f,
            "procedure home_act(a: HAct; l: Line; m: Msg; ev: HEvent; pick: Cache; var f: Step);\n"
            "begin\n  switch a\n");
    for (size_t i = 0; i < SIM_COUNT_OF(home_actions); i++)
        fprintf(f, "  case HA_%s: ha_%s(l, m, ev, pick, f);\n", home_actions[i], home_actions[i]);
    fprintf(f, "  endswitch;\nend;\n\n");
}

/* ------------------------------------------------------------ the rows */

static const char *action_name(const struct cc_action *a, bool home)
{
    (void)home;
    return a->name;
}

/* One row: its actions as a list, its next state. */
static void print_row_case(FILE *f, const struct cc_table *t, size_t i, bool home)
{
    const struct cc_row *r = &t->rows[i];
    fprintf(f, "  case %zu:", i + 1);
    int n = 0;
    for (; n < CC_MAX_ACTIONS && r->actions[n]; n++)
        fprintf(f, " a[%d] := %s%s;", n, home ? "HA_" : "CA_", action_name(r->actions[n], home));
    fprintf(f, " n := %d;", n);
    if (r->next != CC_SAME)
        fprintf(f, " same := false; next := %s%s;", home ? "H_" : "C_",
                home ? home_states[r->next] : cache_states[r->next]);
    fprintf(f, "\n");
}

/* The table's runner: the cell's row runs its actions in order, then the
 * line moves to the row's next state. */
static void print_runner(FILE *f, const struct cc_table *t, bool home)
{
    if (home)
        fprintf(f,
                "procedure home_run(l: Line; ev: HEvent; m: Msg; pick: Cache);\n"
                "var f: Step; a: array[0..%d] of HAct; n: 0..%d; row: 0..64; same: boolean;\n"
                "    next: HState;\nbegin\n  row := home_row_of(D[l].st, ev);\n",
                CC_MAX_ACTIONS - 1, CC_MAX_ACTIONS);
    else
        fprintf(f,
                "procedure cache_run(c: Cache; l: Line; ev: CEvent; m: Msg; sibling: boolean);\n"
                "var f: Step; a: array[0..%d] of CAct; n: 0..%d; row: 0..64; same: boolean;\n"
                "    next: CState;\nbegin\n  row := cache_row_of(C[c].ln[l].st, ev);\n",
                CC_MAX_ACTIONS - 1, CC_MAX_ACTIONS);
    fprintf(f,
            "  if row = 0 then error \"no row for the %s's state and event\"; endif;\n"
            "  f.stalled := false; f.performed := false; same := true; n := 0;\n"
            "%s"
            "  switch row\n",
            home ? "home" : "cache",
            home ? "  f.req := R_None; f.sibling := false;\n"
                 : "  f.sibling := sibling;\n"
                   "  f.req := ev = CE_Load ? R_Load : (ev = CE_Store ? R_Store : R_None);\n");
    for (size_t i = 0; i < t->nrows; i++)
        print_row_case(f, t, i, home);
    fprintf(f, "  endswitch;\n  for k: 0..%d do\n    if k < n then ", CC_MAX_ACTIONS - 1);
    if (home)
        fprintf(f, "home_act(a[k], l, m, ev, pick, f); endif;\n  end;\n"
                   "  if !same then D[l].st := next; endif;\n");
    else
        fprintf(f, "cache_act(a[k], c, l, m, f); endif;\n  end;\n"
                   "  if !same then C[c].ln[l].st := next; endif;\n"
                   "  if C[c].ln[l].st = C_I then C[c].ln[l].v := 0; endif; -- a free way\n"
                   "  if (ev = CE_Load | ev = CE_Store) & !f.performed & !f.stalled then\n"
                   "    error \"the core's request was neither performed nor parked: it would "
                   "never complete\";\n  endif;\n"
                   "  if f.stalled & stable_c(C[c].ln[l].st) then\n"
                   "    error \"a stall row left the line in a stable state: its request would "
                   "be replayed forever\";\n  endif;\n");
    fprintf(f, "end;\n\n");
}

/* The rules: who may act now (k); the event follows from the state. A
 * cache acts on message slot k < QC, else on line (k - QC) / 5 with its
 * core's Load, Store, a Replace, a sibling's Load or Store; the home on
 * message slot k < QH, else on
 * line (k - QH) / 3 with a parked request, memory's data or memory's ack. */
static const char *const rules[] = {
    "function cache_ready(c: Cache; k: 0..QC+5*NL-1): boolean;\n"
    "var l: Line; j: 0..5*NL;\n"
    "begin\n"
    "  if U then return false; endif; -- the home drains a queue first\n"
    "  if k < QC then return k < net[c].n; endif;\n"
    "  l := (k - QC) / 5; j := (k - QC) % 5;\n"
    "  if j < 2 then return C[c].rq = R_None; endif;\n"
    "  if j > 2 then -- cells the invariant cannot judge\n"
    "    return C[c].rq != R_None & C[c].rl = l\n"
    "      & !sibling_simple(C[c].ln[l].st, j = 3 ? CE_Load : CE_Store);\n"
    "  endif;\n"
    "  return stable_c(C[c].ln[l].st) & C[c].ln[l].st != C_I\n"
    "    & !(C[c].rq != R_None & C[c].rl = l);\n"
    "end;\n\n"
    "function cache_ev(c: Cache; k: 0..QC+5*NL-1): CEvent;\n"
    "begin\n"
    "  if k < QC then\n"
    "    return cache_event(net[c].m[k], C[c].ln[net[c].m[k].ln]);\n"
    "  endif;\n"
    "  switch (k - QC) % 5\n"
    "  case 0, 3: return CE_Load;\n"
    "  case 1, 4: return CE_Store;\n"
    "  else return CE_Replace;\n"
    "  endswitch;\n"
    "end;\n\n"
    "-- a cache acts: a message, its core's request (while the core waits, a\n"
    "-- sibling hardware thread's request on the same line: it is performed,\n"
    "-- or parked and, as far as the line can tell, tried again later), or a\n"
    "-- replacement; a request it parked is replayed in the same step as soon\n"
    "-- as its line is stable, as the runtime does\n"
    "ruleset c: Cache; k: 0..QC+5*NL-1 do\n"
    "  rule \"cache\"\n"
    "    cache_ready(c, k)\n"
    "  ==>\n"
    "  var m: Msg; l: Line; e: CEvent; go: boolean; sibling: boolean;\n"
    "  begin\n"
    "    e := cache_ev(c, k); sibling := false;\n"
    "    if k < QC then\n"
    "      m := net[c].m[k]; l := m.ln; take_c(c, k);\n"
    "    else\n"
    "      clear_msg(m); l := (k - QC) / 5; sibling := (k - QC) % 5 > 2;\n"
    "      if !sibling & e = CE_Load then C[c].rq := R_Load; C[c].rl := l; endif;\n"
    "      if !sibling & e = CE_Store then C[c].rq := R_Store; C[c].rl := l; endif;\n"
    "    endif;\n"
    "    go := true;\n"
    "    while go do\n"
    "      cache_run(c, l, e, m, sibling);\n"
    "      go := replay_due(c);\n"
    "      if go then\n"
    "        clear_msg(m); l := C[c].rl; e := C[c].rq = R_Load ? CE_Load : CE_Store;\n"
    "        sibling := false;\n"
    "      endif;\n"
    "    end;\n"
    "    U := urgent();\n"
    "  end;\n"
    "end;\n\n",
    "function home_line(k: 0..QH+3*NL-1): Line;\n"
    "begin\n"
    "  if k < QH then return hnet.m[k].ln; endif;\n"
    "  return (k - QH) / 3;\n"
    "end;\n\n"
    "function home_ready(k: 0..QH+3*NL-1): boolean;\n"
    "var l: Line;\n"
    "begin\n"
    "  if k < QH then return !U & k < hnet.n; endif;\n"
    "  l := (k - QH) / 3;\n"
    "  switch (k - QH) % 3\n"
    "  case 0: return drain_due(l);\n"
    "  case 1: return !U & D[l].mem_reads > 0;\n"
    "  else return !U & D[l].mem_acks > 0;\n"
    "  endswitch;\n"
    "end;\n\n"
    "function home_ev(k: 0..QH+3*NL-1): HEvent;\n"
    "begin\n"
    "  if k < QH then return home_event(hnet.m[k]); endif;\n"
    "  switch (k - QH) % 3\n"
    "  case 0: return home_event(D[(k - QH) / 3].q[0]);\n"
    "  case 1: return HE_Mem_Data;\n"
    "  else return HE_Mem_Ack;\n"
    "  endswitch;\n"
    "end;\n\n"
    "-- a step whose row chooses a cache is tried with every pick; any other\n"
    "-- with one (its requester), so that picks do not multiply its states\n"
    "function pick_ok(k: 0..QH+3*NL-1; pick: Cache): boolean;\n"
    "var l: Line;\n"
    "begin\n"
    "  l := home_line(k);\n"
    "  if k < QH then\n"
    "    if pick = hnet.m[k].rq then return true; endif;\n"
    "  elsif (k - QH) % 3 = 0 then\n"
    "    if pick = D[l].q[0].rq then return true; endif;\n"
    "  elsif is(D[l].requester, pick) | isundefined(D[l].requester) then\n"
    "    return true;\n"
    "  endif;\n"
    "  return PICKS & row_picks(home_row_of(D[l].st, home_ev(k)));\n"
    "end;\n\n"
    "-- the home takes a message (or a parked request, or memory's answer);\n"
    "-- Done follows in the same step when every awaited answer of a\n"
    "-- transient line is in, as the runtime does\n"
    "%HOME_RULE%"
    "    e := home_ev(k); clear_msg(m);\n"
    "    if k < QH then\n"
    "      m := hnet.m[k]; l := m.ln; take_h(k);\n"
    "    else\n"
    "      l := (k - QH) / 3;\n"
    "      switch (k - QH) % 3\n"
    "      case 0: m := D[l].q[0]; unpark(l);\n"
    "      case 1: D[l].mem_reads := D[l].mem_reads - 1;\n"
    "      else D[l].mem_acks := D[l].mem_acks - 1;\n"
    "      endswitch;\n"
    "    endif;\n"
    "    go := true;\n"
    "    while go do\n"
    "      home_run(l, e, m, pick);\n"
    "      assert stable_h(D[l].st) | !isundefined(D[l].requester)\n"
    "        \"a busy line with no requester\";\n"
    "      go := e != HE_Done & !stable_h(D[l].st) & D[l].pending = 0;\n"
    "      if go then e := HE_Done; clear_msg(m); endif;\n"
    "    end;\n"
    "    settle(l);\n"
    "    U := urgent();\n"
    "  end;\n"
    "end;\n\n",
    NULL};

/* The rules; the home's tries every pick only where a row chooses a cache. */
static void print_rules(FILE *f, const struct cc_table *home)
{
    bool picks = false;
    for (size_t i = 0; i < home->nrows; i++)
        picks |= row_picks(&home->rows[i]);
    for (const char *const *r = rules; *r; r++) {
        const char *at = strstr(*r, "%HOME_RULE%");
        if (!at) {
            fputs(*r, f);
            continue;
        }
        fprintf(f, "%.*s", (int)(at - *r), *r);
        if (picks)
            fprintf(f, "ruleset k: 0..QH+3*NL-1; pick: Cache do\n  rule \"home\"\n"
                       "    home_ready(k) & pick_ok(k, pick)\n  ==>\n"
                       "  var m: Msg; l: Line; e: HEvent; go: boolean;\n  begin\n");
        else
            fprintf(f, "ruleset k: 0..QH+3*NL-1 do\n  rule \"home\"\n    home_ready(k)\n  ==>\n"
                       "  var m: Msg; l: Line; e: HEvent; go: boolean;\n"
                       "      pick: Cache; -- no row chooses a cache: unused\n  begin\n");
        fputs(at + strlen("%HOME_RULE%"), f);
    }
}

/* ------------------------------------------------------------ start, invariants */

static const char *const start_and_invariants[] = {
    "startstate \"every line in memory, no copy\"\n"
    "  begin\n"
    "    for c: Cache do\n"
    "      net[c].n := 0;\n"
    "      for i: 0..QC-1 do clear_msg(net[c].m[i]); end;\n"
    "    end;\n"
    "    hnet.n := 0;\n"
    "    for i: 0..QH-1 do clear_msg(hnet.m[i]); end;\n"
    "    for c: Cache do\n"
    "      C[c].rq := R_None; C[c].rl := 0;\n"
    "      for l: Line do\n"
    "        C[c].ln[l].st := C_I; C[c].ln[l].v := 0; C[c].ln[l].got := 0; C[c].ln[l].need := 0;\n"
    "      end;\n"
    "    end;\n"
    "    for l: Line do\n"
    "      D[l].st := H_I; undefine D[l].owner; undefine D[l].fwd; D[l].mem := 0;\n"
    "      for c: Cache do D[l].sharer[c] := false; end;\n"
    "      undefine D[l].requester; D[l].pending := 0; undefine D[l].supplier;\n"
    "      D[l].gone := false; D[l].upgrade := false; D[l].acks := 0;\n"
    "      D[l].mem_reads := 0; D[l].mem_acks := 0; D[l].qn := 0;\n"
    "      for i: 0..HQMAX-1 do clear_msg(D[l].q[i]); end;\n"
    "    end;\n"
    "    U := false;\n"
    "  end;\n\n",
    "function copies(l: Line; s1: CState; s2: CState): 0..NC;\n"
    "var n: 0..NC;\n"
    "begin\n"
    "  n := 0;\n"
    "  for c: Cache do\n"
    "    if C[c].ln[l].st = s1 | C[c].ln[l].st = s2 then n := n + 1; endif;\n"
    "  end;\n"
    "  return n;\n"
    "end;\n\n",
    "-- nothing under way on the line: no message, no transaction, no transient copy\n"
    "function quiet(l: Line): boolean;\n"
    "begin\n"
    "  return stable_h(D[l].st) & D[l].qn = 0 & D[l].mem_reads = 0\n"
    "    & D[l].mem_acks = 0\n"
    "    & (forall c: Cache do stable_c(C[c].ln[l].st) end)\n"
    "    & no_message(l);\n"
    "end;\n\n",
    "-- on a quiet line the directory names every holder in the right state\n"
    "function dir_agrees(l: Line): boolean;\n"
    "begin\n"
    "  alias d: D[l] do\n"
    "  return\n"
    "    (d.st = H_I -> isundefined(d.owner) & (forall c: Cache do !d.sharer[c] end))\n"
    "    & ((d.st = H_EM | d.st = H_O) -> !isundefined(d.owner))\n"
    "    & ((d.st = H_S | d.st = H_SF | d.st = H_GOLS) -> isundefined(d.owner))\n"
    "    & (forall c: Cache do\n"
    "         ((C[c].ln[l].st = C_E | C[c].ln[l].st = C_M) -> d.st = H_EM & is(d.owner, c))\n"
    "       & (C[c].ln[l].st = C_O -> d.st = H_O & is(d.owner, c))\n"
    "       & (C[c].ln[l].st = C_S -> d.sharer[c] & !is(d.owner, c))\n"
    "       & (C[c].ln[l].st = C_F -> d.sharer[c] & is(d.fwd, c) & d.st = H_SF)\n"
    "       & (C[c].ln[l].st = C_I -> !d.sharer[c] & !is(d.owner, c))\n"
    "       & (d.sharer[c] -> C[c].ln[l].st = C_S | C[c].ln[l].st = C_F)\n"
    "       & (is(d.owner, c) -> C[c].ln[l].st = C_E | C[c].ln[l].st = C_M\n"
    "                         | C[c].ln[l].st = C_O)\n"
    "     end);\n"
    "  end;\n"
    "end;\n\n",
    "-- writable copies, and readable ones (a writable copy is readable too)\n"
    "function swmr(l: Line): boolean;\n"
    "var w: 0..NC; r: 0..NC;\n"
    "begin\n"
    "  w := 0; r := 0;\n"
    "  for c: Cache do\n"
    "    if readable(C[c].ln[l].st) then\n"
    "      r := r + 1;\n"
    "      if writable(C[c].ln[l].st) then w := w + 1; endif;\n"
    "    endif;\n"
    "  end;\n"
    "  return w = 0 | (w = 1 & r = 1);\n"
    "end;\n\n"
    "invariant \"single writer or many readers\"\n"
    "  forall l: Line do swmr(l) end;\n\n",
    "invariant \"a sibling thread's request while the core waits has a row, and performs only "
    "on a copy it may use\"\n"
    "  forall c: Cache do C[c].rq != R_None -> sibling_ok(C[c].ln[C[c].rl].st) end;\n\n"
    "invariant \"a cache counts invalidation acks only while it waits to write\"\n"
    "  forall l: Line do forall c: Cache do\n"
    "    (C[c].ln[l].st != C_IM_D & C[c].ln[l].st != C_IM_A & C[c].ln[l].st != C_SM_D\n"
    "     & C[c].ln[l].st != C_SM_A)\n"
    "      -> C[c].ln[l].got = 0 & C[c].ln[l].need = 0\n"
    "  end end;\n\n"
    "invariant \"every readable copy holds the last write\"\n"
    "  forall l: Line do forall c: Cache do\n"
    "    readable(C[c].ln[l].st) -> C[c].ln[l].v = 0\n"
    "  end end;\n\n",
    "invariant \"memory holds the last write when no cache holds the line dirty\"\n"
    "  forall l: Line do\n"
    "    (quiet(l) & copies(l, C_M, C_O) = 0 & D[l].st != H_GOLS) -> D[l].mem = 0\n"
    "  end;\n\n",
    "%ONE_F%",
    "%ONE_O%",
    "invariant \"the directory agrees with the caches on a quiet line\"\n"
    "  forall l: Line do quiet(l) -> dir_agrees(l) end;\n\n",
    "-- a deadlock: something on the line waits (a transient copy, a busy\n"
    "-- home, a parked request) but nothing is coming (no message for the line,\n"
    "-- no memory access, no step of the home's or a cache's own)\n"
    "function stuck(l: Line): boolean;\n"
    "begin\n"
    "  return ((exists c: Cache do !stable_c(C[c].ln[l].st) end) | !stable_h(D[l].st)\n"
    "          | D[l].qn > 0)\n"
    "    & D[l].mem_reads = 0 & D[l].mem_acks = 0 & !drain_due(l)\n"
    "    & no_message(l);\n"
    "end;\n\n"
    "invariant \"no deadlock: whatever waits on a line has a message or a step coming\"\n"
    "  forall l: Line do !stuck(l) end;\n",
    NULL};

/* Whether a table ever puts a line in state st. */
static bool uses_state(const struct cc_table *t, int st)
{
    for (size_t i = 0; i < t->nrows; i++)
        if (t->rows[i].next == st)
            return true;
    return false;
}

/* No message of line l in any channel (one line: no message at all). */
static void print_no_message(FILE *f, const struct cc_murphi_opts *o)
{
    fprintf(f, "function no_message(l: Line): boolean;\nbegin\n");
    if (o->lines == 1)
        fprintf(f, "  return (forall c: Cache do net[c].n = 0 end) & hnet.n = 0;\n");
    else
        fprintf(f, "  return (forall c: Cache do forall i: 0..QC-1 do\n"
                   "            i >= net[c].n | net[c].m[i].ln != l end end)\n"
                   "    & (forall i: 0..QH-1 do i >= hnet.n | hnet.m[i].ln != l end);\n");
    fprintf(f, "end;\n\n");
}

/* ------------------------------------------------------------ the model */

void cc_protocol_murphi(const struct cc_protocol *p, const struct cc_murphi_opts *o, FILE *f)
{
    struct cells cl;
    memset(&cl, 0, sizeof cl);
    expand(&p->cache, &cl.cache[0][0], CS_COUNT, CE_COUNT);
    expand(&p->home, &cl.home[0][0], HS_COUNT, HE_COUNT);
    print_header(f, p, o);
    print_consts(f, p, o);
    print_types(f);
    print_state_sets(f);
    fprintf(f, "-- ------------------------------------------------ the tables' cells\n\n");
    print_row_fn(f, "cache_row_of", "CState", "CEvent", "C_", "CE_", cache_states,
                 cc_cache_event_names, &p->cache, &cl.cache[0][0], CS_COUNT, CE_COUNT, false);
    print_row_fn(f, "home_row_of", "HState", "HEvent", "H_", "HE_", home_states,
                 cc_home_event_names, &p->home, &cl.home[0][0], HS_COUNT, HE_COUNT, false);
    print_row_fn(f, "home_takes", "HState", "HEvent", "H_", "HE_", home_states, cc_home_event_names,
                 &p->home, &cl.home[0][0], HS_COUNT, HE_COUNT, true);
    print_row_picks(f, &p->home);
    print_siblings(f, &cl);
    print_cache_event(f);
    fprintf(f, "-- ------------------------------------------------ the runtime's glue\n\n");
    print_glue(f, o);
    fprintf(f, "-- ------------------------------------------------ the actions\n\n");
    print_actions(f);
    fprintf(f, "-- ------------------------------------------------ the tables' rows\n\n");
    print_runner(f, &p->cache, false);
    print_runner(f, &p->home, true);
    fprintf(f, "-- ------------------------------------------------ the rules\n\n");
    print_rules(f, &p->home);
    fprintf(f, "-- ------------------------------------------------ start and properties\n\n");
    print_no_message(f, o);
    for (const char *const *t = start_and_invariants; *t; t++) {
        if (strcmp(*t, "%ONE_F%") == 0) {
            if (uses_state(&p->cache, CS_F))
                fprintf(f, "invariant \"at most one F copy\"\n"
                           "  forall l: Line do copies(l, C_F, C_FM_D) <= 1 end;\n\n");
        } else if (strcmp(*t, "%ONE_O%") == 0) {
            if (uses_state(&p->cache, CS_O))
                fprintf(f, "invariant \"at most one O copy\"\n"
                           "  forall l: Line do copies(l, C_O, C_OM_D) <= 1 end;\n\n");
        } else
            fputs(*t, f);
    }
}

/* ------------------------------------------------------------ counterexamples */

/* A step of a counterexample, read from the model's states before and
 * after it. */
struct step {
    const struct cc_protocol *p;
    const struct cc_murphi_opts *o;
    struct cells cl;
    cc_murphi_get get;
    void *before, *after;
    FILE *out;
};

static const char *getv(const struct step *s, void *ctx, const char *fmt, va_list ap)
{
    char name[160];
    vsnprintf(name, sizeof name, fmt, ap);
    const char *v = s->get(ctx, name);
    return v ? v : "";
}

static const char *get(const struct step *s, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));
static const char *get(const struct step *s, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    const char *v = getv(s, s->before, fmt, ap);
    va_end(ap);
    return v;
}

static const char *get_after(const struct step *s, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));
static const char *get_after(const struct step *s, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    const char *v = getv(s, s->after, fmt, ap);
    va_end(ap);
    return v;
}

/* "Cache_2" -> 2; "Undefined" -> -1 */
static int cache_number(const char *v)
{
    const char *u = strrchr(v, '_');
    return u && strncmp(v, "Cache_", 6) == 0 ? atoi(u + 1) : -1;
}

static int lookup(const char *v, const char *prefix, const char *const *names, int n)
{
    size_t len = strlen(prefix);
    if (strncmp(v, prefix, len) != 0)
        return -1;
    for (int i = 0; i < n; i++)
        if (strcmp(v + len, names[i]) == 0)
            return i;
    return -1;
}

/* Prints "WHO  line L  STATE, EVENT -> NEXT   (row K: actions)" for the
 * cell (or that it has no row); returns the next state, or -1. */
static int print_cell(const struct step *s, bool home, const char *who, int line, int st, int ev,
                      const char *note)
{
    const struct cc_table *t = home ? &s->p->home : &s->p->cache;
    const char *const *names = home ? home_states : cache_states;
    const char *const *alias = t->state_alias;
    int ne = home ? HE_COUNT : CE_COUNT;
    const struct cc_row *const *cells = home ? &s->cl.home[0][0] : &s->cl.cache[0][0];
    const struct cc_row *r = st >= 0 && ev >= 0 ? cells[st * ne + ev] : NULL;
    const char *sn = st < 0 ? "?" : alias && alias[st] ? alias[st] : names[st];
    const char *en = ev < 0 ? "?" : home ? cc_home_event_names[ev] : cc_cache_event_names[ev];
    fprintf(s->out, "%-7s line %d  %s, %s%s", who, line, sn, en, note);
    if (!r) {
        fprintf(s->out, ": the table has no row for this\n");
        return -1;
    }
    int next = r->next == CC_SAME ? st : r->next;
    size_t number = (size_t)(r - t->rows) + 1; /* as `ccsim protocol` numbers it */
    number += s->p->removed[home] && number >= s->p->removed[home];
    fprintf(s->out, " -> %s   (row %zu:", alias && alias[next] ? alias[next] : names[next], number);
    for (int a = 0; a < CC_MAX_ACTIONS && r->actions[a]; a++)
        fprintf(s->out, "%s %s", a ? "," : "", r->actions[a]->name);
    fprintf(s->out, "%s)\n", r->actions[0] ? "" : " nothing");
    return next;
}

static bool row_of_cell_has(const struct step *s, int st, int ev, const struct cc_action *a)
{
    const struct cc_row *r = st >= 0 && ev >= 0 ? s->cl.cache[st][ev] : NULL;
    for (int i = 0; r && i < CC_MAX_ACTIONS && r->actions[i]; i++)
        if (r->actions[i] == a)
            return true;
    return false;
}

/* The model's error for a stall row that leaves its line stable: it stops
 * there (replayed, the request would be parked again and again). */
static void print_parked_on_stable(const struct step *s, const char *who, int line, int st)
{
    fprintf(s->out,
            "%-7s line %d  ... parked its request and left the line in the stable state %s: "
            "replayed, it would be parked again forever (the model stops here)\n",
            who, line, cache_states[st]);
}

/* A waiting request replayed on its stable line. A row that parks it
 * again and leaves the line stable (only a mutant has one) is the model's
 * error, which one line says. */
static void print_replay(const struct step *s, const char *who, int line, int st, int ev)
{
    int next = print_cell(s, false, who, line, st, ev, " (replayed)");
    if (next >= 0 && cache_stable(next) && row_of_cell_has(s, st, ev, &cc_act_stall))
        print_parked_on_stable(s, who, line, next);
}

static void cache_step(const struct step *s)
{
    const char *c = get(s, "param:c");
    int k = atoi(get(s, "param:k")), qc = cc_murphi_cache_queue(s->p, s->o), line, ev;
    char who[16], note[48] = "";
    snprintf(who, sizeof who, "core %d", cache_number(c));
    if (k < qc) {
        int t = atoi(get(s, "net[%s].m[%d].t", c, k)) - 1;
        line = atoi(get(s, "net[%s].m[%d].ln", c, k));
        ev = t >= 0 && t < M_COUNT ? cc_cache_event_of(t) : -1;
        int src = cache_number(get(s, "net[%s].m[%d].src", c, k));
        snprintf(note, sizeof note, src >= 0 ? " (from core %d)" : " (from the home)", src);
    } else {
        int j = (k - qc) % 5;
        line = (k - qc) / 5;
        ev = j == 0 || j == 3 ? CE_Load : j == 1 || j == 4 ? CE_Store : CE_Replace;
        if (j > 2)
            snprintf(note, sizeof note, " (a sibling thread's)");
    }
    int st = lookup(get(s, "C[%s].ln[%d].st", c, line), "C_", cache_states, CS_COUNT);
    if (k < qc && ev >= 0 && st >= 0) { /* Data_A, Last_Ack: as the model's cache_event */
        struct cc_line cl = {.state = (uint8_t)st,
                             .acks_got = (uint16_t)atoi(get(s, "C[%s].ln[%d].got", c, line)),
                             .acks_need = (uint16_t)atoi(get(s, "C[%s].ln[%d].need", c, line))};
        ev = cc_cache_event_counted(ev, atoi(get(s, "net[%s].m[%d].acks", c, k)), &cl);
    }
    int next = print_cell(s, false, who, line, st, ev, note);
    /* a request waiting on the line is replayed when it is stable */
    const char *rq = k < qc ? get(s, "C[%s].rq", c) : ev == CE_Load ? "R_Load" : "R_Store";
    bool sibling = k >= qc && (k - qc) % 5 > 2;
    if (sibling)
        rq = get(s, "C[%s].rq", c);
    bool waits = k < qc || sibling
                     ? strcmp(rq, "R_None") != 0 && atoi(get(s, "C[%s].rl", c)) == line
                     : ev != CE_Replace && row_of_cell_has(s, st, ev, &cc_act_stall);
    if (next >= 0 && cache_stable(next) && row_of_cell_has(s, st, ev, &cc_act_stall))
        print_parked_on_stable(s, who, line, next);
    else if (next >= 0 && waits && cache_stable(next))
        print_replay(s, who, line, next, strcmp(rq, "R_Load") == 0 ? CE_Load : CE_Store);
}

/* The home event of the message in `slot` ("hnet.m[3]" or "D[0].q[0]"). */
static int home_msg_event(const struct step *s, const char *slot, int line, int *src)
{
    int t = atoi(get(s, "%s.t", slot)) - 1;
    *src = cache_number(get(s, "%s.src", slot));
    struct cc_sender w = {0};
    for (int c = 0; c < s->o->caches; c++) {
        bool on = strcmp(get(s, "D[%d].sharer[Cache_%d]", line, c), "true") == 0;
        w.sharers += on;
        w.sharer |= on && c == *src;
    }
    int owner = cache_number(get(s, "D[%d].owner", line));
    w.any_owner = owner >= 0;
    w.owner = owner >= 0 && owner == *src;
    w.forwarder = *src >= 0 && cache_number(get(s, "D[%d].fwd", line)) == *src;
    return t >= 0 && t < M_COUNT ? cc_home_event_for(t, &w) : -1;
}

static void home_step(const struct step *s)
{
    int k = atoi(get(s, "param:k")), qh = cc_murphi_home_queue(s->o), line, ev, src = -1;
    char slot[48], note[48] = "";
    if (k < qh) {
        snprintf(slot, sizeof slot, "hnet.m[%d]", k);
        line = atoi(get(s, "%s.ln", slot));
        ev = home_msg_event(s, slot, line, &src);
    } else {
        line = (k - qh) / 3;
        snprintf(slot, sizeof slot, "D[%d].q[0]", line);
        int kind = (k - qh) % 3;
        ev = kind == 0 ? home_msg_event(s, slot, line, &src) : kind == 1 ? HE_Mem_Data : HE_Mem_Ack;
    }
    if (src >= 0)
        snprintf(note, sizeof note, " (core %d%s)", src, k >= qh ? ", parked" : "");
    int st = lookup(get(s, "D[%d].st", line), "H_", home_states, HS_COUNT);
    int next = print_cell(s, true, "home", line, st, ev, note);
    if (next < 0 || home_stable(next))
        return;
    /* Done follows in the same step when nothing more is awaited: the line
     * then left `next`, or awaits nothing; a Done row that stays and awaits
     * more leaves no trace the states show */
    int after = lookup(get_after(s, "D[%d].st", line), "H_", home_states, HS_COUNT);
    const struct cc_row *done = s->cl.home[next][HE_Done];
    if (after != next || atoi(get_after(s, "D[%d].pending", line)) == 0)
        print_cell(s, true, "home", line, next, HE_Done, "");
    else if (done && (done->next == CC_SAME || done->next == next))
        print_cell(s, true, "home", line, next, HE_Done, " (if every answer was in)");
}

bool cc_murphi_step(const struct cc_protocol *p, const struct cc_murphi_opts *o, const char *rule,
                    cc_murphi_get getter, void *before, void *after, FILE *out)
{
    struct step s = {.p = p, .o = o, .get = getter, .before = before, .after = after, .out = out};
    expand(&p->cache, &s.cl.cache[0][0], CS_COUNT, CE_COUNT);
    expand(&p->home, &s.cl.home[0][0], HS_COUNT, HE_COUNT);
    if (strcmp(rule, "cache") == 0)
        cache_step(&s);
    else if (strcmp(rule, "home") == 0)
        home_step(&s);
    else
        return false;
    return true;
}
