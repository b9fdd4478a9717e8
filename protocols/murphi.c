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
 *   - The runtime runs a row's consequences in the same step: Done, the
 *     replay of parked requests, the drain of a stable line's queue. The
 *     model runs them as steps of their own that go before any other.
 *   - home.probe_filter and home.owned_write_writeback are constants of
 *     the model (cc_murphi_opts), one model per setting.
 */
#include "cc_internal.h"

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
    fprintf(f, "-- ccsim protocol %s --murphi --caches %d --lines %d --values %d\n", p->name,
            o->caches, o->lines, o->values);
    fprintf(f,
            "-- A Murphi model (Rumur) of the tables ccsim runs for %s, generated from them:\n"
            "-- protocols/%s.c, the catalogues of protocols/cc_internal.h (each action's\n"
            "-- Murphi body is in its catalogue row) and the runtime's glue (protocols/\n"
            "-- murphi.c). Do not edit: regenerate. `ccsim verify %s` checks it.\n",
            p->name, p->name, p->name);
    fprintf(f,
            "--\n"
            "-- Network: a bag per node (any delivery order), bounded by QMAX (an assert).\n"
            "-- A core has one request outstanding; replacements fire on any stable copy.\n"
            "-- cache_row_of and home_row_of give the row of each (state, event) cell,\n"
            "-- numbered as in `ccsim protocol %s` (from 1 in each table); cache_run and\n"
            "-- home_run run it.\n\n",
            p->name);
}

static int queue_bound(const struct cc_murphi_opts *o)
{
    return o->queue ? o->queue : 3 * o->caches + 2;
}

static void print_consts(FILE *f, const struct cc_protocol *p, const struct cc_murphi_opts *o)
{
    fprintf(f, "const\n");
    fprintf(f, "  NC: %d;                 -- caches\n", o->caches);
    fprintf(f, "  NL: %d;                 -- lines\n", o->lines);
    fprintf(f, "  NV: %d;                 -- data values: ages (0: the last write)\n", o->values);
    fprintf(f, "  QMAX: %d;               -- messages a node's channel holds\n", queue_bound(o));
    fprintf(f, "  HQMAX: %d;              -- requests a home parks per line\n", 2 * o->caches);
    fprintf(f, "  PMAX: %d;               -- answers a transaction awaits\n", 2 * o->caches + 2);
    fprintf(f, "  HOME: NC;               -- the home's node\n");
    fprintf(f, "  NOBODY: NC;             -- no cache (owner, forwarder, requester, supplier)\n");
    fprintf(f, "  PUTS_CARRY_DATA: %s;   -- a sharer's eviction carries the line\n",
            p->puts_carry_data ? "true" : "false");
    fprintf(f, "  probe_filter: %s;      -- home.probe_filter (false: a broadcast home)\n",
            o->broadcast ? "false" : "true");
    fprintf(f, "  owned_write_writeback: %s; -- home.owned_write_writeback\n",
            o->owned_write_writeback ? "true" : "false");
    fprintf(f, "  -- message types (numbers: a channel is sorted by them)\n  M_NONE: 0;\n");
    for (int t = 0; t < M_COUNT; t++)
        fprintf(f, "  M_%s: %d;\n", cc_msg_names[t], t + 1);
    fprintf(f, "\n");
}

