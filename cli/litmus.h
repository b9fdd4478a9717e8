/*
 * litmus.h -- herdtools7's x86 litmus tests (prefix lit_): read one,
 * translate it into a version-2 trace (workloads/trace), and judge the
 * final condition on the outcome of a run. `ccsim litmus` (cli_litmus.c)
 * runs the trace many times and prints herd's verdict.
 *
 * The subset read (docs/litmus.md):
 *   X86 NAME                       the header
 *   "doc" / KEY=VALUE lines         skipped (diy's Cycle=, Relax=, ...)
 *   { x=0; y=1; 0:EAX=0; }          init: memory words and registers (0 if absent)
 *    P0          | P1          ;    one column a thread, one row a line
 *    MOV [x],$1  | MOV EAX,[y] ;    MOV between registers, $immediates and [x]
 *    MFENCE, XCHG [x],EAX, LOCK XCHG, LOCK XADD [x],EAX, LOCK ADD [x],$1 / EAX,
 *    LOCK INC [x], LOCK DEC [x], LOCK CMPXCHG [x],EBX (compares with EAX)
 *   locations [x; 0:EAX;]           optional: shown in every outcome
 *   exists / ~exists / forall PROP  PROP of P:REG=V and x=V ([x]=V) atoms,
 *                                   /\, \/, ~, parentheses, true, false
 * OCaml comments (* ... *) are skipped; one of the form
 * (* ccsim-expect: Ok *) (or No) is the verdict the test must give.
 * Errors are "FILE:LINE: message".
 */
#ifndef CCSIM_LITMUS_H
#define CCSIM_LITMUS_H

#include "sim.h"

#include <stdbool.h>
#include <stdint.h>

#define LIT_MAX_THREADS 8
#define LIT_MAX_LOCS    16
#define LIT_MAX_REGS    16 /* distinct register names */
#define LIT_MAX_NODES   256
/* every location and every register of every thread: an outcome shows
 * them all if the test asks (a state cut short would merge outcomes) */
#define LIT_MAX_SHOW (LIT_MAX_LOCS + LIT_MAX_THREADS * LIT_MAX_REGS)

enum lit_quant { LIT_EXISTS, LIT_NOT_EXISTS, LIT_FORALL };

/* A value the outcome shows: thread's register (thread >= 0) or a
 * location's final word (thread -1). */
struct lit_var {
    int thread;
    int index; /* register (lit_test.regs) or location (lit_test.locs) */
};

enum lit_node_kind { LIT_TRUE, LIT_FALSE, LIT_ATOM, LIT_NOT, LIT_AND, LIT_OR };
struct lit_node {
    enum lit_node_kind kind;
    int a, b; /* operand nodes */
    struct lit_var var;
    int64_t value;
};

struct lit_test {
    char file[512];
    char name[64];
    int threads;
    int threads_line; /* the P0 | P1 ; line */
    int nlocs, nregs;
    char locs[LIT_MAX_LOCS][32];
    char regs[LIT_MAX_REGS][16];
    enum lit_quant quant;
    struct lit_node nodes[LIT_MAX_NODES];
    int nnodes, root;
    char condition[512];               /* as written, for the report */
    struct lit_var show[LIT_MAX_SHOW]; /* what each outcome lists */
    int nshow;
    int expect;  /* -1 none, 1 Ok, 0 No */
    char *trace; /* the version-2 trace (malloc'd) */
};

/* An outcome: the values of every register of every thread and every
 * location at the end of a run. */
struct lit_outcome {
    int64_t reg[LIT_MAX_THREADS][LIT_MAX_REGS];
    int64_t loc[LIT_MAX_LOCS];
};

/* Reads a test; false with "FILE:LINE: message" in d. */
bool lit_read(const char *path, struct lit_test *t, struct sim_diag *d);
/* The same on text (for tests). */
bool lit_parse(const char *name, const char *text, struct lit_test *t, struct sim_diag *d);
void lit_free(struct lit_test *t);
/* The trace's register holding thread-local register r, and the one
 * thread 0 reads location l into at the end. */
void lit_reg_name(const struct lit_test *t, int r, char *buf, size_t size);
void lit_loc_end_name(const struct lit_test *t, int l, char *buf, size_t size);
/* Whether the condition's proposition holds in o. */
bool lit_holds(const struct lit_test *t, const struct lit_outcome *o);
/* Writes the shown values of o ("0:EAX=1; x=2;"). */
void lit_format(const struct lit_test *t, const struct lit_outcome *o, char *buf, size_t size);

#endif