static void print_types(FILE *f)
{
    fprintf(f, "type\n  Cache: 0..NC-1;\n  Node: 0..NC;\n  Line: 0..NL-1;\n  Value: 0..NV-1;\n");
    print_enum(f, "CState", "C_", cache_states, CS_COUNT, NULL);
    print_enum(f, "CEvent", "CE_", cc_cache_event_names, CE_COUNT, NULL);
    print_enum(f, "HState", "H_", home_states, HS_COUNT, NULL);
    print_enum(f, "HEvent", "HE_", cc_home_event_names, HE_COUNT, NULL);
    fprintf(f, "  MType: 0..%d;\n", M_COUNT);
    print_enum(f, "CAct", "CA_", cache_actions, (int)SIM_COUNT_OF(cache_actions), NULL);
    print_enum(f, "HAct", "HA_", home_actions, (int)SIM_COUNT_OF(home_actions), NULL);
    fprintf(f, "  ReqKind: enum { R_None, R_Load, R_Store };\n"
               "  Msg: record t: MType; src: Node; ln: Line; rq: Node; data: boolean; v: Value;\n"
               "    gone: boolean; end;\n"
               "  Chan: record n: 0..QMAX; m: array[0..QMAX-1] of Msg; end;\n"
               "  CLine: record st: CState; v: Value; end;\n"
               "  CacheRec: record ln: array[Line] of CLine; rq: ReqKind; rl: Line; end;\n"
               "  Dir: record\n"
               "    st: HState; owner: Node; fwd: Node; sharer: array[Cache] of boolean;\n"
               "    mem: Value; requester: Node; pending: 0..PMAX; supplier: Node;\n"
               "    gone: boolean; upgrade: boolean; done_due: boolean;\n"
               "    mem_reads: 0..2; mem_acks: 0..2; qn: 0..HQMAX; q: array[0..HQMAX-1] of Msg;\n"
               "  end;\n"
               "  Step: record stalled: boolean; performed: boolean; end;\n\n");
    fprintf(f, "var\n"
               "  net: array[Node] of Chan;\n"
               "  C: array[Cache] of CacheRec;\n"
               "  D: array[Line] of Dir;\n"
               "  U: boolean;  -- urgent(), kept up to date: the guards read it\n"
               "\n");
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

/* The cache event of a message type (runtime.c cc_cache_event_of). */
static void print_cache_event(FILE *f)
{
    fprintf(f, "function cache_event(t: MType): CEvent;\nbegin\n  switch t\n");
    for (int t = 0; t < M_COUNT; t++)
        if (cc_cache_event_of(t) >= 0)
            fprintf(f, "  case M_%s: return CE_%s;\n", cc_msg_names[t],
                    cc_cache_event_names[cc_cache_event_of(t)]);
    fprintf(f, "  else error \"a cache got a message it has no event for\";\n  endswitch;\n"
               "  return CE_Probe;\nend;\n\n");
}

/* ------------------------------------------------------------ the glue */

/* Messages, channels, the home's queue, and the helpers action bodies use.
 * (Rumur copies a procedure's body at every call: helpers that many
 * actions call, like send, call little themselves.) */
static const char *const glue[] = {
    "procedure clear_msg(var m: Msg);\n"
    "begin\n"
    "  m.t := M_NONE; m.src := 0; m.ln := 0; m.rq := NOBODY; m.data := false; m.v := 0;\n"
    "  m.gone := false;\n"
    "end;\n\n"
    "-- a total order on messages: a channel is a bag, kept sorted\n"
    "function mkey(m: Msg): 0..KMAX;\n"
    "begin\n"
    "  return ((((((m.t * (NC + 1) + m.src) * NL + m.ln) * (NC + 1) + m.rq) * 2\n"
    "          + (m.data ? 1 : 0)) * NV + m.v) * 2 + (m.gone ? 1 : 0));\n"
    "end;\n\n"
    "procedure deliver(dst: Node; m: Msg);\n"
    "var p: 0..QMAX; t: Msg;\n"
    "begin\n"
    "  assert net[dst].n < QMAX \"a channel holds more messages than its bound (QMAX)\";\n"
    "  p := net[dst].n;\n"
    "  net[dst].m[p] := m;\n"
    "  net[dst].n := p + 1;\n"
    "  while p > 0 do\n"
    "    if mkey(net[dst].m[p - 1]) > mkey(m) then\n"
    "      t := net[dst].m[p - 1]; net[dst].m[p - 1] := m; net[dst].m[p] := t;\n"
    "      p := p - 1;\n"
    "    else\n"
    "      p := 0;\n"
    "    endif;\n"
    "  end;\n"
    "end;\n\n"
    "procedure send(t: MType; src: Node; dst: Node; l: Line; rq: Node; data: boolean; v: Value;\n"
    "               gone: boolean);\n"
    "var m: Msg;\n"
    "begin\n"
    "  m.t := t; m.src := src; m.ln := l; m.rq := rq; m.data := data; m.gone := gone;\n"
    "  m.v := data ? v : 0;\n"
    "  deliver(dst, m);\n"
    "end;\n\n",
    "procedure take(dst: Node; i: 0..QMAX-1);\n"
    "begin\n"
    "  for j: 0..QMAX-2 do\n"
    "    if j >= i & j + 1 < net[dst].n then net[dst].m[j] := net[dst].m[j + 1]; endif;\n"
    "  end;\n"
    "  net[dst].n := net[dst].n - 1;\n"
    "  clear_msg(net[dst].m[net[dst].n]);\n"
    "end;\n\n"
    "procedure park(l: Line; m: Msg);\n"
    "begin\n"
    "  assert D[l].qn < HQMAX \"a home parks more requests than its bound (HQMAX)\";\n"
    "  D[l].q[D[l].qn] := m;\n"
    "  D[l].qn := D[l].qn + 1;\n"
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
    "function first_sharer(l: Line; except: Node): Node;\n"
    "begin\n"
    "  for k: Cache do\n"
    "    if k != except & D[l].sharer[k] then return k; endif;\n"
    "  end;\n"
    "  return NOBODY;\n"
    "end;\n\n"
    "procedure clear_holders(l: Line);\n"
    "begin\n"
    "  for k: Cache do D[l].sharer[k] := false; end;\n"
    "  D[l].owner := NOBODY;\n"
    "  D[l].fwd := NOBODY;\n"
    "end;\n\n"
    "procedure forward(l: Line; t: MType; dst: Node; await: boolean);\n"
    "begin\n"
    "  assert dst != NOBODY & dst != D[l].requester \"a forward with no cache to go to\";\n"
    "  send(t, HOME, dst, l, D[l].requester, false, 0, false);\n"
    "  if await then await_answers(l, 1); endif;\n"
    "end;\n\n"
    "-- a store: every value of the line gets one write older\n"
    "function older(v: Value): Value;\n"
    "begin\n"
    "  return v < NV - 1 ? v + 1 : v;\n"
    "end;\n\n"
    "procedure age(l: Line);\n"
    "begin\n"
    "  for c: Cache do\n"
    "    if C[c].ln[l].st != C_I then C[c].ln[l].v := older(C[c].ln[l].v); endif;\n"
    "  end;\n"
    "  for n: Node do for i: 0..QMAX-1 do\n"
    "    if i < net[n].n & net[n].m[i].ln = l & net[n].m[i].data then\n"
    "      net[n].m[i].v := older(net[n].m[i].v);\n"
    "    endif;\n"
    "  end; end;\n"
    "  for i: 0..HQMAX-1 do\n"
    "    if i < D[l].qn & D[l].q[i].data then D[l].q[i].v := older(D[l].q[i].v); endif;\n"
    "  end;\n"
    "  D[l].mem := older(D[l].mem);\n"
    "end;\n\n"
    "-- the core's request on its copy: a store writes the last write\n"
    "procedure perform(c: Cache; l: Line; var f: Step);\n"
    "begin\n"
    "  assert readable(C[c].ln[l].st) \"perform_request on a copy that cannot be read\";\n"
    "  if C[c].rq = R_Store then\n"
    "    assert writable(C[c].ln[l].st) \"a store on a copy that is not writable\";\n"
    "    age(l);\n"
    "    C[c].ln[l].v := 0;\n"
    "  endif;\n"
    "  C[c].rq := R_None; C[c].rl := 0;\n"
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
    "  return stable_h(D[l].st) & D[l].qn > 0 & !D[l].done_due;\n"
    "end;\n\n"
    "function home_free(l: Line): boolean;\n"
    "begin\n"
    "  return !D[l].done_due & !drain_due(l);\n"
    "end;\n\n"
    "-- what the runtime does in the step that caused it goes first\n"
    "function urgent(): boolean;\n"
    "begin\n"
    "  return (exists l: Line do D[l].done_due | drain_due(l) end)\n"
    "    | (exists c: Cache do replay_due(c) end);\n"
    "end;\n\n"
    "-- after a step at the home: a stable line forgets its transaction; a\n"
    "-- busy one sends the parked requests it takes back to the home's input\n"
    "procedure settle(l: Line);\n"
    "var go: boolean; m: Msg;\n"
    "begin\n"
    "  if stable_h(D[l].st) then\n"
    "    D[l].requester := NOBODY; D[l].supplier := NOBODY; D[l].gone := false;\n"
    "    D[l].upgrade := false;\n"
    "  else\n"
    "    go := true;\n"
    "    while go & D[l].qn > 0 do\n"
    "      if home_takes(D[l].st, home_event(D[l].q[0])) then\n"
    "        m := D[l].q[0]; unpark(l); deliver(HOME, m);\n"
    "      else\n"
    "        go := false;\n"
    "      endif;\n"
    "    end;\n"
    "  endif;\n"
    "end;\n\n",
    NULL};

static void print_glue(FILE *f, const struct cc_murphi_opts *o)
{
    long kmax =
        (long)(M_COUNT + 1) * (o->caches + 1) * o->lines * (o->caches + 1) * 2 * o->values * 2;
    fprintf(f, "const KMAX: %ld;\n\n", kmax - 1);
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
    fprintf(f,                                                                                     \
            "-- %s\nprocedure ha_%s(l: Line; m: Msg; ev: HEvent; var f: Step);\nbegin\n"           \
            "  alias d: D[l] do\n    %s\n  end;\nend;\n\n",                                        \
            doc, #name, murphi);
    CC_HOME_ACTIONS(HOME)
#undef HOME
    fprintf(f, "procedure cache_act(a: CAct; c: Cache; l: Line; m: Msg; var f: Step);\n"
               "begin\n  switch a\n");
    for (size_t i = 0; i < SIM_COUNT_OF(cache_actions); i++)
        fprintf(f, "  case CA_%s: ca_%s(c, l, m, f);\n", cache_actions[i], cache_actions[i]);
    fprintf(f, "  endswitch;\nend;\n\n");
    fprintf(f, "procedure home_act(a: HAct; l: Line; m: Msg; ev: HEvent; var f: Step);\n"
               "begin\n  switch a\n");
    for (size_t i = 0; i < SIM_COUNT_OF(home_actions); i++)
        fprintf(f, "  case HA_%s: ha_%s(l, m, ev, f);\n", home_actions[i], home_actions[i]);
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
                "procedure home_run(l: Line; ev: HEvent; m: Msg);\n"
                "var f: Step; a: array[0..%d] of HAct; n: 0..%d; row: 0..64; same: boolean;\n"
                "    next: HState;\nbegin\n  row := home_row_of(D[l].st, ev);\n",
                CC_MAX_ACTIONS - 1, CC_MAX_ACTIONS);
    else
        fprintf(f,
                "procedure cache_run(c: Cache; l: Line; ev: CEvent; m: Msg);\n"
                "var f: Step; a: array[0..%d] of CAct; n: 0..%d; row: 0..64; same: boolean;\n"
                "    next: CState;\nbegin\n  row := cache_row_of(C[c].ln[l].st, ev);\n",
                CC_MAX_ACTIONS - 1, CC_MAX_ACTIONS);
    fprintf(f,
            "  if row = 0 then error \"no row for the %s's state and event\"; endif;\n"
            "  f.stalled := false; f.performed := false; same := true; n := 0;\n"
            "  switch row\n",
            home ? "home" : "cache");
    for (size_t i = 0; i < t->nrows; i++)
        print_row_case(f, t, i, home);
    fprintf(f, "  endswitch;\n  for k: 0..%d do\n    if k < n then ", CC_MAX_ACTIONS - 1);
    if (home)
        fprintf(f, "home_act(a[k], l, m, ev, f); endif;\n  end;\n"
                   "  if !same then D[l].st := next; endif;\n");
    else
        fprintf(f, "cache_act(a[k], c, l, m, f); endif;\n  end;\n"
                   "  if !same then C[c].ln[l].st := next; endif;\n"
                   "  if C[c].ln[l].st = C_I then C[c].ln[l].v := 0; endif; -- a free way\n"
                   "  if (ev = CE_Load | ev = CE_Store) & !f.performed & !f.stalled then\n"
                   "    error \"the core's request was neither performed nor parked: it would "
                   "never complete\";\n  endif;\n");
    fprintf(f, "end;\n\n");
}

/* The rules: who may act now (k); the event follows from the state. A
 * cache acts on message slot
 * k < QMAX, else on line (k - QMAX) / 3 with its core's Load, Store or a
 * Replace; the home on message slot k < QMAX, else on line (k - QMAX) / 4
 * with a parked request, Done, memory's data or memory's ack. */
static const char *const rules[] = {
    "function cache_ready(c: Cache; k: 0..QMAX+3*NL-1): boolean;\n"
    "var l: Line; j: 0..3*NL;\n"
    "begin\n"
    "  if k >= QMAX then l := (k - QMAX) / 3; j := (k - QMAX) % 3; endif;\n"
    "  if U then -- only the replay of a parked request\n"
    "    return k >= QMAX & j < 2 & replay_due(c) & C[c].rl = l\n"
    "      & C[c].rq = (j = 0 ? R_Load : R_Store);\n"
    "  endif;\n"
    "  if k < QMAX then return k < net[c].n; endif;\n"
    "  if j < 2 then return C[c].rq = R_None; endif;\n"
    "  return stable_c(C[c].ln[l].st) & C[c].ln[l].st != C_I\n"
    "    & !(C[c].rq != R_None & C[c].rl = l);\n"
    "end;\n\n"
    "function cache_ev(c: Cache; k: 0..QMAX+3*NL-1): CEvent;\n"
    "begin\n"
    "  if k < QMAX then return cache_event(net[c].m[k].t); endif;\n"
    "  switch (k - QMAX) % 3\n"
    "  case 0: return CE_Load;\n"
    "  case 1: return CE_Store;\n"
    "  else return CE_Replace;\n"
    "  endswitch;\n"
    "end;\n\n"
    "ruleset c: Cache; k: 0..QMAX+3*NL-1 do\n"
    "  rule \"cache\"\n"
    "    cache_ready(c, k)\n"
    "  ==>\n"
    "  var m: Msg; l: Line; e: CEvent;\n"
    "  begin\n"
    "    e := cache_ev(c, k);\n"
    "    if k < QMAX then\n"
    "      m := net[c].m[k]; l := m.ln; take(c, k);\n"
    "    else\n"
    "      clear_msg(m); l := (k - QMAX) / 3;\n"
    "      if e = CE_Load then C[c].rq := R_Load; C[c].rl := l; endif;\n"
    "      if e = CE_Store then C[c].rq := R_Store; C[c].rl := l; endif;\n"
    "    endif;\n"
    "    cache_run(c, l, e, m);\n"
    "    U := urgent();\n"
    "  end;\n"
    "end;\n\n",
    "function home_ready(k: 0..QMAX+4*NL-1): boolean;\n"
    "var l: Line;\n"
    "begin\n"
    "  if k >= QMAX then l := (k - QMAX) / 4; endif;\n"
    "  if U then -- only Done, or the drain of a stable line's queue\n"
    "    return k >= QMAX & (((k - QMAX) % 4 = 0 & drain_due(l))\n"
    "                        | ((k - QMAX) % 4 = 1 & D[l].done_due));\n"
    "  endif;\n"
    "  if k < QMAX then return k < net[HOME].n; endif;\n"
    "  switch (k - QMAX) % 4\n"
    "  case 2: return D[l].mem_reads > 0;\n"
    "  case 3: return D[l].mem_acks > 0;\n"
    "  else return false;\n"
    "  endswitch;\n"
    "end;\n\n"
    "function home_ev(k: 0..QMAX+4*NL-1): HEvent;\n"
    "begin\n"
    "  if k < QMAX then return home_event(net[HOME].m[k]); endif;\n"
    "  switch (k - QMAX) % 4\n"
    "  case 0: return home_event(D[(k - QMAX) / 4].q[0]);\n"
    "  case 1: return HE_Done;\n"
    "  case 2: return HE_Mem_Data;\n"
    "  else return HE_Mem_Ack;\n"
    "  endswitch;\n"
    "end;\n\n"
    "ruleset k: 0..QMAX+4*NL-1 do\n"
    "  rule \"home\"\n"
    "    home_ready(k)\n"
    "  ==>\n"
    "  var m: Msg; l: Line; e: HEvent;\n"
    "  begin\n"
    "    e := home_ev(k); clear_msg(m);\n"
    "    if k < QMAX then\n"
    "      m := net[HOME].m[k]; l := m.ln; take(HOME, k);\n"
    "    else\n"
    "      l := (k - QMAX) / 4;\n"
    "      switch (k - QMAX) % 4\n"
    "      case 0: m := D[l].q[0]; unpark(l);\n"
    "      case 1: D[l].done_due := false;\n"
    "      case 2: D[l].mem_reads := D[l].mem_reads - 1;\n"
    "      else D[l].mem_acks := D[l].mem_acks - 1;\n"
    "      endswitch;\n"
    "    endif;\n"
    "    home_run(l, e, m);\n"
    "    -- Done is raised when every awaited answer of a transient line is in\n"
    "    assert stable_h(D[l].st) | D[l].requester != NOBODY \"a busy line with no requester\";\n"
    "    if e != HE_Done & !stable_h(D[l].st) & D[l].pending = 0 then\n"
    "      D[l].done_due := true;\n"
    "    else\n"
    "      settle(l);\n"
    "    endif;\n"
    "    U := urgent();\n"
    "  end;\n"
    "end;\n\n",
    NULL};

/* ------------------------------------------------------------ start, invariants */

static const char *const start_and_invariants[] = {
    "startstate \"every line in memory, no copy\"\n"
    "  begin\n"
    "    for n: Node do\n"
    "      net[n].n := 0;\n"
    "      for i: 0..QMAX-1 do clear_msg(net[n].m[i]); end;\n"
    "    end;\n"
    "    for c: Cache do\n"
    "      C[c].rq := R_None; C[c].rl := 0;\n"
    "      for l: Line do C[c].ln[l].st := C_I; C[c].ln[l].v := 0; end;\n"
    "    end;\n"
    "    for l: Line do\n"
    "      D[l].st := H_I; D[l].owner := NOBODY; D[l].fwd := NOBODY; D[l].mem := 0;\n"
    "      for c: Cache do D[l].sharer[c] := false; end;\n"
    "      D[l].requester := NOBODY; D[l].pending := 0; D[l].supplier := NOBODY;\n"
    "      D[l].gone := false; D[l].upgrade := false; D[l].done_due := false;\n"
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
    "  return stable_h(D[l].st) & D[l].qn = 0 & !D[l].done_due & D[l].mem_reads = 0\n"
    "    & D[l].mem_acks = 0\n"
    "    & (forall c: Cache do stable_c(C[c].ln[l].st) end)\n"
    "    & (forall n: Node do forall i: 0..QMAX-1 do\n"
    "         i >= net[n].n | (NL > 1 & net[n].m[i].ln != l) end end);\n"
    "end;\n\n",
    "-- on a quiet line the directory names every holder in the right state\n"
    "function dir_agrees(l: Line): boolean;\n"
    "begin\n"
    "  alias d: D[l] do\n"
    "  return\n"
    "    (d.st = H_I -> d.owner = NOBODY & (forall c: Cache do !d.sharer[c] end))\n"
    "    & ((d.st = H_EM | d.st = H_O) -> d.owner != NOBODY)\n"
    "    & ((d.st = H_S | d.st = H_SF | d.st = H_GOLS) -> d.owner = NOBODY)\n"
    "    & (forall c: Cache do\n"
    "         ((C[c].ln[l].st = C_E | C[c].ln[l].st = C_M) -> d.st = H_EM & d.owner = c)\n"
    "       & (C[c].ln[l].st = C_O -> d.st = H_O & d.owner = c)\n"
    "       & (C[c].ln[l].st = C_S -> d.sharer[c] & d.owner != c)\n"
    "       & (C[c].ln[l].st = C_F -> d.sharer[c] & d.fwd = c & d.st = H_SF)\n"
    "       & (C[c].ln[l].st = C_I -> !d.sharer[c] & d.owner != c)\n"
    "       & (d.sharer[c] -> C[c].ln[l].st = C_S | C[c].ln[l].st = C_F)\n"
    "       & (d.owner = c -> C[c].ln[l].st = C_E | C[c].ln[l].st = C_M\n"
    "                         | C[c].ln[l].st = C_O)\n"
    "     end);\n"
    "  end;\n"
    "end;\n\n",
    "invariant \"single writer or many readers\"\n"
    "  forall l: Line do\n"
    "    (forall c: Cache do writable(C[c].ln[l].st) ->\n"
    "       forall k: Cache do k = c | !readable(C[k].ln[l].st) end end)\n"
    "  end;\n\n",
    "invariant \"every readable copy holds the last write\"\n"
    "  forall l: Line do forall c: Cache do\n"
    "    readable(C[c].ln[l].st) -> C[c].ln[l].v = 0\n"
    "  end end;\n\n",
    "invariant \"memory holds the last write when no cache holds the line dirty\"\n"
    "  forall l: Line do\n"
    "    (quiet(l) & copies(l, C_M, C_O) = 0 & D[l].st != H_GOLS) -> D[l].mem = 0\n"
    "  end;\n\n",
    "invariant \"at most one F copy\"\n"
    "  forall l: Line do copies(l, C_F, C_FM_D) <= 1 end;\n\n",
    "invariant \"at most one O copy\"\n"
    "  forall l: Line do copies(l, C_O, C_OM_D) <= 1 end;\n\n",
    "invariant \"the directory agrees with the caches on a quiet line\"\n"
    "  forall l: Line do quiet(l) -> dir_agrees(l) end;\n\n",
    "-- a deadlock: something on the line waits (a transient copy, a busy\n"
    "-- home, a parked request) but nothing is coming (no message for the line,\n"
    "-- no memory access, no step of the home's or a cache's own)\n"
    "function stuck(l: Line): boolean;\n"
    "begin\n"
    "  return ((exists c: Cache do !stable_c(C[c].ln[l].st) end) | !stable_h(D[l].st)\n"
    "          | D[l].qn > 0)\n"
    "    & D[l].mem_reads = 0 & D[l].mem_acks = 0 & !D[l].done_due & !drain_due(l)\n"
    "    & (forall c: Cache do !(replay_due(c) & C[c].rl = l) end)\n"
    "    & (forall n: Node do forall i: 0..QMAX-1 do\n"
    "         i >= net[n].n | (NL > 1 & net[n].m[i].ln != l) end end);\n"
    "end;\n\n"
    "invariant \"no deadlock: whatever waits on a line has a message or a step coming\"\n"
    "  forall l: Line do !stuck(l) end;\n",
    NULL};

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
    print_cache_event(f);
    fprintf(f, "-- ------------------------------------------------ the runtime's glue\n\n");
    print_glue(f, o);
    fprintf(f, "-- ------------------------------------------------ the actions\n\n");
    print_actions(f);
    fprintf(f, "-- ------------------------------------------------ the tables' rows\n\n");
    print_runner(f, &p->cache, false);
    print_runner(f, &p->home, true);
    fprintf(f, "-- ------------------------------------------------ the rules\n\n");
    print_text(f, rules);
    fprintf(f, "-- ------------------------------------------------ start and properties\n\n");
    print_text(f, start_and_invariants);
}
